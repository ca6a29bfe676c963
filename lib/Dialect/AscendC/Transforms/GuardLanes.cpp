//===- GuardLanes.cpp - Each vector lane on its own sub-block -------------===//
//
// A split group's lanes share one vector core after the lowering; on the
// machine a 1:2 launch gives each cube two, so each lane's ops go under
// `if_subblock <lane>` and everything else stays for both sub-blocks.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_GUARDLANES
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

/// The lanes whose tensors an op (or an op it holds) reads or writes: bit
/// L for lane L. Ops without effects (a tensor's definition or view,
/// scalar code) touch none.
unsigned lanesOf(Operation *op) {
  unsigned lanes = 0;
  op->walk([&](Operation *inner) {
    if (inner->getNumRegions() == 0 && isMemoryEffectFree(inner))
      return;
    for (Value operand : inner->getOperands())
      if (std::optional<int64_t> lane = getTensorLane(operand))
        lanes |= 1u << *lane;
  });
  return lanes;
}

/// Whether `op` moves GM data: it names a GM tensor and has effects.
bool movesGm(Operation *op) {
  return !isMemoryEffectFree(op) &&
         llvm::any_of(op->getOperandTypes(),
                      [](Type type) { return isa<GlobalTensorType>(type); });
}

/// Whether a value the ops of `run` define is used after them.
bool escapes(ArrayRef<Operation *> run) {
  llvm::SmallPtrSet<Operation *, 8> inside(run.begin(), run.end());
  for (Operation *op : run)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!inside.contains(
                run.front()->getBlock()->findAncestorOpInBlock(*user)))
          return true;
  return false;
}

class LaneGuard {
public:
  LogicalResult guard(Block &block);

private:
  LogicalResult close();
  SmallVector<Operation *> run;
  int64_t runLane = -1;
};

/// Puts the ops of `run` under an if_subblock of their lane.
LogicalResult LaneGuard::close() {
  llvm::scope_exit reset([&] {
    run.clear();
    runLane = -1;
  });
  if (run.empty())
    return success();
  if (escapes(run))
    return run.front()->emitOpError()
           << "computes a value of vector lane " << runLane
           << " that code outside the lane uses; the lanes cannot run on "
              "their own sub-blocks";
  OpBuilder builder(run.front());
  auto guarded = IfSubBlockOp::create(builder, run.front()->getLoc(), runLane);
  Block *body = builder.createBlock(&guarded.getBody());
  builder.setInsertionPointToEnd(body);
  YieldOp::create(builder, run.front()->getLoc());
  for (Operation *op : run)
    op->moveBefore(body->getTerminator());
  return success();
}

/// Guards each run of one lane's ops in `block`, and inside the ops that
/// hold both lanes' (a loop the lanes share).
LogicalResult LaneGuard::guard(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : ops) {
    unsigned lanes = lanesOf(op);
    if (lanes == 1u || lanes == 2u) {
      int64_t lane = lanes == 1u ? 0 : 1;
      if (lane != runLane && failed(close()))
        return failure();
      run.push_back(op);
      runLane = lane;
      continue;
    }
    // Scalar code between one lane's ops moves before them (it depends on
    // none of them), so that they stay in one guard.
    if (lanes == 0u && !run.empty() && op->getNumRegions() == 0 &&
        isMemoryEffectFree(op) &&
        llvm::none_of(op->getOperands(), [&](Value operand) {
          return llvm::is_contained(run, operand.getDefiningOp());
        })) {
      op->moveBefore(run.front());
      continue;
    }
    if (failed(close()))
      return failure();
    if (lanes == 0u) {
      // Both sub-blocks run it: scalar code, flags, a lane's scratch.
      bool moves = false;
      op->walk([&](Operation *inner) { moves |= movesGm(inner); });
      if (moves)
        return op->emitOpError()
               << "moves GM data on the vector core but touches neither "
                  "lane's tiles: neither sub-block alone may run it, and "
                  "both would repeat it";
      continue;
    }
    for (Region &region : op->getRegions())
      for (Block &inner : region)
        if (failed(guard(inner)))
          return failure();
  }
  return close();
}

struct GuardLanesPass : tilekit::ascendc::impl::GuardLanesBase<GuardLanesPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    bool guarded = false;
    SmallVector<IfAivOp> groups;
    func->walk([&](Operation *op) {
      guarded |= isa<IfSubBlockOp>(op);
      if (auto vector = dyn_cast<IfAivOp>(op); vector && !getCoreGroup(op))
        groups.push_back(vector);
    });
    if (guarded || !lanesHaveOwnSubBlocks(func))
      return;
    LaneGuard lanes;
    for (IfAivOp group : groups)
      if (failed(lanes.guard(group.getBody().front())))
        return signalPassFailure();
  }
};

} // namespace
