//===- RemoveDebugOps.cpp - Builds without debug mode ---------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_REMOVEDEBUGOPS
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct RemoveDebugOpsPass
    : tilekit::ascendc::impl::RemoveDebugOpsBase<RemoveDebugOpsPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation().walk([&](Operation *op) {
      if (isa<PrintfOp, DumpTensorOp, AssertOp>(op)) {
        op->erase();
        changed = true;
      }
    });
    // Unchanged IR need not be verified again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
