//===- DiagnosticCapture.h - Diagnostics held back per thread ----*- C++
//-*-===//
//
// Internal to the executor. Calls that run at once on several threads must
// report what a run on one thread would: only the first failure in program
// order. Each thread therefore collects its diagnostics, and the scheduler
// decides which to emit once the order is known.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_DIAGNOSTICCAPTURE_H
#define TILEKIT_LIB_INTERP_DIAGNOSTICCAPTURE_H

#include "mlir/IR/Diagnostics.h"

#include <vector>

namespace tilekit::interp {

/// While alive, routes each diagnostic emitted in `context` by a thread
/// inside a CaptureScope to that scope; other diagnostics pass through.
class DiagnosticRouter {
public:
  explicit DiagnosticRouter(mlir::MLIRContext *context);
  ~DiagnosticRouter();
  DiagnosticRouter(const DiagnosticRouter &) = delete;
  DiagnosticRouter &operator=(const DiagnosticRouter &) = delete;

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID handler;
};

/// Collects what this thread emits into `sink` until destroyed (scopes
/// nest: the innermost collects).
class CaptureScope {
public:
  explicit CaptureScope(std::vector<mlir::Diagnostic> &sink);
  ~CaptureScope();
  CaptureScope(const CaptureScope &) = delete;
  CaptureScope &operator=(const CaptureScope &) = delete;

private:
  std::vector<mlir::Diagnostic> *previous;
};

/// Emits `diagnostics` in order on `context` (from no capture scope).
void emitAll(mlir::MLIRContext *context,
             std::vector<mlir::Diagnostic> &diagnostics);

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_DIAGNOSTICCAPTURE_H
