//===- InsertPipeSync.cpp - Set/wait flags between the pipes of a core ----===//
//
// Walks each core's code in program order, keeping for every storage the
// accesses not yet ordered before the other pipes. An op that reads what
// another pipe wrote, or writes what another pipe read or wrote, gets a
// set_flag / wait_flag pair from that pipe right before it: the set, issued
// after the earlier access on its in-order pipe, and the wait, holding the
// op's pipe, order every earlier op of the source pipe before the op (the
// SetFlag<HardEvent::X_Y>(e); WaitFlag<HardEvent::X_Y>(e) idiom of Ascend C).
// When the source pipe's accesses the op conflicts with all precede the
// loops and branches around it, the pair goes before the outermost of
// them: it runs once, not every trip (and leaves the source pipe's
// accesses inside them unordered). Loop bodies are walked three times, so that
// an access late in the body orders the next trip's early ones
// (loop-carried), and every later walk checks that no access of the loop
// came to depend on a pair that would leave it; both arms of an `scf.if`
// start from the state before it and their unordered accesses are merged.
//
// A pair whose op waits only for the previous trip of its loop is then
// split (splitLoopCarried): the set after the access it orders, one set
// before the loop, one wait after it, the Ascend C ping-pong idiom. The
// code is walked again with each wait ordering what came before its set,
// and what that leaves unordered is paired (and split) in turn.
//
// Then the event ids (EventIds below): the chip keeps one bit per event,
// and a set executes when its pipe gets there, not where it is written, so
// a set must not find its event's bit still up from an earlier set whose
// wait may not have run (the CCE intrinsics' set_flag & wait_flag page).
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <limits>
#include <map>
#include <optional>

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTPIPESYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

constexpr unsigned kPipes = kNumPipes;
constexpr unsigned kIds = tilekit::machine::kFirstReservedEventId;
/// How many times pairs are split and the code walked again.
constexpr unsigned kSplitRounds = 6;
using PipeMatrix = std::array<std::array<uint64_t, kPipes>, kPipes>;

/// Walks a function's code in program order, each core group continuing
/// its core's state (`State` has `merge`), loop bodies three times, the
/// arms of a branch from the state before it; calls `visit` on every op
/// that is neither control flow nor a core group.
template <typename State, typename Visit> class CoreWalker {
public:
  explicit CoreWalker(Visit visit) : visit(std::move(visit)) {}

  void walk(Block &block, State &state) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        // What follows the loop also follows zero trips: merge the state
        // before.
        Snapshot before = snapshot(state);
        for (int trip = 0; trip < 3; ++trip)
          walk(*loop.getBody(), state);
        merge(state, before);
        continue;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        // Each arm starts from the state before the if, the cores' states
        // included (an arm holds core groups of its own).
        Snapshot before = snapshot(state);
        walk(branch.getThenRegion().front(), state);
        Snapshot taken = snapshot(state);
        restore(state, before);
        if (!branch.getElseRegion().empty())
          walk(branch.getElseRegion().front(), state);
        merge(state, taken);
        continue;
      }
      if (isa<IfAicOp, IfAivOp>(op)) {
        walk(op.getRegion(0).front(), isa<IfAicOp>(op) ? cube : vector);
        continue;
      }
      if (op.getNumRegions() != 0) {
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            walk(nested, state);
        continue;
      }
      visit(&op, state);
    }
  }

private:
  struct Snapshot {
    State state, cube, vector;
  };
  Snapshot snapshot(const State &state) const { return {state, cube, vector}; }
  void restore(State &state, const Snapshot &from) {
    state = from.state;
    cube = from.cube;
    vector = from.vector;
  }
  /// Merges another path's states into the current ones (`state` may be
  /// one of the cores').
  void merge(State &state, const Snapshot &other) {
    if (&state != &cube && &state != &vector)
      state.merge(other.state);
    cube.merge(other.cube);
    vector.merge(other.vector);
  }

  Visit visit;
  State cube, vector;
};

//===----------------------------------------------------------------------===//
// The pairs
//===----------------------------------------------------------------------===//

struct PendingAccess {
  TensorStorage storage;
  unsigned pipe;
  bool writes;
  /// When it was issued (a counter of this core's ops).
  uint64_t at;
  /// The op that made it.
  Operation *op;
};

/// One core's view while walking: unordered accesses, and when each pipe
/// pair was last synchronized.
struct CoreState {
  std::vector<PendingAccess> accesses;
  /// synced[p][q]: p's ops issued before this point are ordered before q's
  /// ops issued after it.
  PipeMatrix synced{};
  /// When the last set_flag of each (p, q, event) was issued: a wait orders
  /// what p issued before its set. (Split pairs carry events of their own
  /// until the ids are given; the others are 0 and adjacent.)
  std::map<std::tuple<unsigned, unsigned, int64_t>, uint64_t> lastSet;
  uint64_t clock = 1;

  void merge(const CoreState &other) {
    // Keep an access unless both paths ordered it: the union, and the
    // older synchronization point.
    for (const PendingAccess &access : other.accesses) {
      // One entry per storage, pipe and kind: the newer of the two, which
      // a sync orders only if it orders the older too (in-order pipes).
      auto same = llvm::find_if(accesses, [&](const PendingAccess &mine) {
        return mine.storage == access.storage && mine.pipe == access.pipe &&
               mine.writes == access.writes;
      });
      if (same == accesses.end())
        accesses.push_back(access);
      else if (access.at > same->at)
        *same = access;
    }
    for (unsigned p = 0; p < kPipes; ++p)
      for (unsigned q = 0; q < kPipes; ++q)
        synced[p][q] = std::min(synced[p][q], other.synced[p][q]);
    // A set only one path issued may not have been.
    for (auto it = lastSet.begin(); it != lastSet.end();) {
      auto theirs = other.lastSet.find(it->first);
      if (theirs == other.lastSet.end()) {
        it = lastSet.erase(it);
        continue;
      }
      it->second = std::min(it->second, theirs->second);
      ++it;
    }
    clock = std::max(clock, other.clock);
  }
};

/// A pair split around a loop (PipeSyncInserter::splitLoopCarried): the
/// set before the loop, the set after the access it orders, the wait
/// before the op that waits, the wait after the loop.
struct SplitPair {
  Operation *prime, *set, *wait, *drain;
};

class PipeSyncInserter {
public:
  explicit PipeSyncInserter(bool globalOnly) : globalOnly(globalOnly) {}

  void visit(Operation *op, CoreState &state);

  /// Moves each pair that may go before a loop or branch around it there.
  void place();

  /// Splits each pair whose op waits only for accesses of the previous trip
  /// of the loop around it (and for code before the loop): the set goes
  /// right after the last such access, a set before the loop stands for
  /// trip 0, a wait after the loop takes the last trip's set. The op then
  /// waits for its own buffer's reader, not for every earlier op of that
  /// pipe: a double-buffered loop's next load overlaps the other half.
  /// `nextEvent` numbers the split pairs' own events, from kFirstSplitEvent
  /// (EventIds gives them real ids).
  SmallVector<SplitPair> splitLoopCarried(int64_t &nextEvent);

  static constexpr int64_t kFirstSplitEvent = 1 << 20;

private:
  /// A pair inserted before `consumer`, which may go before `at`, ordering
  /// `causes` (the accesses of the source pipe `consumer` conflicts with,
  /// on any trip).
  struct Move {
    Operation *at, *consumer;
    llvm::SetVector<Operation *> causes;
  };

  bool globalOnly;
  /// The pairs inserted (their sets).
  llvm::MapVector<Operation *, Move> moves;

  /// The tensors `op` (on `pipe`) accesses, as pending accesses.
  SmallVector<PendingAccess> accessesOf(Operation *op, unsigned pipe) const;
  void access(Operation *op, Pipe pipe, CoreState &state);
  void synchronize(Operation *consumer, unsigned from, unsigned to,
                   CoreState &state);
  /// Where a pair before `consumer` ordering `from`'s pending accesses
  /// before `to` may go: before the outermost loop or branch around it,
  /// core groups aside, that holds none of the accesses `consumer`
  /// conflicts with (`consumer` itself when there is none).
  Operation *hoistPoint(Operation *consumer, unsigned from, unsigned to,
                        const CoreState &state) const;
  /// A pair that goes before `at` orders `from`'s accesses before `to`'s
  /// but those inside `at` (which it leaves behind).
  void ordered(Operation *at, unsigned from, unsigned to,
               CoreState &state) const;
  /// Adds the pending accesses of `from` that `consumer` conflicts with to
  /// `move`'s causes.
  void noteCauses(Move &move, unsigned from, unsigned to,
                  const CoreState &state) const;
};

SmallVector<PendingAccess> PipeSyncInserter::accessesOf(Operation *op,
                                                        unsigned pipe) const {
  SmallVector<PendingAccess> accesses;
  for (const TensorAccess &access : getTensorAccesses(op))
    if (!globalOnly || isa<GlobalTensorType>(access.tensor.getType()))
      accesses.push_back(
          {getTensorStorage(access.tensor), pipe, access.writes, 0, op});
  return accesses;
}

/// Whether `now` must wait for `earlier` (another pipe's, not yet ordered
/// before `now`'s pipe).
static bool conflicts(const PendingAccess &earlier, const PendingAccess &now,
                      const CoreState &state) {
  return earlier.pipe != now.pipe && (earlier.writes || now.writes) &&
         earlier.storage.overlaps(now.storage) &&
         state.synced[earlier.pipe][now.pipe] <= earlier.at;
}

Operation *PipeSyncInserter::hoistPoint(Operation *consumer, unsigned from,
                                        unsigned to,
                                        const CoreState &state) const {
  SmallVector<PendingAccess> mine = accessesOf(consumer, to);
  auto holdsCause = [&](Operation *region) {
    return llvm::any_of(state.accesses, [&](const PendingAccess &earlier) {
      return earlier.pipe == from && region->isAncestor(earlier.op) &&
             llvm::any_of(mine, [&](const PendingAccess &now) {
               return conflicts(earlier, now, state);
             });
    });
  };
  Operation *at = consumer;
  for (Operation *parent = consumer->getParentOp();
       !isa<FunctionOpInterface>(parent) && !holdsCause(parent);
       parent = parent->getParentOp())
    if (!isa<IfAicOp, IfAivOp>(parent))
      at = parent;
  return at;
}

void PipeSyncInserter::ordered(Operation *at, unsigned from, unsigned to,
                               CoreState &state) const {
  // The accesses issued from the first one inside `at` on stay unordered:
  // those before `at` precede it (the clock counts in program order).
  uint64_t first = state.clock;
  for (const PendingAccess &access : state.accesses)
    if (access.pipe == from && at->isAncestor(access.op) && access.op != at)
      first = std::min(first, access.at);
  state.synced[from][to] = std::max(state.synced[from][to], first);
  ++state.clock;
}

void PipeSyncInserter::noteCauses(Move &move, unsigned from, unsigned to,
                                  const CoreState &state) const {
  SmallVector<PendingAccess> mine = accessesOf(move.consumer, to);
  for (const PendingAccess &earlier : state.accesses)
    if (earlier.pipe == from &&
        llvm::any_of(mine, [&](const PendingAccess &now) {
          return conflicts(earlier, now, state);
        }))
      move.causes.insert(earlier.op);
}

void PipeSyncInserter::synchronize(Operation *consumer, unsigned from,
                                   unsigned to, CoreState &state) {
  OpBuilder builder(consumer);
  auto set = SetFlagOp::create(builder, consumer->getLoc(),
                               static_cast<Pipe>(from), static_cast<Pipe>(to),
                               /*event=*/0);
  WaitFlagOp::create(builder, consumer->getLoc(), static_cast<Pipe>(from),
                     static_cast<Pipe>(to), /*event=*/0);
  Operation *at = hoistPoint(consumer, from, to, state);
  Move &move = moves[set];
  move.at = at;
  move.consumer = consumer;
  noteCauses(move, from, to, state);
  ordered(at, from, to, state);
}

SmallVector<SplitPair> PipeSyncInserter::splitLoopCarried(int64_t &nextEvent) {
  SmallVector<SplitPair> split;
  for (auto &[set, move] : moves) {
    auto loop = dyn_cast<scf::ForOp>(move.consumer->getParentOp());
    if (move.at != move.consumer || !loop)
      continue;
    // Every cause inside the loop must be a later op of its body (the
    // previous trip's); causes before the loop are the prime's.
    Operation *last = nullptr;
    bool carried = llvm::all_of(move.causes, [&](Operation *cause) {
      if (!loop->isAncestor(cause))
        return true;
      if (cause->getBlock() != loop.getBody() ||
          !move.consumer->isBeforeInBlock(cause))
        return false;
      if (!last || last->isBeforeInBlock(cause))
        last = cause;
      return true;
    });
    if (!carried || !last)
      continue;
    Operation *wait = set->getNextNode();
    // An event of its own until EventIds gives the ids, so that a later
    // walk pairs the wait with this set.
    int64_t event = kFirstSplitEvent + nextEvent++;
    cast<SetFlagOp>(set).setEvent(event);
    cast<WaitFlagOp>(wait).setEvent(event);
    OpBuilder builder(loop);
    Operation *prime = builder.clone(*set);
    builder.setInsertionPointAfter(loop);
    Operation *drain = builder.clone(*wait);
    set->moveAfter(last);
    split.push_back({prime, set, wait, drain});
  }
  return split;
}

void PipeSyncInserter::place() {
  for (auto [set, move] : moves) {
    Operation *at = move.at;
    if (at == move.consumer)
      continue;
    Operation *wait = set->getNextNode();
    Operation *group = getCoreGroup(set);
    OpBuilder builder(at);
    if (group && !group->isAncestor(at)) {
      // Out of its core group: into a group of its own for that core.
      createGroup(builder, set->getLoc(), isCubeGroup(group),
                  [&](OpBuilder &inner) {
                    set->moveBefore(inner.getInsertionBlock(),
                                    inner.getInsertionPoint());
                    wait->moveAfter(set);
                  });
    } else {
      set->moveBefore(at);
      wait->moveAfter(set);
    }
  }
}

void PipeSyncInserter::visit(Operation *op, CoreState &state) {
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    if (barrier.getPipe() == Pipe::All)
      state.accesses.clear();
    return;
  }
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    // An existing pair (hand-written, or from an earlier walk of a loop).
    // One of ours goes no farther out than the pending accesses it orders
    // (a later trip's) allow.
    unsigned from = static_cast<unsigned>(wait.getSrc());
    unsigned to = static_cast<unsigned>(wait.getDst());
    if (auto move = moves.find(wait->getPrevNode()); move != moves.end()) {
      Operation *at = hoistPoint(move->second.consumer, from, to, state);
      if (move->second.at->isAncestor(at))
        move->second.at = at;
      noteCauses(move->second, from, to, state);
      ordered(move->second.at, from, to, state);
      return;
    }
    // Another wait orders what its set's pipe issued before the set.
    auto set = state.lastSet.find({from, to, wait.getEvent()});
    if (set != state.lastSet.end())
      state.synced[from][to] = std::max(state.synced[from][to], set->second);
    ++state.clock;
    return;
  }
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    state.lastSet[{static_cast<unsigned>(set.getSrc()),
                   static_cast<unsigned>(set.getDst()), set.getEvent()}] =
        state.clock++;
    return;
  }
  if (std::optional<Pipe> pipe = getOpPipe(op); pipe && *pipe != Pipe::All)
    access(op, *pipe, state);
}

void PipeSyncInserter::access(Operation *op, Pipe pipe, CoreState &state) {
  unsigned q = static_cast<unsigned>(pipe);
  SmallVector<PendingAccess> mine = accessesOf(op, q);
  // The pipes this op must wait for.
  std::array<bool, kPipes> needed{};
  for (const PendingAccess &now : mine)
    for (const PendingAccess &earlier : state.accesses)
      if (conflicts(earlier, now, state))
        needed[earlier.pipe] = true;
  for (unsigned p = 0; p < kPipes; ++p)
    if (needed[p])
      synchronize(op, p, q, state);
  // Drop what every other pipe is now ordered after, keep the rest.
  uint64_t at = state.clock++;
  llvm::erase_if(state.accesses, [&](const PendingAccess &access) {
    for (unsigned p = 0; p < kPipes; ++p)
      if (p != access.pipe && state.synced[access.pipe][p] <= access.at)
        return false;
    return true;
  });
  for (PendingAccess &access : mine) {
    access.at = at;
    // A newer access of one pipe to the same storage stands for the older
    // ones of its kind (and a write for reads too): whatever orders it
    // orders them, since the pipe runs in order. So the list stays as long
    // as storages times pipes, and the walk linear.
    llvm::erase_if(state.accesses, [&](const PendingAccess &older) {
      return older.pipe == access.pipe && older.storage == access.storage &&
             (access.writes || !older.writes);
    });
    state.accesses.push_back(access);
  }
}

//===----------------------------------------------------------------------===//
// The event ids
//===----------------------------------------------------------------------===//

/// One core's view for the ids: when each pipe pair was last synchronized
/// and when each event was last waited for.
struct IdState {
  PipeMatrix synced{};
  /// waited[p][q][e]: the last wait of event e from p to q.
  std::array<std::array<std::array<uint64_t, kIds>, kPipes>, kPipes> waited{};
  uint64_t clock = 1;

  /// Whether a set of `e` from `p` to `q` now finds its bit down: its
  /// last wait is ordered before (`q` synchronized to `p` since), or there
  /// was none.
  bool down(unsigned p, unsigned q, unsigned e) const {
    return waited[p][q][e] == 0 || synced[q][p] > waited[p][q][e];
  }
  /// Of the ids from `p` to `q` whose bit is down, the one waited for
  /// longest ago.
  std::optional<unsigned> downId(unsigned p, unsigned q) const {
    std::optional<unsigned> id;
    for (unsigned e = 0; e < kIds; ++e)
      if (down(p, q, e) && (!id || waited[p][q][e] < waited[p][q][*id]))
        id = e;
    return id;
  }
  /// A full barrier: every pipe is ordered after every other.
  void barrier() {
    for (auto &row : synced)
      row.fill(clock);
    ++clock;
  }
  void merge(const IdState &other) {
    for (unsigned p = 0; p < kPipes; ++p)
      for (unsigned q = 0; q < kPipes; ++q) {
        synced[p][q] = std::min(synced[p][q], other.synced[p][q]);
        for (unsigned e = 0; e < kIds; ++e)
          waited[p][q][e] = std::max(waited[p][q][e], other.waited[p][q][e]);
      }
    clock = std::max(clock, other.clock);
  }
};

/// Gives every pair whose wait directly follows its set (this pass's, and
/// an earlier pass's such as ascendc-insert-bufid-sync's) an event id whose
/// bit is down where it is set: a pair of two pipes takes the id waited for
/// longest ago among those whose last wait is ordered before it. When there
/// is none, or a later trip of a loop finds its own id's bit maybe up, a
/// hand-over goes first: a pair the other way, which holds the source pipe
/// until the destination pipe has passed its waits (a full barrier where
/// the chip has no such flag, or for a hand-over that would need one).
/// Whether `set` and `wait` are one pair: the wait right after the set.
bool isPair(SetFlagOp set, WaitFlagOp wait) {
  return set && wait && set.getSrc() == wait.getSrc() &&
         set.getDst() == wait.getDst() && set.getEvent() == wait.getEvent();
}

class EventIds {
public:
  /// `split`: the pairs split around loops, numbered as one at their prime.
  explicit EventIds(ArrayRef<SplitPair> split) {
    for (const SplitPair &pair : split) {
      primes[pair.prime] = pair;
      loopSets.insert(pair.set);
    }
  }

  void visit(Operation *op, IdState &state);

private:
  llvm::DenseSet<Operation *> numbered, handOvers;
  llvm::DenseMap<Operation *, SplitPair> primes;
  llvm::DenseSet<Operation *> loopSets;

  void handOver(SetFlagOp set, IdState &state);
  /// A split pair's id: one whose bit is down at its prime, on all four.
  void numberSplit(const SplitPair &pair, IdState &state);
};

void EventIds::numberSplit(const SplitPair &pair, IdState &state) {
  auto prime = cast<SetFlagOp>(pair.prime);
  unsigned from = static_cast<unsigned>(prime.getSrc());
  unsigned to = static_cast<unsigned>(prime.getDst());
  std::optional<unsigned> id = state.downId(from, to);
  if (!id) {
    handOver(prime, state);
    id = state.downId(from, to).value_or(0);
  }
  for (Operation *op : {pair.prime, pair.set})
    cast<SetFlagOp>(op).setEvent(*id);
  for (Operation *op : {pair.wait, pair.drain})
    cast<WaitFlagOp>(op).setEvent(*id);
}

void EventIds::handOver(SetFlagOp set, IdState &state) {
  unsigned from = static_cast<unsigned>(set.getSrc());
  unsigned to = static_cast<unsigned>(set.getDst());
  OpBuilder builder(set);
  auto pipe = [](Pipe p) {
    return static_cast<tilekit::machine::Pipe>(p); // EnumAgreement.cpp
  };
  std::optional<unsigned> id;
  if (!handOvers.contains(set))
    id = state.downId(to, from);
  if (!id ||
      !tilekit::machine::hasHardEvent(pipe(set.getDst()), pipe(set.getSrc()))) {
    PipeBarrierOp::create(builder, set.getLoc(), Pipe::All);
    state.barrier();
    return;
  }
  auto back =
      SetFlagOp::create(builder, set.getLoc(), set.getDst(), set.getSrc(), *id);
  WaitFlagOp::create(builder, set.getLoc(), set.getDst(), set.getSrc(), *id);
  numbered.insert(back);
  handOvers.insert(back);
  state.waited[to][from][*id] = state.clock;
  state.synced[to][from] = state.clock++;
}

void EventIds::visit(Operation *op, IdState &state) {
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    if (barrier.getPipe() == Pipe::All)
      state.barrier();
    return;
  }
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    bool prime = primes.count(op);
    if (prime && numbered.insert(op).second)
      numberSplit(primes.lookup(op), state);
    // A split pair's sets must find the bit down that its waits took down
    // (the last trip's, or the last run's of an outer loop): a hand-over
    // first where the waiting pipe may not have passed that wait yet.
    else if ((prime || loopSets.contains(op)) &&
             !state.down(static_cast<unsigned>(set.getSrc()),
                         static_cast<unsigned>(set.getDst()), set.getEvent()))
      handOver(set, state);
    // A set whose wait comes later keeps its event's bit up until then.
    if (!isPair(set, dyn_cast_or_null<WaitFlagOp>(set->getNextNode())) &&
        set.getEvent() < kIds)
      state.waited[static_cast<unsigned>(set.getSrc())]
                  [static_cast<unsigned>(set.getDst())][set.getEvent()] =
          std::numeric_limits<uint64_t>::max();
    return;
  }
  auto wait = dyn_cast<WaitFlagOp>(op);
  if (!wait)
    return;
  unsigned from = static_cast<unsigned>(wait.getSrc());
  unsigned to = static_cast<unsigned>(wait.getDst());
  auto set = dyn_cast_or_null<SetFlagOp>(wait->getPrevNode());
  bool pair = isPair(set, wait) && wait.getEvent() < kIds;
  if (pair && numbered.insert(set).second) {
    std::optional<unsigned> id = state.downId(from, to);
    if (!id) {
      // After the hand-over every id's last wait is ordered before (but
      // those a later wait takes).
      handOver(set, state);
      id = state.downId(from, to).value_or(0);
    }
    set.setEvent(*id);
    wait.setEvent(*id);
  } else if (pair && !state.down(from, to, wait.getEvent())) {
    handOver(set, state);
  }
  if (wait.getEvent() < kIds)
    state.waited[from][to][wait.getEvent()] = state.clock;
  state.synced[from][to] = state.clock++;
}

struct InsertPipeSyncPass
    : tilekit::ascendc::impl::InsertPipeSyncBase<InsertPipeSyncPass> {
  using InsertPipeSyncBase::InsertPipeSyncBase;
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    Block &body = func.getFunctionBody().front();
    // A kernel without core groups is one core: the code outside groups.
    auto insertPairs = [&](PipeSyncInserter &inserter) {
      auto pairs = [&](Operation *op, CoreState &state) {
        inserter.visit(op, state);
      };
      CoreState outside;
      CoreWalker<CoreState, decltype(pairs)>(pairs).walk(body, outside);
      inserter.place();
    };
    PipeSyncInserter inserter(globalOnly);
    insertPairs(inserter);
    // A split wait orders less than the pair did: walk again, each wait
    // ordering what its set's pipe issued before the set, pair what is
    // left unordered, and split those pairs in turn (a few rounds: each
    // round's pairs are loop-carried accesses the last one's covered).
    int64_t splitEvents = 0;
    SmallVector<SplitPair> split = inserter.splitLoopCarried(splitEvents);
    for (unsigned round = 0; round < kSplitRounds && !split.empty(); ++round) {
      PipeSyncInserter rest(globalOnly);
      insertPairs(rest);
      SmallVector<SplitPair> next = rest.splitLoopCarried(splitEvents);
      if (next.empty())
        break;
      if (round + 1 == kSplitRounds) {
        // The last round's pairs stay whole: undo their splits.
        for (const SplitPair &pair : next) {
          pair.set->moveBefore(pair.wait);
          cast<SetFlagOp>(pair.set).setEvent(0);
          cast<WaitFlagOp>(pair.wait).setEvent(0);
          pair.prime->erase();
          pair.drain->erase();
        }
        break;
      }
      split.append(next);
    }
    EventIds ids(split);
    auto number = [&](Operation *op, IdState &state) { ids.visit(op, state); };
    IdState start;
    CoreWalker<IdState, decltype(number)>(number).walk(body, start);
  }
};
} // namespace
