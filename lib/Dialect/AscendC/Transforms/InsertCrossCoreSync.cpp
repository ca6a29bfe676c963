//===- InsertCrossCoreSync.cpp - Flags for on-chip cross-core transfers ---===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTCROSSCORESYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

/// An on-chip transfer from one core to the other.
struct Trigger {
  Operation *op;
  Operation *group;
  Value storage;
  Pipe pipe;
};

bool isUB(Value tensor) {
  std::optional<Position> position = getPosition(tensor);
  return position && getBuffer(*position) == Buffer::UB;
}

/// `op` as a trigger: a UB -> L1 copy in a vector group or an L0C -> UB
/// fixpipe in a cube group.
std::optional<Trigger> asTrigger(Operation *op) {
  Operation *group = getCoreGroup(op);
  if (!group)
    return std::nullopt;
  if (auto copy = dyn_cast<DataCopyOp>(op)) {
    std::optional<Position> dst = isa<LocalTensorType>(copy.getDst().getType())
                                      ? getPosition(copy.getDst())
                                      : std::nullopt;
    if (!isCubeGroup(group) && dst && getBuffer(*dst) == Buffer::L1 &&
        isa<LocalTensorType>(copy.getSrc().getType()) && isUB(copy.getSrc()))
      return Trigger{op, group, getStorage(copy.getDst()), Pipe::MTE3};
  }
  if (auto fixpipe = dyn_cast<FixpipeOp>(op))
    if (isCubeGroup(group) &&
        isa<LocalTensorType>(fixpipe.getDst().getType()) &&
        isUB(fixpipe.getDst()))
      return Trigger{op, group, getStorage(fixpipe.getDst()), Pipe::FIX};
  return std::nullopt;
}

/// The innermost loop around `op`, or null.
Operation *getEnclosingLoop(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return parent;
  return nullptr;
}

/// The last op after `consumer`, on the consumer's core, that uses the
/// trigger's storage before the storage is written again (the next
/// transfer into it) or, for a trigger in `loop`, before the loop ends.
Operation *lastReader(ArrayRef<Operation *> ops,
                      const llvm::DenseMap<Operation *, unsigned> &order,
                      Operation *consumer, const Trigger &trigger,
                      Operation *loop) {
  bool cube = isCubeGroup(getCoreGroup(consumer));
  Operation *last = consumer;
  for (Operation *op : ops.drop_front(order.lookup(consumer) + 1)) {
    if (loop && !loop->isAncestor(op))
      break;
    if (std::optional<Trigger> next = asTrigger(op);
        next && next->storage == trigger.storage)
      break;
    Operation *group = getCoreGroup(op);
    if (!group || isCubeGroup(group) != cube || isa<ReinterpretCastOp>(op))
      continue;
    if (llvm::any_of(op->getOperands(), [&](Value operand) {
          return getStorage(operand) == trigger.storage;
        }))
      last = op;
  }
  return last;
}

struct InsertCrossCoreSyncPass
    : tilekit::ascendc::impl::InsertCrossCoreSyncBase<InsertCrossCoreSyncPass> {
  void runOnOperation() override { insert(getOperation()); }

  static void insert(FunctionOpInterface func) {
    unsigned numGroups = 0;
    func.walk([&](Operation *op) { numGroups += isa<IfAicOp, IfAivOp>(op); });
    if (numGroups < 2)
      return;

    // IR order, and the triggers in it, before anything is inserted.
    llvm::DenseMap<Operation *, unsigned> order;
    SmallVector<Trigger> triggers;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      order[op] = order.size();
      if (std::optional<Trigger> trigger = asTrigger(op))
        triggers.push_back(*trigger);
    });
    SmallVector<Operation *> ops(order.size());
    for (auto [op, index] : order)
      ops[index] = op;

    // Transfers still to come into each storage: the consumer's "free"
    // signal is only set when a later transfer (or the next trip of a
    // loop) waits for it; otherwise it would stay set, never waited.
    llvm::DenseMap<Value, unsigned> transfersLeft;
    for (const Trigger &trigger : triggers)
      ++transfersLeft[trigger.storage];
    llvm::DenseMap<Value, int64_t> flagOf;
    llvm::DenseMap<Value, Operation *> loopOf;
    int64_t next = 0;
    for (const Trigger &trigger : triggers) {
      --transfersLeft[trigger.storage];
      // The first consumer after the trigger, on the other core.
      Operation *consumer = nullptr;
      for (Operation *op : ArrayRef(ops).drop_front(order[trigger.op] + 1)) {
        Operation *group = getCoreGroup(op);
        if (!group || isCubeGroup(group) == isCubeGroup(trigger.group) ||
            isa<ReinterpretCastOp>(op))
          continue;
        if (llvm::any_of(op->getOperands(), [&](Value operand) {
              return getStorage(operand) == trigger.storage;
            })) {
          consumer = op;
          break;
        }
      }
      if (!consumer)
        continue;

      bool second = flagOf.contains(trigger.storage);
      int64_t id = second ? flagOf[trigger.storage] : next++ % kFlagBank;
      Operation *loop = getEnclosingLoop(trigger.group);
      Location loc = trigger.op->getLoc();
      OpBuilder builder(trigger.op);
      if (second || loop)
        CrossCoreWaitFlagOp::create(builder, loc, trigger.pipe, id);
      builder.setInsertionPointAfter(trigger.op);
      CrossCoreSetFlagOp::create(builder, loc, trigger.pipe, id);

      Operation *consumerGroup = getCoreGroup(consumer);
      Pipe consumerPipe = getOpPipe(consumer).value_or(Pipe::S);
      Block &body = consumerGroup->getRegion(0).front();
      builder.setInsertionPointToStart(&body);
      CrossCoreWaitFlagOp::create(builder, consumer->getLoc(), consumerPipe,
                                  id);
      if (loop || transfersLeft[trigger.storage] != 0) {
        // "Free" after the last reader on the consumer's core before the
        // storage is written again (within the loop, for a loop trigger).
        Operation *last = lastReader(ops, order, consumer, trigger, loop);
        Block &lastBody = getCoreGroup(last)->getRegion(0).front();
        builder.setInsertionPoint(lastBody.getTerminator());
        CrossCoreSetFlagOp::create(builder, last->getLoc(),
                                   getOpPipe(last).value_or(Pipe::S), id);
      }

      if (loop && (!second || loopOf[trigger.storage] != loop)) {
        builder.setInsertionPoint(loop);
        createGroup(builder, loc, isCubeGroup(consumerGroup),
                    [&](OpBuilder &inner) {
                      CrossCoreSetFlagOp::create(inner, loc, Pipe::S, id);
                    });
        builder.setInsertionPointAfter(loop);
        createGroup(builder, loc, isCubeGroup(trigger.group),
                    [&](OpBuilder &inner) {
                      CrossCoreWaitFlagOp::create(inner, loc, trigger.pipe, id);
                    });
      }
      flagOf[trigger.storage] = id;
      loopOf[trigger.storage] = loop;
    }
    func->setAttr(
        kCrossCoreFlagIdAttr,
        Builder(func.getContext()).getI64IntegerAttr(next % kFlagBank));
  }
};
} // namespace
