//===- CrossCoreChannel.cpp - Flags that hand a storage between cores -----===//
//
// Who may access a storage moves around a cycle of four states:
//
//   0 cube holds --cube sets--> 1 to vector --vector waits--> 2 vector holds
//   2 vector holds --vector sets--> 3 to cube --cube waits--> 0 cube holds
//
// An access needs the state where its core holds the storage; the channel
// steps forward to it, setting as early as possible (right after the
// releasing core's last access) and waiting as late as possible (right
// before the acquiring core's first one). A loop is entered and left, and
// its body ends, in one state (its header state); the arms of an `scf.if`
// end in one state; a kernel never ends with a flag in flight. So on every
// path each flag is set as often as it is waited for.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/CrossCoreChannel.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tilekit::ascendc {
namespace {

enum Side : unsigned { kCube = 0, kVector = 1 };
constexpr int kNobody = -1; // no core has touched the storage yet
/// Pipe bits of an anchor whose pipes are not known: a barrier covers them.
constexpr unsigned kUnknownPipes = ~0u;

int holds(Side side) { return side == kCube ? 0 : 2; }
int following(int state) { return (state + 1) % 4; }
int preceding(int state) { return (state + 3) % 4; }
/// The core that takes the step out of `state`: the holder sets, the
/// receiver waits.
Side actor(int state) { return state == 0 || state == 3 ? kCube : kVector; }
bool inFlight(int state) { return state % 2 == 1; }

/// Where the accesses to one storage are.
struct Events {
  /// Per op that is or holds an access: a bit per core that accesses.
  llvm::DenseMap<Operation *, unsigned> sides;
  /// Per op and core: the pipes of those accesses, a bit per pipe.
  llvm::DenseMap<Operation *, unsigned> pipes[2];
  /// Per block: its ops that are or hold accesses, in program order.
  llvm::DenseMap<Block *, SmallVector<Operation *>> items;
  Operation *first = nullptr;

  void record(Operation *access, Side side, Pipe pipe, Operation *func) {
    if (!first)
      first = access;
    for (Operation *op = access; op != func; op = op->getParentOp()) {
      auto [it, inserted] = sides.try_emplace(op, 0u);
      it->second |= 1u << side;
      pipes[side][op] |= 1u << static_cast<unsigned>(pipe);
      if (inserted)
        items[op->getBlock()].push_back(op);
    }
  }
  ArrayRef<Operation *> itemsOf(Block &block) const {
    auto it = items.find(&block);
    return it == items.end() ? ArrayRef<Operation *>() : ArrayRef(it->second);
  }
};

/// A point where a flag goes: before or after an op, or at the end of a
/// block (before its terminator).
struct Site {
  enum Kind { Before, After, End } kind = Before;
  Operation *op = nullptr;
  Block *block = nullptr;

  static Site before(Operation *op) { return {Before, op, nullptr}; }
  static Site after(Operation *op) { return {After, op, nullptr}; }
  static Site end(Block &block) { return {End, nullptr, &block}; }

  /// The innermost core group around the site, or null.
  Operation *group() const {
    Operation *holder = kind == End ? block->getParentOp() : op;
    if (kind == End && isa<IfAicOp, IfAivOp>(holder))
      return holder;
    return getCoreGroup(holder);
  }
  void setInsertionPoint(OpBuilder &builder) const {
    if (kind == Before)
      builder.setInsertionPoint(op);
    else if (kind == After)
      builder.setInsertionPointAfter(op);
    else
      builder.setInsertionPoint(block->getTerminator());
  }
};

/// The accesses of the core that may have to release the storage next,
/// since it acquired it: a set goes right after the last one (when it is in
/// the current segment), on their pipe (behind a barrier for several).
struct Anchor {
  Site site;
  Side side = kCube;
  unsigned pipes = 0;
  bool valid = false;
  bool hasSite = false; // false: the accesses are outside this segment

  /// At the start of a segment (a loop body, an arm) in `state`: the
  /// holder's accesses so far are on `pipes`, but none is in the segment.
  static Anchor carried(int state, unsigned pipes) {
    if (state == kNobody || inFlight(state))
      return Anchor();
    return Anchor{Site(), actor(state), pipes, true, false};
  }
};

class Channel {
public:
  Channel(const Events &events, const CrossCoreChannelOptions &options,
          bool mutate)
      : events(events), options(options), mutate(mutate) {}

  /// The accesses in `block` as one straight-line segment (core groups are
  /// transparent).
  void walk(Block &block);
  /// Ends the kernel with no flag in flight.
  void drain(Block &body) {
    if (inFlight(state))
      waitFlag(actor(state), Site::end(body), Pipe::S,
               body.getParentOp()->getLoc());
  }

  int state = kNobody;
  std::optional<Side> firstNeed;
  SmallVector<Operation *> created;
  LogicalResult status = success();

private:
  void access(Operation *op, Side side);
  /// A loop whose `body` runs any number of times after the loop's entry
  /// (an scf.for, or an scf.while whose condition touches no storage).
  void loop(Operation *loop, Block &body);
  void branch(scf::IfOp op);
  /// Steps forward to `target`: waits at `waitSite` on `waitPipe`, sets
  /// after the anchor (or at `setSite` behind a barrier when the setter has
  /// no anchor here).
  void stepTo(int target, Site waitSite, Pipe waitPipe, Site setSite,
              Location loc);
  void setFlag(Side side, Site site, unsigned pipes, Location loc);
  Operation *waitFlag(Side side, Site site, Pipe pipe, Location loc);
  /// Runs `fill` at `site` on `side`'s core: in place inside that core's
  /// group, else in a new group of its own.
  void place(Side side, Site site, Location loc,
             llvm::function_ref<void(OpBuilder &)> fill);

  const Events &events;
  const CrossCoreChannelOptions &options;
  bool mutate;
  Anchor last;
};

void Channel::place(Side side, Site site, Location loc,
                    llvm::function_ref<void(OpBuilder &)> fill) {
  Operation *group = site.group();
  // Never inside the other core's group: just before or after it.
  while (group && (isCubeGroup(group) ? kCube : kVector) != side) {
    site = site.kind == Site::After ? Site::after(group) : Site::before(group);
    group = site.group();
  }
  OpBuilder builder(loc.getContext());
  site.setInsertionPoint(builder);
  if (group)
    fill(builder);
  else
    createGroup(builder, loc, side == kCube, fill);
}

void Channel::setFlag(Side side, Site site, unsigned pipes, Location loc) {
  if (!mutate)
    return;
  place(side, site, loc, [&](OpBuilder &builder) {
    // Ascend C takes no cross-core set on PIPE_S (CrossCoreSetFlag's page):
    // with nothing to wait for, the set goes on the pipe that writes the
    // core's results out.
    Pipe pipe = side == kCube ? Pipe::FIX : Pipe::MTE3;
    if (llvm::popcount(pipes) == 1)
      pipe = static_cast<Pipe>(llvm::countr_zero(pipes));
    else if (pipes != 0)
      // Accesses on several pipes: a set on one would not wait for the
      // others.
      PipeBarrierOp::create(builder, loc, Pipe::All);
    created.push_back(CrossCoreSetFlagOp::create(builder, loc, pipe, 0));
  });
}

Operation *Channel::waitFlag(Side side, Site site, Pipe pipe, Location loc) {
  if (!mutate)
    return nullptr;
  Operation *wait = nullptr;
  place(side, site, loc, [&](OpBuilder &builder) {
    // Nor a wait on PIPE_S: what waited on the scalar pipe (everything
    // after it) waits on the pipe that reads GM in, then a barrier holds
    // every pipe behind it.
    bool everything = pipe == Pipe::S;
    wait = CrossCoreWaitFlagOp::create(builder, loc,
                                       everything ? Pipe::MTE2 : pipe, 0);
    if (everything)
      PipeBarrierOp::create(builder, loc, Pipe::All);
  });
  created.push_back(wait);
  return wait;
}

void Channel::stepTo(int target, Site waitSite, Pipe waitPipe, Site setSite,
                     Location loc) {
  // Untouched: as if the core that would set held it already, with no
  // access of its own to wait for.
  bool untouched = state == kNobody;
  if (untouched)
    state = inFlight(target) ? preceding(target) : target;
  while (state != target) {
    Side who = actor(state);
    if (!inFlight(state)) {
      if (last.valid && last.side == who)
        setFlag(who, last.hasSite ? last.site : setSite, last.pipes, loc);
      else
        setFlag(who, setSite, untouched ? 0 : kUnknownPipes, loc);
    } else {
      Operation *wait = waitFlag(who, waitSite, waitPipe, loc);
      // A set by the same core must come after the wait.
      last = Anchor{wait ? Site::after(wait) : waitSite, who, 0, true, true};
    }
    state = following(state);
  }
}

void Channel::walk(Block &block) {
  for (Operation *op : events.itemsOf(block)) {
    if (isa<IfAicOp, IfAivOp>(op)) {
      walk(op->getRegion(0).front());
      continue;
    }
    unsigned sides = events.sides.lookup(op);
    if (sides != 3) {
      access(op, sides == 1 ? kCube : kVector);
    } else if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      loop(forOp, *forOp.getBody());
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(op);
               whileOp && events.itemsOf(whileOp.getBefore().front()).empty()) {
      loop(whileOp, whileOp.getAfter().front());
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      branch(ifOp);
    } else {
      if (mutate)
        op->emitError() << "holds accesses of both the cube and the vector "
                           "core to one storage; only scf.for, scf.if and "
                           "scf.while loops whose condition touches none "
                           "can be synchronized across cores";
      status = failure();
    }
  }
}

void Channel::access(Operation *op, Side side) {
  if (!firstNeed)
    firstNeed = side;
  bool leaf = op->getNumRegions() == 0;
  Pipe waitPipe = Pipe::S;
  if (leaf && options.waitOnAccessPipe)
    waitPipe = getOpPipe(op).value_or(Pipe::S);
  stepTo(holds(side), Site::before(op), waitPipe, Site::before(op),
         op->getLoc());
  unsigned pipes = events.pipes[side].lookup(op);
  if (last.valid && last.side == side)
    pipes |= last.pipes; // a run of accesses: the set waits for them all
  last = Anchor{Site::after(op), side, pipes, true, true};
}

void Channel::loop(Operation *forOp, Block &body) {
  Location loc = forOp->getLoc();
  // The state the body ends in decides the header state: the body's first
  // access must find the storage held by, or on its way to, its core.
  Channel dry(events, options, /*mutate=*/false);
  dry.walk(body);
  if (!dry.firstNeed)
    return;
  if (!firstNeed)
    firstNeed = dry.firstNeed;
  int need = holds(*dry.firstNeed);
  int header = dry.state;
  if (header != need && header != preceding(need))
    header = preceding(need);

  bool untouched = state == kNobody;
  stepTo(header, Site::before(forOp), Pipe::S, Site::before(forOp), loc);
  // The holder's accesses before the loop and in earlier trips precede the
  // body: a set in the body before the holder's first access waits for
  // them.
  Anchor outer = last;
  unsigned before = untouched ? 0 : kUnknownPipes;
  if (outer.valid && !inFlight(header) && outer.side == actor(header))
    before = outer.pipes;
  unsigned holderPipes =
      inFlight(header) ? 0 : events.pipes[actor(header)].lookup(forOp);
  last = Anchor::carried(header, before | holderPipes);
  walk(body);
  stepTo(header, Site::end(body), Pipe::S, Site::end(body), loc);
  status = succeeded(status) && succeeded(dry.status) ? success() : failure();

  // After the loop (any trip count) the holder's last accesses are in the
  // loop or before it: a set after the loop waits for both.
  last = Anchor::carried(header, before | holderPipes);
  if (last.valid) {
    last.site = Site::after(forOp);
    last.hasSite = true;
  }
}

void Channel::branch(scf::IfOp ifOp) {
  Location loc = ifOp.getLoc();
  int entry = state;
  Anchor outer = last;
  // Each arm starts a segment: a set placed before the if would happen
  // whether or not the arm that needs it runs.
  int ends[2];
  Anchor lasts[2];
  Region *arms[2] = {&ifOp.getThenRegion(), &ifOp.getElseRegion()};
  // The holder's accesses before the if, as the arms' anchor.
  unsigned before = entry == kNobody ? 0 : kUnknownPipes;
  if (outer.valid && entry != kNobody && !inFlight(entry) &&
      outer.side == actor(entry))
    before = outer.pipes;
  for (int arm = 0; arm < 2; ++arm) {
    state = entry;
    last = Anchor::carried(entry, before);
    if (!arms[arm]->empty())
      walk(arms[arm]->front());
    ends[arm] = state;
    lasts[arm] = last;
  }
  // Both arms end in one state: the one the other reaches in fewer steps.
  auto cost = [](int from, int to) {
    if (from == kNobody)
      return inFlight(to) ? 1 : 0;
    return (to - from + 4) % 4;
  };
  int target = ends[0];
  if (target == kNobody ||
      (ends[1] != kNobody && cost(ends[1], ends[0]) > cost(ends[0], ends[1])))
    target = ends[1];
  if (target != kNobody)
    for (int arm = 0; arm < 2; ++arm) {
      bool placesFlags =
          ends[arm] != target && (ends[arm] != kNobody || inFlight(target));
      if (arms[arm]->empty() && placesFlags && mutate) {
        // A missing else branch gets one to hold its flags.
        OpBuilder builder = OpBuilder::atBlockEnd(&arms[arm]->emplaceBlock());
        scf::YieldOp::create(builder, loc);
      }
      if (arms[arm]->empty()) {
        state = target; // a dry run places nothing
        continue;
      }
      state = ends[arm];
      last = lasts[arm];
      Block &block = arms[arm]->front();
      stepTo(target, Site::end(block), Pipe::S, Site::end(block), loc);
    }
  state = target;
  // After the if, the holder's accesses are in either arm or before it.
  unsigned holderPipes = 0;
  if (target != kNobody && !inFlight(target)) {
    holderPipes = events.pipes[actor(target)].lookup(ifOp);
    if (entry == kNobody || inFlight(entry) || actor(entry) != actor(target))
      before = 0; // the holder acquired it in the arms
  }
  last = Anchor::carried(target, before | holderPipes);
  if (last.valid) {
    last.site = Site::after(ifOp);
    last.hasSite = true;
  }
}

/// The top-level op of `func` holding `op`.
Operation *topLevel(Operation *op, Block &body) {
  while (op->getBlock() != &body)
    op = op->getParentOp();
  return op;
}

} // namespace

FailureOr<int64_t>
insertCrossCoreChannels(FunctionOpInterface func, ArrayRef<Value> storages,
                        const CrossCoreChannelOptions &options) {
  if (func.isExternal())
    return options.firstId % kFlagBank;
  Block &body = func.getFunctionBody().front();
  // Flags already there (the other pass's) keep their ids.
  SmallVector<Operation *> existing;
  func.walk([&](Operation *op) {
    if (isa<CrossCoreSetFlagOp, CrossCoreWaitFlagOp>(op))
      existing.push_back(op);
  });

  llvm::DenseMap<Value, unsigned> channelOf;
  for (Value storage : storages)
    channelOf.try_emplace(storage, channelOf.size());
  std::vector<Events> events(channelOf.size());
  llvm::DenseMap<Operation *, unsigned> order;
  Operation *funcOp = func.getOperation();
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    order[op] = order.size();
    if (op->getNumRegions() != 0)
      return;
    std::optional<Pipe> pipe = getOpPipe(op);
    Operation *group = getCoreGroup(op);
    if (!pipe || !group)
      return;
    Side side = isCubeGroup(group) ? kCube : kVector;
    for (const TensorAccess &access : getTensorAccesses(op)) {
      auto it = channelOf.find(getStorage(access.tensor));
      if (it != channelOf.end())
        events[it->second].record(op, side, *pipe, funcOp);
    }
  });

  // Channels in the order of their first access, each on its own.
  SmallVector<unsigned> channels;
  for (unsigned index = 0; index < events.size(); ++index) {
    unsigned sides = 0;
    for (Operation *op : events[index].itemsOf(body))
      sides |= events[index].sides.lookup(op);
    if (sides == 3) // both cores access it
      channels.push_back(index);
  }
  llvm::sort(channels, [&](unsigned a, unsigned b) {
    return order.lookup(events[a].first) < order.lookup(events[b].first);
  });
  bool ok = true;
  SmallVector<SmallVector<Operation *>> created;
  for (unsigned index : channels) {
    Events &channelEvents = events[index];
    for (auto &[block, items] : channelEvents.items)
      llvm::sort(items, [&](Operation *a, Operation *b) {
        return order.lookup(a) < order.lookup(b);
      });
    Channel channel(channelEvents, options, /*mutate=*/true);
    channel.walk(body);
    channel.drain(body);
    ok &= succeeded(channel.status);
    created.push_back(std::move(channel.created));
  }
  if (!ok)
    return failure();

  // Ids: in turn from the first one, skipping any whose flags are live at
  // the same time (over the same top-level ops): a wait could take the
  // other flag's set.
  llvm::DenseMap<Operation *, unsigned> position;
  for (Operation &op : body)
    position[&op] = position.size();
  using Interval = std::pair<unsigned, unsigned>;
  auto span = [&](ArrayRef<Operation *> ops) {
    Interval interval{~0u, 0};
    for (Operation *op : ops) {
      unsigned at = position.lookup(topLevel(op, body));
      interval.first = std::min(interval.first, at);
      interval.second = std::max(interval.second, at);
    }
    return interval;
  };
  std::array<SmallVector<Interval>, kFlagBank> busy;
  llvm::DenseMap<int64_t, SmallVector<Operation *>> byId;
  for (Operation *op : existing) {
    int64_t id = isa<CrossCoreSetFlagOp>(op)
                     ? cast<CrossCoreSetFlagOp>(op).getFlag()
                     : cast<CrossCoreWaitFlagOp>(op).getFlag();
    byId[id % kFlagBank].push_back(op);
  }
  for (auto &[id, ops] : byId)
    busy[id].push_back(span(ops));

  int64_t next = options.firstId % kFlagBank;
  for (auto [index, ops] : llvm::zip_equal(channels, created)) {
    if (ops.empty())
      continue;
    Interval interval = span(ops);
    std::optional<int64_t> chosen;
    for (int64_t k = 0; k < kFlagBank && !chosen; ++k) {
      int64_t id = (next + k) % kFlagBank;
      if (llvm::none_of(busy[id], [&](Interval other) {
            return other.first <= interval.second &&
                   interval.first <= other.second;
          }))
        chosen = id;
    }
    if (!chosen) {
      events[index].first->emitError()
          << "needs a cross-core flag while all " << kFlagBank
          << " are live: split the kernel or order its transfers";
      return failure();
    }
    IntegerAttr attr = Builder(func.getContext()).getI64IntegerAttr(*chosen);
    for (Operation *op : ops) {
      if (auto set = dyn_cast<CrossCoreSetFlagOp>(op))
        set.setFlagAttr(attr);
      else
        cast<CrossCoreWaitFlagOp>(op).setFlagAttr(attr);
    }
    busy[*chosen].push_back(interval);
    next = (*chosen + 1) % kFlagBank;
  }
  return next;
}

} // namespace tilekit::ascendc
