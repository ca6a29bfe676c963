//===- InsertCrossCoreSyncGm.cpp - Flags for cross-core GM transfers ------===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <set>

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTCROSSCORESYNCGM
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

/// A write to GM from a core group: its root GM tensor and whether it comes
/// from L0C (fixpipe) rather than UB.
struct GmWrite {
  Operation *op;
  Value root;
  bool fromL0C;
};

std::optional<GmWrite> asGmWrite(Operation *op) {
  if (auto fixpipe = dyn_cast<FixpipeOp>(op);
      fixpipe && isa<GlobalTensorType>(fixpipe.getDst().getType()))
    return GmWrite{op, getStorage(fixpipe.getDst()), true};
  if (auto copy = dyn_cast<DataCopyOp>(op);
      copy && isa<GlobalTensorType>(copy.getDst().getType()) &&
      isa<LocalTensorType>(copy.getSrc().getType()))
    return GmWrite{op, getStorage(copy.getDst()), false};
  return std::nullopt;
}

/// For each core kind (cube or vector) and storage root, the indices of the
/// groups of that kind that use the root, ascending: one walk of each group
/// up front, so finding a write's consumer is a binary search rather than
/// a walk of every later group (the pass was quadratic in kernel size).
class GroupUses {
public:
  explicit GroupUses(ArrayRef<Operation *> groups) {
    for (unsigned index = 0; index < groups.size(); ++index) {
      llvm::DenseMap<Value, SmallVector<unsigned>> &byRoot =
          users[isCubeGroup(groups[index]) ? 1 : 0];
      groups[index]->walk([&](Operation *op) {
        for (Value operand : op->getOperands()) {
          SmallVector<unsigned> &list = byRoot[getStorage(operand)];
          if (list.empty() || list.back() != index)
            list.push_back(index);
        }
      });
    }
  }

  /// The first group after `index` of the kind `cube` that uses `root`.
  std::optional<unsigned> firstAfter(unsigned index, bool cube,
                                     Value root) const {
    ArrayRef<unsigned> list = usersOf(cube, root);
    auto next = llvm::upper_bound(list, index);
    if (next == list.end())
      return std::nullopt;
    return *next;
  }

  /// The last group before `index` of the kind `cube` that uses `root`.
  std::optional<unsigned> lastBefore(unsigned index, bool cube,
                                     Value root) const {
    ArrayRef<unsigned> list = usersOf(cube, root);
    auto next = llvm::lower_bound(list, index);
    if (next == list.begin())
      return std::nullopt;
    return *std::prev(next);
  }

private:
  ArrayRef<unsigned> usersOf(bool cube, Value root) const {
    const auto &byRoot = users[cube ? 1 : 0];
    auto it = byRoot.find(root);
    return it == byRoot.end() ? ArrayRef<unsigned>() : ArrayRef(it->second);
  }

  llvm::DenseMap<Value, SmallVector<unsigned>> users[2];
};

/// The pipe of the last op of `group` that uses `root` (MTE2, GM's reader,
/// when none has a pipe).
Pipe lastPipeUsing(Operation *group, Value root) {
  Pipe pipe = Pipe::MTE2;
  group->walk([&](Operation *op) {
    std::optional<Pipe> on = getOpPipe(op);
    if (on && llvm::any_of(op->getOperands(), [&](Value operand) {
          return getStorage(operand) == root;
        }))
      pipe = *on;
  });
  return pipe;
}

/// The outermost `scf.if` around `op` that does not also hold `other`:
/// code under it may not run when `other` does.
Operation *conditionalAround(Operation *op, Operation *other) {
  Operation *outermost = nullptr;
  for (Operation *parent = op->getParentOp();
       parent && !parent->isAncestor(other); parent = parent->getParentOp())
    if (isa<scf::IfOp>(parent))
      outermost = parent;
  return outermost;
}

/// Orders the end of group `from` (its ops on `pipe`) before the start of
/// group `to` with cross-core flag `id`. A group under an `scf.if` the other
/// does not share gets its flag outside the if, in a new group of its core:
/// a set inside a branch not taken would leave the other core waiting
/// forever, a wait inside one would leave the flag set.
void link(Operation *from, Pipe pipe, Operation *to, int64_t id, Location loc) {
  OpBuilder builder(from->getContext());
  if (Operation *branch = conditionalAround(from, to)) {
    builder.setInsertionPointAfter(branch);
    createGroup(builder, loc, isCubeGroup(from), [&](OpBuilder &inner) {
      CrossCoreSetFlagOp::create(inner, loc, pipe, id);
    });
  } else {
    builder.setInsertionPoint(from->getRegion(0).front().getTerminator());
    CrossCoreSetFlagOp::create(builder, loc, pipe, id);
  }
  if (Operation *branch = conditionalAround(to, from)) {
    builder.setInsertionPoint(branch);
    createGroup(builder, loc, isCubeGroup(to), [&](OpBuilder &inner) {
      CrossCoreWaitFlagOp::create(inner, loc, Pipe::S, id);
    });
  } else {
    builder.setInsertionPointToStart(&to->getRegion(0).front());
    CrossCoreWaitFlagOp::create(builder, loc, Pipe::S, id);
  }
}

struct InsertCrossCoreSyncGmPass
    : tilekit::ascendc::impl::InsertCrossCoreSyncGmBase<
          InsertCrossCoreSyncGmPass> {
  void runOnOperation() override { insert(getOperation()); }

  static void insert(FunctionOpInterface func) {
    int64_t next = 0;
    if (auto attr = func->getAttrOfType<IntegerAttr>(kCrossCoreFlagIdAttr))
      next = attr.getInt();
    func->removeAttr(kCrossCoreFlagIdAttr);

    SmallVector<Operation *> groups;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<IfAicOp, IfAivOp>(op))
        groups.push_back(op);
    });
    GroupUses uses(groups);
    // Pairs (earlier group, later group, tensor) already ordered by a flag
    // set after the earlier group's last use of the tensor.
    std::set<std::tuple<unsigned, unsigned, const void *>> ordered;
    for (auto [index, group] : llvm::enumerate(groups)) {
      SmallVector<GmWrite> writes;
      group->walk([&](Operation *op) {
        if (getCoreGroup(op) != group)
          return;
        if (std::optional<GmWrite> write = asGmWrite(op))
          writes.push_back(*write);
      });
      for (const GmWrite &write : writes) {
        Location loc = write.op->getLoc();
        // Backward (write after read): the other core's latest earlier
        // group that uses the tensor may still be reading it; this group
        // waits until that one is done with it.
        bool cube = isCubeGroup(group);
        if (std::optional<unsigned> previous =
                uses.lastBefore(index, !cube, write.root);
            previous && ordered
                            .insert({*previous, unsigned(index),
                                     write.root.getAsOpaquePointer()})
                            .second) {
          Operation *reader = groups[*previous];
          link(reader, lastPipeUsing(reader, write.root), group,
               next++ % kFlagBank, loc);
        }
        std::optional<unsigned> found =
            uses.firstAfter(index, !isCubeGroup(group), write.root);
        if (!found)
          continue;
        Pipe pipe = write.fromL0C ? Pipe::FIX : Pipe::MTE3;
        if (lastPipeUsing(group, write.root) == pipe)
          ordered.insert(
              {unsigned(index), *found, write.root.getAsOpaquePointer()});
        // One bank: only vector sub-block 0 runs a mixed kernel (see the
        // pass description).
        link(group, pipe, groups[*found], next++ % kFlagBank, loc);
      }
    }
  }
};
} // namespace
