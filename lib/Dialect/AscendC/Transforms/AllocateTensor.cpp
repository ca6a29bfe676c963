//===- AllocateTensor.cpp - Static addresses for local tensors ------------===//

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_ALLOCATETENSOR
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct AllocateTensorPass
    : tilekit::ascendc::impl::AllocateTensorBase<AllocateTensorPass> {
  void runOnOperation() override { allocate(getOperation()); }

  static void allocate(FunctionOpInterface func) {
    llvm::SmallDenseMap<Position, int64_t> next;
    SmallVector<LocalTensorAutoOp> placeholders;
    func.walk([&](LocalTensorAutoOp op) { placeholders.push_back(op); });
    for (LocalTensorAutoOp op : placeholders) {
      Position position = op.getPosition();
      int64_t size = getAllocationBytes(op.getType(), position);
      int64_t &address = next[getAllocationPool(position)];
      OpBuilder builder(op);
      auto addressed =
          LocalTensorOp::create(builder, op.getLoc(), op.getType(), position,
                                address, size, op.getInput(), op.getOutput());
      // Keep what other passes attached (reuse groups, unroll iterations).
      for (NamedAttribute attr : op->getDiscardableAttrs())
        addressed->setAttr(attr.getName(), attr.getValue());
      address += size;
      op.replaceAllUsesWith(addressed.getResult());
      op.erase();
    }
  }
};
} // namespace
