//===- FailureReport.cpp - JSON on stdout when a --json command fails -----===//

#include "FailureReport.h"
#include "Commands.h"
#include "tilekit/Driver/KernelSummary.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;
using namespace tilekit;

namespace {
struct Recorded {
  std::mutex mutex; // diagnostics come from the executor's threads
  llvm::json::Array diagnostics, waiters;
  bool printed = false;
};
} // namespace

static Recorded &recorded() {
  static Recorded instance;
  return instance;
}

void driver::recordDiagnostics(MLIRContext &context) {
  if (!printsJson())
    return;
  context.getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      std::lock_guard<std::mutex> lock(recorded().mutex);
      recorded().diagnostics.push_back(getDiagnosticJson(diag));
    }
    return failure(); // the printing handler still sees it
  });
}

void driver::recordMessage(StringRef message) {
  if (!printsJson())
    return;
  std::lock_guard<std::mutex> lock(recorded().mutex);
  recorded().diagnostics.push_back(llvm::json::Object{
      {"severity", "error"}, {"location", ""}, {"message", message.str()}});
}

void driver::recordWaits(ArrayRef<interp::StalledWait> waits) {
  std::lock_guard<std::mutex> lock(recorded().mutex);
  for (const interp::StalledWait &wait : waits)
    recorded().waiters.push_back(
        llvm::json::Object{{"core", wait.core},
                           {"op", wait.op->getName().getStringRef().str()},
                           {"location", getLocationText(wait.op->getLoc())}});
}

void driver::noteJsonPrinted() { recorded().printed = true; }

int driver::finishJson(int status) {
  if (status == kExitOk || !printsJson() || recorded().printed)
    return status;
  llvm::outs() << llvm::formatv(
      "{0:2}\n", llvm::json::Value(llvm::json::Object{
                     {"ok", false},
                     {"status", status},
                     {"stalled", status == kExitStalled},
                     {"diagnostics", std::move(recorded().diagnostics)},
                     {"waiters", std::move(recorded().waiters)}}));
  return status;
}
