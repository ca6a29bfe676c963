//===- AllocateTensor.cpp - Static addresses for local tensors ------------===//

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <map>

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

  /// One after another in each pool; with lanes on their own sub-blocks,
  /// the tensors both lanes use first, then each lane's from where those
  /// end: lane 0's UB and lane 1's are different memories.
  static void allocate(FunctionOpInterface func) {
    bool ownUbs = lanesHaveOwnSubBlocks(func);
    SmallVector<LocalTensorAutoOp> shared, laned;
    func.walk([&](LocalTensorAutoOp op) {
      bool inLane = ownUbs && getBuffer(op.getPosition()) == Buffer::UB &&
                    getTensorLane(op.getResult());
      (inLane ? laned : shared).push_back(op);
    });
    llvm::SmallDenseMap<Position, int64_t> next;
    for (LocalTensorAutoOp op : shared)
      place(op, next[getAllocationPool(op.getPosition())]);
    std::map<std::pair<Position, int64_t>, int64_t> laneNext;
    for (LocalTensorAutoOp op : laned) {
      Position pool = getAllocationPool(op.getPosition());
      auto it =
          laneNext
              .try_emplace({pool, *getTensorLane(op.getResult())}, next[pool])
              .first;
      place(op, it->second);
    }
  }

  /// Gives `op` the address `address` and moves `address` past it.
  static void place(LocalTensorAutoOp op, int64_t &address) {
    Position position = op.getPosition();
    int64_t size = getAllocationBytes(op.getType(), position);
    OpBuilder builder(op);
    auto addressed =
        LocalTensorOp::create(builder, op.getLoc(), op.getType(), position,
                              address, size, op.getInput(), op.getOutput());
    // Keep what other passes attached (reuse groups, unroll iterations,
    // lanes).
    for (NamedAttribute attr : op->getDiscardableAttrs())
      addressed->setAttr(attr.getName(), attr.getValue());
    address += size;
    op.replaceAllUsesWith(addressed.getResult());
    op.erase();
  }
};
} // namespace
