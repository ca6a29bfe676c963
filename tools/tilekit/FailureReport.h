//===- FailureReport.h - JSON on stdout when a --json command fails -*- C++
//-*-===//
//
// `run --json` and `sim --json` print one JSON object on stdout whatever
// happens. When the command fails before its result exists, that object is
// {"ok": false, "status", "diagnostics", "waiters"}: every error with its
// location and notes, and, for a stall, each core left waiting and where.
// The text diagnostics still go to stderr.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TOOLS_TILEKIT_FAILUREREPORT_H
#define TILEKIT_TOOLS_TILEKIT_FAILUREREPORT_H

#include "tilekit/Interp/Interpreter.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

namespace tilekit::driver {

/// Whether the command prints JSON on stdout (run --json, sim --json).
bool printsJson();

/// Records the diagnostics of `context` (they still reach the handlers
/// registered before, which print them) until it is destroyed.
void recordDiagnostics(mlir::MLIRContext &context);
/// Records a message of the command itself (fail()).
void recordMessage(llvm::StringRef message);
/// Records the cores a stalled run left waiting.
void recordWaits(llvm::ArrayRef<interp::StalledWait> waits);
/// The command printed its own JSON: no failure report is needed.
void noteJsonPrinted();

/// Prints the failure report on stdout when the command prints JSON, failed
/// with `status`, and printed nothing itself; returns `status`.
int finishJson(int status);

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_FAILUREREPORT_H
