//===- ReuseUbAllocation.cpp - Lifetime-based sharing of UB ---------------===//

#include "tilekit/Dialect/AscendC/Transforms/LocalTensorStorage.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_REUSEUBALLOCATION
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

/// A UB placeholder and when, in its block's op order, it is in use.
struct Lifetime {
  LocalTensorAutoOp tensor;
  BlockLifetime span;
};

/// Storage shared by tensors one after another. `root` is the placeholder
/// that owns it; the others are casts of it.
struct Storage {
  LocalTensorAutoOp root;
  unsigned freeAfter;
  bool holdsInOut;
};

bool isUB(Position position) { return getBuffer(position) == Buffer::UB; }

struct ReuseUbAllocationPass
    : tilekit::ascendc::impl::ReuseUbAllocationBase<ReuseUbAllocationPass> {
  using Base::Base;

  void runOnOperation() override {
    auto considered = [](LocalTensorAutoOp tensor) {
      return isUB(tensor.getPosition()) && !tensor.getInput() &&
             !tensor.getOutput();
    };
    // Recorded by ascendc-reuse-tensor-allocation when it ran just before
    // (it may have joined UB tensors already); else now.
    recordLifetimes(getOperation(), considered);
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region)
        process(block);
    shareAcrossBlocks(getOperation(), considered);
    shareByLifetimes(getOperation(), considered);
    forgetLifetimes(getOperation());
  }

  /// Nested blocks first, then tensors of alternative regions, then the
  /// block itself, which then sees hoisted tensors as used by their op.
  void process(Block &block) {
    for (Operation &op : block) {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          process(nested);
      if (op.getNumRegions() >= 2)
        shareAcrossRegions(op);
    }
    reuseIn(block);
  }

  /// The regions of an op with several (then/else, before/after) never run
  /// at the same time, so the j-th UB tensor of each region can share with
  /// the j-th of the first. The shared storage moves before the op so that
  /// it dominates every region.
  static void shareAcrossRegions(Operation &op) {
    SmallVector<SmallVector<LocalTensorAutoOp>> perRegion;
    for (Region &region : op.getRegions()) {
      perRegion.emplace_back();
      if (!region.hasOneBlock())
        continue;
      for (Operation &nested : region.front())
        if (auto tensor = dyn_cast<LocalTensorAutoOp>(nested);
            tensor && isUB(tensor.getPosition()))
          perRegion.back().push_back(tensor);
    }
    for (auto [j, owner] : llvm::enumerate(perRegion.front())) {
      owner->moveBefore(&op);
      for (ArrayRef<LocalTensorAutoOp> others : llvm::drop_begin(perRegion))
        if (j < others.size() && canShareStorage(owner, others[j]))
          owner = shareStorage(owner, others[j]);
    }
  }

  void reuseIn(Block &block) {
    BlockOrder order;
    SmallVector<Lifetime> lifetimes;
    for (Operation &op : block)
      if (auto tensor = dyn_cast<LocalTensorAutoOp>(op);
          tensor && isUB(tensor.getPosition()))
        lifetimes.push_back({tensor, getBlockLifetime(tensor, order)});

    // Inside a loop however deep (a core group in a loop body included):
    // pipelined iterations overlap there.
    bool inLoop = false;
    for (Operation *parent = block.getParentOp();
         parent && !isa<FunctionOpInterface>(parent);
         parent = parent->getParentOp())
      inLoop |= isa<LoopLikeOpInterface>(parent);
    SmallVector<Storage> storages;
    for (Lifetime &life : lifetimes) {
      bool inOut = life.tensor.getInput() || life.tensor.getOutput();
      Storage *chosen = nullptr;
      for (Storage &storage : storages) {
        if (storage.freeAfter >= life.span.first)
          continue;
        if (inLoop && inOut && storage.holdsInOut && !reuseInOut)
          continue;
        if (!canShareStorage(storage.root, life.tensor))
          continue;
        if (!chosen || storage.freeAfter < chosen->freeAfter)
          chosen = &storage;
      }
      if (!chosen) {
        storages.push_back({life.tensor, life.span.last, inOut});
        continue;
      }
      chosen->root = shareStorage(chosen->root, life.tensor);
      chosen->freeAfter = life.span.last;
      chosen->holdsInOut |= inOut;
    }
  }
};
} // namespace
