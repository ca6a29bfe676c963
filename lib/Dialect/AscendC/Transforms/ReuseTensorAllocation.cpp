//===- ReuseTensorAllocation.cpp - Sharing across unrolled iterations -----===//

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/LocalTensorStorage.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_REUSETENSORALLOCATION
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

static constexpr llvm::StringLiteral kUnrollIter =
    AsctileDialect::kUnrollIterAttrName;

namespace {

/// When a placeholder is in use: by unrolled iteration, and by position in
/// the block that defines it.
struct Life {
  LocalTensorAutoOp tensor;
  /// In the defining block; kept apart because `tensor` may become a cast.
  BlockLifetime span;
  std::optional<int64_t> minIter, maxIter;
  /// Used outside every unrolled iteration too (before or after the loop):
  /// its iterations alone do not bound its life.
  bool usedOutsideIterations = false;
  bool inOut = false;
};

struct Storage {
  LocalTensorAutoOp owner;
  Position pool;
  Life top;
};

/// The unrolled iteration `op` belongs to, if any.
std::optional<int64_t> getIteration(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto iter = op->getAttrOfType<IntegerAttr>(kUnrollIter))
      return iter.getInt();
  return std::nullopt;
}

bool isReusable(Position position) {
  switch (position) {
  case Position::VecCalc:
  case Position::VecIn:
  case Position::VecOut:
  case Position::A1:
  case Position::B1:
  case Position::A2:
  case Position::B2:
  case Position::CO1:
    return true;
  default:
    return false;
  }
}

Life measure(LocalTensorAutoOp tensor, BlockOrder &order) {
  Life life;
  life.tensor = tensor;
  life.inOut = tensor.getInput() || tensor.getOutput();
  life.span = getBlockLifetime(tensor, order);
  forEachUse(tensor.getResult(), [&](Operation *user) {
    if (isa<ReinterpretCastOp>(user))
      return;
    if (std::optional<int64_t> iter = getIteration(user)) {
      life.minIter = std::min(life.minIter.value_or(*iter), *iter);
      life.maxIter = std::max(life.maxIter.value_or(*iter), *iter);
    } else {
      life.usedOutsideIterations = true;
    }
  });
  return life;
}

/// Whether `bottom` may take the storage `top` is using.
bool canFollow(const Life &top, const Life &bottom) {
  if (top.minIter && bottom.minIter && !top.usedOutsideIterations &&
      !bottom.usedOutsideIterations) {
    if (top.inOut != bottom.inOut)
      return false;
    return *top.maxIter < *bottom.minIter;
  }
  return top.span.endsBefore(bottom.span);
}

struct ReuseTensorAllocationPass
    : tilekit::ascendc::impl::ReuseTensorAllocationBase<
          ReuseTensorAllocationPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *func = getOperation();
    auto reusable = [](LocalTensorAutoOp tensor) {
      return isReusable(tensor.getPosition()) && !tensor.getInput() &&
             !tensor.getOutput();
    };
    auto cube = [&](LocalTensorAutoOp tensor) {
      return reusable(tensor) && getBuffer(tensor.getPosition()) != Buffer::UB;
    };
    // Lifetimes before any tensor shares; UB's too when they are handed to
    // ascendc-reuse-ub-allocation.
    if (keepLifetimes)
      recordLifetimes(func, reusable);
    else
      recordLifetimes(func, cube);
    reuseIn(getOperation());
    // The cube's buffers across blocks (UB's: ascendc-reuse-ub-allocation).
    shareAcrossBlocks(func, cube);
    shareByLifetimes(func, cube);
    if (!keepLifetimes)
      forgetLifetimes(func);
  }

  static void reuseIn(FunctionOpInterface func) {
    SmallVector<Life> lives;
    BlockOrder order;
    func.walk([&](LocalTensorAutoOp tensor) {
      if (isReusable(tensor.getPosition()))
        lives.push_back(measure(tensor, order));
    });
    Block &entry = func.getFunctionBody().front();
    SmallVector<Storage> storages;
    for (Life &life : lives) {
      Position pool = getAllocationPool(life.tensor.getPosition());
      Storage *chosen = nullptr;
      for (Storage &storage : storages)
        if (storage.pool == pool && canFollow(storage.top, life) &&
            canShareStorage(storage.owner, life.tensor)) {
          chosen = &storage;
          break;
        }
      if (!chosen) {
        storages.push_back({life.tensor, pool, life});
        continue;
      }
      if (chosen->owner->getBlock() != life.tensor->getBlock())
        chosen->owner->moveBefore(&entry.front());
      chosen->owner = shareStorage(chosen->owner, life.tensor);
      chosen->top = life;
    }
  }
};
} // namespace
