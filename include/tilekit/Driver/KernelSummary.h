//===- KernelSummary.h - What `tilekit check` reports of a kernel -*- C++
//-*-===//
//
// Each function of a kernel file: its kind, argument names, op count, the
// cube/vector pairing of groups and, once planned, the footprint per buffer
// with the tiles live at each peak. `tilekit check` prints it as text or
// JSON; the Python module returns the same JSON.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_KERNELSUMMARY_H
#define TILEKIT_DRIVER_KERNELSUMMARY_H

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Driver/PlanModule.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace tilekit::driver {

class KernelFile;

/// A tile live at a buffer's peak.
struct PeakTile {
  std::string name;
  std::string type;
  int64_t bytes;
  std::string location;
};

/// A buffer of a planned function.
struct BufferUse {
  std::string buffer;
  int64_t bytes, capacity, peakLive;
  std::vector<PeakTile> liveAtPeak;
};

/// One function of the kernel.
struct FunctionSummary {
  std::string name;
  std::string kind;
  std::vector<std::string> arguments;
  int64_t numOps = 0;
  std::optional<pto::GroupInfo> group;
  /// In-core functions, once planned: the footprint per buffer.
  std::optional<std::vector<BufferUse>> memory;
  unsigned copies = 0, doubleBufferedLoops = 0;
};

/// Every function as written (call before planning adds copies or unrolls
/// loops).
std::vector<FunctionSummary> summarizeKernel(KernelFile &kernel);

/// Adds each planned function's footprint to its summary.
void addPlans(std::vector<FunctionSummary> &summaries,
              llvm::ArrayRef<FunctionPlan> plans, KernelFile &kernel);

/// `{"functions": [...]}` as `tilekit check --json` prints it.
llvm::json::Object toJson(llvm::ArrayRef<FunctionSummary> summaries);

/// "FILE:LINE:COL" of a file location, else the location as MLIR prints it.
std::string getLocationText(mlir::Location loc);

/// A diagnostic as the --json outputs give it: severity, location, message
/// and its notes.
llvm::json::Object getDiagnosticJson(mlir::Diagnostic &diag);

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_KERNELSUMMARY_H
