//===- InsertCrossCoreSyncGm.cpp - Flags for cross-core GM transfers ------===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

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

/// Whether some op of `group` has an operand whose root is `root`.
bool reads(Operation *group, Value root) {
  bool found = false;
  group->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      found |= getStorage(operand) == root;
  });
  return found;
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
    for (auto [index, group] : llvm::enumerate(groups)) {
      SmallVector<GmWrite> writes;
      group->walk([&](Operation *op) {
        if (getCoreGroup(op) != group)
          return;
        if (std::optional<GmWrite> write = asGmWrite(op))
          writes.push_back(*write);
      });
      for (const GmWrite &write : writes) {
        Operation *consumer = nullptr;
        for (Operation *later : ArrayRef(groups).drop_front(index + 1))
          if (isCubeGroup(later) != isCubeGroup(group) &&
              reads(later, write.root)) {
            consumer = later;
            break;
          }
        if (!consumer)
          continue;
        int64_t id = next++ % kFlagBank;
        Location loc = write.op->getLoc();
        OpBuilder builder(group->getRegion(0).front().getTerminator());
        Pipe pipe = write.fromL0C ? Pipe::FIX : Pipe::MTE3;
        CrossCoreSetFlagOp::create(builder, loc, pipe, id);
        if (write.fromL0C)
          CrossCoreSetFlagOp::create(builder, loc, pipe, id + kFlagBank);
        builder.setInsertionPointToStart(&consumer->getRegion(0).front());
        CrossCoreWaitFlagOp::create(builder, loc, Pipe::S, id);
        if (!write.fromL0C)
          CrossCoreWaitFlagOp::create(builder, loc, Pipe::S, id + kFlagBank);
      }
    }
  }
};
} // namespace
