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
  return (now.writes ? "writes " : "reads ") + describe(now.payload.tensor) +
         " on the " + streamName(now.stream) +
         " pipe with nothing ordering it after the " +
         (earlier.writes ? "write" : "read") + " on the " +
         streamName(earlier.stream) + " pipe";
}

void HappensBefore::access(Operation *op, unsigned core, Pipe pipe) {
  unsigned s = Model::stream(core, static_cast<unsigned>(pipe));
  auto &clock = model.issue(core, static_cast<unsigned>(pipe));
  for (const TensorAccess &access : getTensorAccesses(op))
    model.access(s, clock, access.writes, getTensorStorage(access.tensor),
                 Origin{op, access.tensor},
                 [&](const Access &earlier, const Access &now) {
                   onRace(op, earlier, now);
                 });
}

HappensBefore::SyncOutcome HappensBefore::synchronize(Operation *op,
                                                      unsigned core) {
  using Kind = SyncOutcome::Kind;
  auto index = [](Pipe pipe) { return static_cast<unsigned>(pipe); };
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    // The chip keeps one bit per event: a second set before the wait of
    // the first is lost (cceapi set_flag & wait_flag).
    if (model.setFlag(core, index(set.getSrc()), index(set.getDst()),
                      set.getEvent()) != Model::SetCheck::Clear)
      return {Kind::SetWhileUp};
  } else if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    if (!model.waitFlag(core, index(wait.getSrc()), index(wait.getDst()),
                        wait.getEvent()))
      return {Kind::NothingSet};
  } else if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    if (barrier.getPipe() == Pipe::All)
      model.barrier(core);
  } else if (auto get = dyn_cast<GetBufOp>(op)) {
    model.getBuf(core, index(get.getPipe()), get.getBufId());
  } else if (auto release = dyn_cast<RlsBufOp>(op)) {
    model.rlsBuf(core, index(release.getPipe()), release.getBufId());
  } else if (auto set = dyn_cast<CrossCoreSetFlagOp>(op)) {
    if (std::optional<Origin> overtaken = model.crossSet(
            core, index(set.getPipe()), set.getFlag(), Origin{op, {}}))
      return {Kind::Overtakes, overtaken->op};
    // Each flag's counter holds so many sets (CrossCoreSetFlag's page).
    for (unsigned receiver : model.peers(core))
      if (model.crossInFlight(receiver, set.getFlag(), core,
                              index(set.getPipe())) >
          static_cast<size_t>(machine::kCrossCoreFlagSets))
        return {Kind::CounterFull};
  } else if (auto wait = dyn_cast<CrossCoreWaitFlagOp>(op)) {
    if (!model.crossWait(core, index(wait.getPipe()), wait.getFlag()))
      return {Kind::Blocked};
  } else {
    return {Kind::NotSync};
  }
  return {Kind::Done};
}

std::vector<HappensBefore::PendingFlag> HappensBefore::pendingFlags() const {
  std::vector<PendingFlag> pending;
  for (const auto &[key, count] : model.pendingFlags())
    pending.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key),
                       std::get<3>(key), count});
  return pending;
}

std::vector<std::tuple<unsigned, int64_t, Operation *>>
HappensBefore::pendingCrossFlags() const {
  std::vector<std::tuple<unsigned, int64_t, Operation *>> pending;
  for (const auto &[core, flag, set] : model.pendingCrossFlags())
    pending.emplace_back(core, flag, set.op);
  return pending;
}

} // namespace tilekit::ascendc
