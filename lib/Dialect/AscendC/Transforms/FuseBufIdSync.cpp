//===- FuseBufIdSync.cpp - Fewer buffer-id syncs in runs ------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_FUSEBUFIDSYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

static constexpr llvm::StringLiteral kBufIds = AscendCDialect::kBufIdsAttrName;

namespace {

/// An instruction with the get_buf ops right before it and the rls_buf ops
/// right after it.
struct Guarded {
  Operation *op;
  SmallVector<Operation *> gets, releases;
};

/// The guarded instruction starting at `it`, if `it` starts one.
std::optional<Guarded> readGuarded(Block::iterator it, Block::iterator end) {
  Guarded guarded;
  for (; it != end && isa<GetBufOp>(*it); ++it)
    guarded.gets.push_back(&*it);
  if (it == end || !it->hasAttr(kBufIds))
    return std::nullopt;
  guarded.op = &*it;
  for (++it; it != end && isa<RlsBufOp>(*it); ++it)
    guarded.releases.push_back(&*it);
  return guarded;
}

bool fusable(const Guarded &a, const Guarded &b) {
  std::optional<Pipe> pipe = getOpPipe(a.op);
  if (!pipe || pipe != getOpPipe(b.op) ||
      !llvm::is_contained({Pipe::V, Pipe::MTE2, Pipe::MTE3}, *pipe))
    return false;
  return a.op->getAttr(kBufIds) == b.op->getAttr(kBufIds);
}

struct FuseBufIdSyncPass
    : tilekit::ascendc::impl::FuseBufIdSyncBase<FuseBufIdSyncPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      fuse(*block);
    getOperation().walk([](Operation *op) { op->removeAttr(kBufIds); });
  }

  static void fuse(Block &block) {
    // Collect the guarded instructions that directly follow each other.
    SmallVector<Guarded> run;
    SmallVector<Operation *> dead;
    auto flush = [&] {
      for (size_t i = 0; i + 1 < run.size(); ++i)
        if (fusable(run[i], run[i + 1])) {
          dead.append(run[i].releases);
          dead.append(run[i + 1].gets);
        }
      run.clear();
    };
    for (auto it = block.begin(); it != block.end();) {
      std::optional<Guarded> guarded = readGuarded(it, block.end());
      if (!guarded) {
        // Ops that touch no buffer (the constants fill-asc-operands puts
        // before each instruction) do not end a run: a buffer held across
        // them is held across nothing.
        if (!isMemoryEffectFree(&*it) || it->getNumRegions() != 0)
          flush();
        ++it;
        continue;
      }
      it =
          std::next(Block::iterator(guarded->op), 1 + guarded->releases.size());
      run.push_back(std::move(*guarded));
    }
    flush();
    for (Operation *op : dead)
      op->erase();
  }
};
} // namespace
