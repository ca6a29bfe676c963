//===- PromoteCvBlock.cpp - Kernel type and single-kind groups ------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_PROMOTECVBLOCK
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct PromoteCvBlockPass
    : tilekit::ascendc::impl::PromoteCvBlockBase<PromoteCvBlockPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> groups;
    bool cube = false, vector = false;
    module.walk([&](Operation *op) {
      if (isa<IfAicOp>(op))
        cube = true;
      else if (isa<IfAivOp>(op))
        vector = true;
      else
        return;
      groups.push_back(op);
    });
    if (groups.empty())
      return;
    StringRef type = cube && vector ? "mixed" : cube ? "cube" : "vector";
    module->setAttr(AscendCDialect::kKernelTypeAttrName,
                    StringAttr::get(module.getContext(), type));
    if (cube && vector)
      return;
    for (Operation *group : groups) {
      Block &body = group->getRegion(0).front();
      body.getTerminator()->erase();
      group->getBlock()->getOperations().splice(group->getIterator(),
                                                body.getOperations());
      group->erase();
    }
  }
};
} // namespace
