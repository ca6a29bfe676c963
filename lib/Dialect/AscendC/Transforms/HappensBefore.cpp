//===- HappensBefore.cpp - Which accesses flags and barriers order --------===//

#include "tilekit/Dialect/AscendC/Transforms/HappensBefore.h"

#include "mlir/IR/Operation.h"

using namespace mlir;

namespace tilekit::ascendc {

std::string HappensBefore::streamName(unsigned stream) {
  return (stream / kNumPipes == 0 ? std::string("cube ") : "vector ") +
         stringifyPipe(static_cast<Pipe>(stream % kNumPipes)).str();
}

std::string HappensBefore::describe(Value tensor) {
  std::string name;
  llvm::raw_string_ostream os(name);
  Value root = getStorage(tensor);
  if (auto planned = root.getDefiningOp<LocalTensorOp>())
    os << getBufferName(getBuffer(planned.getPosition())) << "["
       << planned.getAddr() << ", " << planned.getAddr() + planned.getSize()
       << ")";
  else if (auto arg = dyn_cast<BlockArgument>(root))
    os << "GM argument #" << arg.getArgNumber();
  else
    os << "the tensor of " << root.getDefiningOp()->getName() << " at "
       << root.getLoc();
  return name;
}

std::string HappensBefore::describeRace(const Access &earlier,
                                        const Access &now) {
  return (now.writes ? "writes " : "reads ") + describe(now.tensor) +
         " on the " + streamName(now.stream) +
         " pipe with nothing ordering it after the " +
         (earlier.writes ? "write" : "read") + " on the " +
         streamName(earlier.stream) + " pipe";
}

HappensBefore::Clock &HappensBefore::issue(unsigned core, Pipe pipe) {
  unsigned s = stream(core, pipe);
  Clock &clock = clocks[s];
  clock.join(issued[core]);
  ++clock.ticks[s];
  // The scalar pipe issues every op: what it executed precedes what any
  // pipe executes after it.
  if (pipe == Pipe::S)
    issued[core].join(clock);
  return clock;
}

void HappensBefore::access(Operation *op, unsigned core, Pipe pipe) {
  unsigned s = stream(core, pipe);
  Clock &clock = issue(core, pipe);
  for (const TensorAccess &access : getTensorAccesses(op)) {
    Access now{op,
               s,
               clock.ticks[s],
               access.writes,
               getTensorStorage(access.tensor),
               access.tensor};
    for (const Access &earlier : accesses) {
      if (earlier.stream == s || (!earlier.writes && !now.writes) ||
          !earlier.storage.overlaps(now.storage))
        continue;
      // Ordered when the earlier access's tick reached this stream.
      if (clock.ticks[earlier.stream] < earlier.tick)
        onRace(op, earlier, now);
    }
    // The newest access of a stream to a storage stands for its older ones
    // of the same kind (a write for reads too): it has the larger tick, so
    // whatever orders it orders them.
    llvm::erase_if(accesses, [&](const Access &older) {
      return older.stream == now.stream && older.storage == now.storage &&
             (now.writes || !older.writes);
    });
    accesses.push_back(std::move(now));
  }
}

void HappensBefore::setFlag(unsigned core, Pipe src, Pipe dst, int64_t event) {
  flags[{core, static_cast<unsigned>(src), static_cast<unsigned>(dst), event}]
      .push_back(issue(core, src));
}

bool HappensBefore::waitFlag(unsigned core, Pipe src, Pipe dst, int64_t event) {
  auto &queue = flags[{core, static_cast<unsigned>(src),
                       static_cast<unsigned>(dst), event}];
  if (queue.empty())
    return false;
  clocks[stream(core, dst)].join(queue.front());
  queue.pop_front();
  return true;
}

void HappensBefore::barrier(unsigned core) {
  for (unsigned p = 0; p < kNumPipes; ++p)
    issued[core].join(clocks[core * kNumPipes + p]);
}

void HappensBefore::getBuf(unsigned core, Pipe pipe, int64_t id) {
  auto it = released.find({core, id});
  if (it != released.end())
    clocks[stream(core, pipe)].join(it->second);
}

void HappensBefore::rlsBuf(unsigned core, Pipe pipe, int64_t id) {
  released[{core, id}] = issue(core, pipe);
}

Operation *HappensBefore::crossSet(Operation *op, unsigned core, Pipe pipe,
                                   int64_t flag) {
  unsigned s = stream(core, pipe);
  Clock &clock = issue(core, pipe);
  auto &queue = crossFlags[{1 - core, flag}];
  Operation *overtaken = nullptr;
  for (const PendingSet &pending : queue)
    if (clock.ticks[pending.stream] < pending.clock.ticks[pending.stream]) {
      overtaken = pending.op;
      break;
    }
  queue.push_back({clock, op, s});
  return overtaken;
}

bool HappensBefore::crossWait(unsigned core, Pipe pipe, int64_t flag) {
  auto &queue = crossFlags[{core, flag}];
  if (queue.empty())
    return false;
  clocks[stream(core, pipe)].join(queue.front().clock);
  // A scalar wait holds up everything the core issues after it.
  if (pipe == Pipe::S)
    issued[core].join(queue.front().clock);
  queue.pop_front();
  return true;
}

HappensBefore::SyncOutcome HappensBefore::synchronize(Operation *op,
                                                      unsigned core) {
  using Kind = SyncOutcome::Kind;
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    setFlag(core, set.getSrc(), set.getDst(), set.getEvent());
  } else if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    if (!waitFlag(core, wait.getSrc(), wait.getDst(), wait.getEvent()))
      return {Kind::NothingSet};
  } else if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    if (barrier.getPipe() == Pipe::All)
      this->barrier(core);
  } else if (auto get = dyn_cast<GetBufOp>(op)) {
    getBuf(core, get.getPipe(), get.getBufId());
  } else if (auto release = dyn_cast<RlsBufOp>(op)) {
    rlsBuf(core, release.getPipe(), release.getBufId());
  } else if (auto set = dyn_cast<CrossCoreSetFlagOp>(op)) {
    if (Operation *overtaken = crossSet(op, core, set.getPipe(), set.getFlag()))
      return {Kind::Overtakes, overtaken};
  } else if (auto wait = dyn_cast<CrossCoreWaitFlagOp>(op)) {
    if (!crossWait(core, wait.getPipe(), wait.getFlag()))
      return {Kind::Blocked};
  } else {
    return {Kind::NotSync};
  }
  return {Kind::Done};
}

std::vector<HappensBefore::PendingFlag> HappensBefore::pendingFlags() const {
  std::vector<PendingFlag> pending;
  for (const auto &[key, queue] : flags)
    if (!queue.empty())
      pending.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key),
                         std::get<3>(key), queue.size()});
  return pending;
}

std::vector<std::tuple<unsigned, int64_t, Operation *>>
HappensBefore::pendingCrossFlags() const {
  std::vector<std::tuple<unsigned, int64_t, Operation *>> pending;
  for (const auto &[key, queue] : crossFlags)
    for (const PendingSet &set : queue)
      pending.emplace_back(key.first, key.second, set.op);
  return pending;
}

} // namespace tilekit::ascendc
