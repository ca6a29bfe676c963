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

/// The accumulator an mmad writes: its storage, and where in it a view at
/// a constant element offset starts (the matrices of a batch are apart);
/// nullopt for an offset known only at run time, which could be any.
static std::pair<Value, std::optional<int64_t>> accumulatorOf(Value tensor) {
  int64_t offset = 0;
  bool known = true;
  while (auto cast = tensor.getDefiningOp<ReinterpretCastOp>()) {
    if (Value at = cast.getOffset()) {
      auto constant = at.getDefiningOp<arith::ConstantIndexOp>();
      known &= static_cast<bool>(constant);
      if (constant)
        offset += constant.value();
    }
    tensor = cast.getSource();
  }
  return {tensor, known ? std::optional<int64_t>(offset) : std::nullopt};
}

/// Whether `mmad` starts an accumulation: its init is absent (Ascend C's
/// cmatrixInitVal defaults to true) or the constant true. A constant false
/// or a runtime value is the kernel's own choice and stays.
static bool startsFresh(MmadOp mmad) {
  Value init = mmad.getInit();
  if (!init)
    return true;
  auto constant = init.getDefiningOp<arith::ConstantIntOp>();
  return constant && constant.value() != 0;
}

/// Calls `visit` on every op that uses `storage` or a cast of it, other
/// than the casts.
static void forEachUser(Value storage, function_ref<void(Operation *)> visit) {
  for (Operation *user : storage.getUsers()) {
    if (auto cast = dyn_cast<ReinterpretCastOp>(user))
      forEachUser(cast.getResult(), visit);
    else
      visit(user);
  }
}

namespace {
struct FixupMmadAccParamsPass
    : tilekit::ascendc::impl::FixupMmadAccParamsBase<FixupMmadAccParamsPass> {
  void runOnOperation() override {
    // Views at run-time offsets of one storage count as one accumulator.
    llvm::MapVector<std::pair<Value, std::optional<int64_t>>,
                    SmallVector<MmadOp>>
        byAccumulator;
    getOperation().walk([&](MmadOp mmad) {
      if (startsFresh(mmad))
        byAccumulator[accumulatorOf(mmad.getDst())].push_back(mmad);
    });
    for (auto &[accumulator, mmads] : byAccumulator)
      if (mmads.size() > 1 || repeats(mmads.front(), accumulator.first))
        track(accumulator.first, mmads);
  }

  /// Gives `mmads` a runtime flag: true until the first of them has run,
  /// and true again after each read of the accumulator (an accumulation
  /// ends where its result is taken: the next output tile starts fresh).
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
    auto setFlag = [&](Location at, bool value) {
      Value index = arith::ConstantIndexOp::create(builder, at, 0);
      Value constant = arith::ConstantIntOp::create(builder, at, value, 1);
      memref::StoreOp::create(builder, at, constant, flag, index);
    };
    setFlag(loc, true);
    SmallVector<Operation *> readers;
    forEachUser(accumulator, [&](Operation *user) {
      if (!isa<MmadOp>(user))
        readers.push_back(user);
    });
    for (Operation *reader : readers) {
      builder.setInsertionPointAfter(reader);
      setFlag(reader->getLoc(), true);
    }
    for (MmadOp mmad : mmads) {
      builder.setInsertionPoint(mmad);
      Value index = arith::ConstantIndexOp::create(builder, mmad.getLoc(), 0);
      Value first = memref::LoadOp::create(builder, mmad.getLoc(), flag, index);
      mmad.getInitMutable().assign(first);
      builder.setInsertionPointAfter(mmad);
      setFlag(mmad.getLoc(), false);
    }
  }
};
} // namespace
