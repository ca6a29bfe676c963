//===- InsertPipeSync.cpp - Set/wait flags between the pipes of a core ----===//
//
// Walks each core's code in program order, keeping for every storage the
// accesses not yet ordered before the other pipes. An op that reads what
// another pipe wrote, or writes what another pipe read or wrote, gets a
// set_flag / wait_flag pair from that pipe right before it: the set, issued
// after the earlier access on its in-order pipe, and the wait, holding the
// op's pipe, order every earlier op of the source pipe before the op (the
// SetFlag<HardEvent::X_Y>(e); WaitFlag<HardEvent::X_Y>(e) idiom of Ascend C).
// Loop bodies are walked twice, so that an access late in the body orders
// the next trip's early ones (loop-carried); both arms of an `scf.if` start
// from the state before it and their unordered accesses are merged.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <array>

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTPIPESYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

constexpr unsigned kPipes = kNumPipes;

struct PendingAccess {
  TensorStorage storage;
  unsigned pipe;
  bool writes;
  /// When it was issued (a counter of this core's ops).
  uint64_t at;
};

/// One core's view while walking: unordered accesses, and when each pipe
/// pair was last synchronized.
struct CoreState {
  std::vector<PendingAccess> accesses;
  /// synced[p][q]: p's ops issued before this point are ordered before q's
  /// ops issued after it.
  std::array<std::array<uint64_t, kPipes>, kPipes> synced{};
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
      else
        same->at = std::max(same->at, access.at);
    }
    for (unsigned p = 0; p < kPipes; ++p)
      for (unsigned q = 0; q < kPipes; ++q)
        synced[p][q] = std::min(synced[p][q], other.synced[p][q]);
    clock = std::max(clock, other.clock);
  }
};

class PipeSyncInserter {
public:
  explicit PipeSyncInserter(bool globalOnly) : globalOnly(globalOnly) {}

  /// Walks `block` in program order with `state` for the code outside core
  /// groups; each group continues its core's state, so hazards between
  /// groups of one core (and across loop trips) are seen.
  void walk(Block &block, CoreState &state);

private:
  /// Merges another path's states into the current ones (`state` may be
  /// one of the cores').
  void mergeCores(CoreState &state, const CoreState &other,
                  const CoreState &otherCube, const CoreState &otherVector) {
    if (&state != &cube && &state != &vector)
      state.merge(other);
    cube.merge(otherCube);
    vector.merge(otherVector);
  }

  bool globalOnly;
  CoreState cube, vector;
  std::array<std::array<int64_t, kPipes>, kPipes> nextEvent{};

  void visit(Operation *op, Pipe pipe, CoreState &state);
  void synchronize(Operation *before, unsigned from, unsigned to,
                   CoreState &state);
};

void PipeSyncInserter::synchronize(Operation *before, unsigned from,
                                   unsigned to, CoreState &state) {
  OpBuilder builder(before);
  // A set executes when its pipe gets there, not where it is written: two
  // pairs of one event with nothing on the source pipe between them set it
  // twice before the first wait, and the chip keeps one bit per event.
  // Consecutive pairs of two pipes take turns over the event ids.
  int64_t event =
      nextEvent[from][to]++ % tilekit::machine::kFirstReservedEventId;
  SetFlagOp::create(builder, before->getLoc(), static_cast<Pipe>(from),
                    static_cast<Pipe>(to), event);
  WaitFlagOp::create(builder, before->getLoc(), static_cast<Pipe>(from),
                     static_cast<Pipe>(to), event);
  state.synced[from][to] = state.clock++;
}

void PipeSyncInserter::visit(Operation *op, Pipe pipe, CoreState &state) {
  unsigned q = static_cast<unsigned>(pipe);
  SmallVector<PendingAccess> mine;
  for (const TensorAccess &access : getTensorAccesses(op))
    if (!globalOnly || isa<GlobalTensorType>(access.tensor.getType()))
      mine.push_back({getTensorStorage(access.tensor), q, access.writes, 0});
  // The pipes this op must wait for.
  std::array<bool, kPipes> needed{};
  for (const PendingAccess &now : mine)
    for (const PendingAccess &earlier : state.accesses)
      if (earlier.pipe != q && (earlier.writes || now.writes) &&
          earlier.storage.overlaps(now.storage) &&
          state.synced[earlier.pipe][q] <= earlier.at)
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

void PipeSyncInserter::walk(Block &block, CoreState &state) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // Twice: the second walk sees the first trip's late accesses. What
      // follows the loop also follows zero trips: merge the state before.
      CoreState before = state, cubeBefore = cube, vectorBefore = vector;
      walk(*loop.getBody(), state);
      walk(*loop.getBody(), state);
      mergeCores(state, before, cubeBefore, vectorBefore);
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      // Each arm starts from the state before the if, the cores' states
      // included (an arm holds core groups of its own).
      CoreState before = state, cubeBefore = cube, vectorBefore = vector;
      walk(branch.getThenRegion().front(), state);
      CoreState taken = state, cubeTaken = cube, vectorTaken = vector;
      state = before;
      cube = cubeBefore;
      vector = vectorBefore;
      if (!branch.getElseRegion().empty())
        walk(branch.getElseRegion().front(), state);
      mergeCores(state, taken, cubeTaken, vectorTaken);
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
    if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
      if (barrier.getPipe() == Pipe::All)
        state.accesses.clear();
      continue;
    }
    if (auto wait = dyn_cast<WaitFlagOp>(op)) {
      // An existing pair (hand-written, or from the first walk of a loop).
      state.synced[static_cast<unsigned>(wait.getSrc())]
                  [static_cast<unsigned>(wait.getDst())] = state.clock++;
      continue;
    }
    if (std::optional<Pipe> pipe = getOpPipe(&op); pipe && *pipe != Pipe::All)
      visit(&op, *pipe, state);
  }
}

struct InsertPipeSyncPass
    : tilekit::ascendc::impl::InsertPipeSyncBase<InsertPipeSyncPass> {
  using InsertPipeSyncBase::InsertPipeSyncBase;
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    // A kernel without core groups is one core: the code outside groups.
    PipeSyncInserter inserter(globalOnly);
    CoreState outside;
    inserter.walk(func.getFunctionBody().front(), outside);
  }
};
} // namespace
