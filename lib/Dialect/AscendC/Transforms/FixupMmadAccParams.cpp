//===- FixupMmadAccParams.cpp - Initialize an accumulator once ------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_FIXUPMMADACCPARAMS
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

/// Whether `op` may run more than once for one definition of `value`: a loop
/// lies between them.
static bool repeats(Operation *op, Value value) {
  Region *home = value.getParentRegion();
  for (Operation *cur = op; cur->getParentRegion() != home;) {
    cur = cur->getParentOp();
    if (!cur)
      return false;
    if (isa<LoopLikeOpInterface>(cur))
      return true;
  }
  return false;
}

namespace {
struct FixupMmadAccParamsPass
    : tilekit::ascendc::impl::FixupMmadAccParamsBase<FixupMmadAccParamsPass> {
  void runOnOperation() override {
    llvm::MapVector<Value, SmallVector<MmadOp>> byAccumulator;
    getOperation().walk([&](MmadOp mmad) {
      if (mmad.getInit())
        byAccumulator[mmad.getDst()].push_back(mmad);
    });
    for (auto &[accumulator, mmads] : byAccumulator)
      if (mmads.size() > 1 || repeats(mmads.front(), accumulator))
        track(accumulator, mmads);
  }

  /// Gives `mmads` a runtime flag: true until the first of them has run.
  static void track(Value accumulator, ArrayRef<MmadOp> mmads) {
    Location loc = accumulator.getLoc();
    OpBuilder builder(accumulator.getContext());
    if (Operation *def = accumulator.getDefiningOp())
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(
          cast<BlockArgument>(accumulator).getOwner());
    auto flagType = MemRefType::get({1}, builder.getI1Type());
    Value flag = memref::AllocaOp::create(builder, loc, flagType);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value isTrue = arith::ConstantIntOp::create(builder, loc, 1, 1);
    memref::StoreOp::create(builder, loc, isTrue, flag, zero);
    for (MmadOp mmad : mmads) {
      builder.setInsertionPoint(mmad);
      Value index = arith::ConstantIndexOp::create(builder, mmad.getLoc(), 0);
      Value first = memref::LoadOp::create(builder, mmad.getLoc(), flag, index);
      mmad.getInitMutable().assign(first);
      builder.setInsertionPointAfter(mmad);
      Value isFalse =
          arith::ConstantIntOp::create(builder, mmad.getLoc(), 0, 1);
      memref::StoreOp::create(builder, mmad.getLoc(), isFalse, flag, index);
    }
  }
};
} // namespace
