//===- DiagnosticCapture.cpp - Diagnostics held back per thread -----------===//

#include "DiagnosticCapture.h"

#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace tilekit::interp;

static thread_local std::vector<Diagnostic> *capturing = nullptr;

DiagnosticRouter::DiagnosticRouter(MLIRContext *context) : context(context) {
  handler = context->getDiagEngine().registerHandler(
      [](Diagnostic &diagnostic) -> LogicalResult {
        if (!capturing)
          return failure(); // not ours: the next handler reports it
        capturing->push_back(std::move(diagnostic));
        return success();
      });
}

DiagnosticRouter::~DiagnosticRouter() {
  context->getDiagEngine().eraseHandler(handler);
}

CaptureScope::CaptureScope(std::vector<Diagnostic> &sink)
    : previous(capturing) {
  capturing = &sink;
}

CaptureScope::~CaptureScope() { capturing = previous; }

void tilekit::interp::emitAll(MLIRContext *context,
                              std::vector<Diagnostic> &diagnostics) {
  std::vector<Diagnostic> *saved = capturing;
  capturing = nullptr;
  for (Diagnostic &diagnostic : diagnostics)
    context->getDiagEngine().emit(std::move(diagnostic));
  diagnostics.clear();
  capturing = saved;
}
