//===- InsertBufIdSync.cpp - Buffer-id synchronization (C310) -------------===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTBUFIDSYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

#include <array>

using namespace mlir;
using namespace tilekit::ascendc;

/// The allocation a local tensor value views.
static Operation *getAllocation(Value tensor) {
  Operation *def = tensor.getDefiningOp();
  while (auto cast = dyn_cast_if_present<ReinterpretCastOp>(def))
    def = cast.getSource().getDefiningOp();
  return isa_and_present<LocalTensorOp, TBufGetTensorOp>(def) ? def : nullptr;
}

/// How many loops hold `loop`.
static int64_t getLoopDepth(scf::ForOp loop) {
  int64_t depth = 0;
  for (Operation *op = loop->getParentOp(); op; op = op->getParentOp())
    depth += isa<scf::ForOp>(op);
  return depth;
}

namespace {
struct InsertBufIdSyncPass
    : tilekit::ascendc::impl::InsertBufIdSyncBase<InsertBufIdSyncPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    bool done = false;
    func.walk([&](GetBufOp) { done = true; });
    if (!done)
      insert(func);
  }

  static void insert(FunctionOpInterface func) {
    MLIRContext *context = func.getContext();
    Builder attrs(context);
    // Ids count per core (a core's Mutex ids are its own: UB allocations
    // are the vector core's, the others the cube's) and wrap at the ids a
    // kernel may pick. Two allocations sharing an id only order more:
    // each instruction takes and gives back its ids around itself, so
    // locks of one id never nest.
    llvm::DenseMap<Operation *, int64_t> ids;
    std::array<int64_t, 2> next{};
    func.walk([&](Operation *op) {
      if (isa<LocalTensorOp, TBufGetTensorOp>(op)) {
        std::optional<Position> position = getPosition(op->getResult(0));
        bool vector = position && getBuffer(*position) == Buffer::UB;
        int64_t id = next[vector]++ % tilekit::machine::kMutexIds;
        ids[op] = id;
        op->setAttr(AscendCDialect::kBufIdAttrName,
                    attrs.getI64IntegerAttr(id));
      }
    });

    func.walk([&](Operation *op) {
      std::optional<Pipe> pipe = getOpPipe(op);
      if (!pipe)
        return;
      SmallVector<int64_t> used;
      for (Value operand : op->getOperands())
        if (Operation *allocation = getAllocation(operand))
          if (!llvm::is_contained(used, ids[allocation]))
            used.push_back(ids[allocation]);
      if (used.empty())
        return;
      OpBuilder builder(op);
      for (int64_t id : used)
        GetBufOp::create(builder, op->getLoc(), *pipe, id);
      builder.setInsertionPointAfter(op);
      for (int64_t id : used)
        RlsBufOp::create(builder, op->getLoc(), *pipe, id);
      op->setAttr(AscendCDialect::kBufIdsAttrName,
                  attrs.getDenseI64ArrayAttr(used));
    });

    func.walk([&](scf::ForOp loop) {
      if (loop->hasAttr(AscendCDialect::kVecScopeLoopAttrName) ||
          loop->hasAttr(AscendCDialect::kParallelAttrName))
        return;
      // Per core (cube group, vector group, or no group in a single-core
      // kernel): whether it stores and loads in the loop, and the last of
      // its groups in the body, where its loop-end flags go. Hard events
      // order the pipes of one core, so the flags sit in that core's group,
      // never outside both (where both cores would run them).
      struct CoreUse {
        bool stores = false, loadsGM = false, loadsL1 = false;
        Operation *lastGroup = nullptr;
      };
      std::array<CoreUse, 3> cores; // cube, vector, outside groups
      loop.getBody()->walk([&](Operation *op) {
        if (isa<GetBufOp, RlsBufOp>(op))
          return;
        Operation *group = getCoreGroup(op);
        if (group && !loop->isAncestor(group))
          group = nullptr; // the loop is inside the group
        CoreUse &core = cores[!group ? 2 : isCubeGroup(group) ? 0 : 1];
        if (group)
          core.lastGroup = group;
        std::optional<Pipe> pipe = getOpPipe(op);
        core.stores |= pipe == Pipe::MTE3;
        core.loadsGM |= pipe == Pipe::MTE2;
        core.loadsL1 |= pipe == Pipe::MTE1;
      });
      for (const CoreUse &core : cores) {
        if (!core.stores)
          continue;
        OpBuilder builder(
            core.lastGroup
                ? core.lastGroup->getRegion(0).front().getTerminator()
                : loop.getBody()->getTerminator());
        for (auto [needed, to] : {std::make_pair(core.loadsGM, Pipe::MTE2),
                                  std::make_pair(core.loadsL1, Pipe::MTE1)}) {
          if (!needed)
            continue;
          // The chip keeps one bit per event: a set before the wait of
          // the previous one is lost. A loop's pair and its inner loop's
          // come one after the other with nothing on MTE3 between, so
          // each takes its own event; and a trip whose stores do not
          // wait for its loads could reach its set before the loader took
          // the last trip's, so the loader first hands over to MTE3 (the
          // two pairs then order each other, trip after trip).
          int64_t event =
              getLoopDepth(loop) % tilekit::machine::kFirstReservedEventId;
          SetFlagOp::create(builder, loop.getLoc(), to, Pipe::MTE3, event);
          WaitFlagOp::create(builder, loop.getLoc(), to, Pipe::MTE3, event);
          SetFlagOp::create(builder, loop.getLoc(), Pipe::MTE3, to, event);
          WaitFlagOp::create(builder, loop.getLoc(), Pipe::MTE3, to, event);
        }
      }
    });
  }
};
} // namespace
