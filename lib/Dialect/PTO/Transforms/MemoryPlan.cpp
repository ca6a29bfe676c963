//===- MemoryPlan.cpp - Addresses for the tiles of a PTO function ---------===//

#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Dialect/PTO/IR/PTOTraits.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"

#include <map>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;
using machine::Buffer;

BufferCapacities::BufferCapacities() {
  for (unsigned i = 0; i < machine::kNumBuffers; ++i)
    bytes[i] = machine::getDefaultCapacity(static_cast<Buffer>(i));
}

int64_t MemoryPlan::reservedBytes(Value value) const {
  auto it = reserved.find(value);
  return it == reserved.end() ? 0 : it->second;
}

static bool hasTileType(Value value) { return isa<TileType>(value.getType()); }

bool pto::isPlannable(FunctionOpInterface func) {
  if (func.isExternal())
    return false;
  std::optional<FunctionKind> kind = getFunctionKind(func);
  if (kind && *kind != FunctionKind::InCore && *kind != FunctionKind::AIC &&
      *kind != FunctionKind::AIV)
    return false;
  for (Type type : func.getArgumentTypes())
    if (auto tile = dyn_cast<TileType>(type); tile && !tile.getAddr())
      return false;
  if (llvm::any_of(func.getResultTypes(), llvm::IsaPred<TileType>))
    return false;
  // A call's tile operands must have the callee's types exactly.
  WalkResult calls = func->walk([](CallOpInterface call) {
    bool tiles = llvm::any_of(call->getOperands(), hasTileType) ||
                 llvm::any_of(call->getResults(), hasTileType);
    return tiles ? WalkResult::interrupt() : WalkResult::advance();
  });
  return !calls.wasInterrupted();
}

namespace {

/// Program points, in order: one per op, and for an op with regions one
/// more after its regions, where its results are defined.
struct Span {
  int64_t begin = 0, end = 0;
};

struct TileInfo {
  Value value;
  int64_t def = 0, lastUse = 0;
  /// The op of the last use (null when unused).
  Operation *lastUser = nullptr;
};

/// A set of tiles that occupy one storage.
struct StorageClass {
  SmallVector<unsigned> members; // indices into tiles, in definition order
  Buffer buffer = Buffer::GM;
  int64_t begin = 0, end = 0, size = 0;
  std::optional<int64_t> fixedAddr;
  int64_t addr = 0;
  /// The member defined first, and the member read last (its last reader
  /// ends the class's lifetime).
  const TileInfo *first = nullptr, *last = nullptr;
  /// Whether its last reader writes another class over it (handsOver), so
  /// that it is free at its last point.
  bool handedOver = false;
  /// The buffer set (pto.buffer_set) of its members: kNoSet when none has
  /// one, kMixedSets when they differ. Classes of different sets never
  /// share storage, whatever their lifetimes.
  int64_t bufferSet = kNoSet;
  static constexpr int64_t kNoSet = -1, kMixedSets = -2;

  bool hasSet() const { return bufferSet >= 0; }
  /// Whether this class and `other` must not share storage at any time.
  bool keptApartFrom(const StorageClass &other) const {
    return hasSet() && other.hasSet() && bufferSet != other.bufferSet;
  }
};

/// What one planning attempt came to.
enum class Outcome { Planned, CopyInserted, Failed };

/// Where copies were inserted: (op, operand number).
using CopySites = llvm::DenseSet<std::pair<Operation *, unsigned>>;

class Planner {
public:
  Planner(FunctionOpInterface func, const BufferCapacities &capacities,
          CopySites &copied)
      : func(func), capacities(capacities), copied(copied) {}
  Outcome run(MemoryPlan &plan);

private:
  void number(Block &block);
  void addTile(Value value, int64_t def);
  void computeLiveness();
  void tieStorage();
  Outcome formClasses();
  Outcome checkClass(StorageClass &storage);
  Outcome separate(const TileInfo &earlier, const TileInfo &later);
  void place(Buffer buffer);
  BufferFootprint measure(Buffer buffer);

  FunctionOpInterface func;
  const BufferCapacities &capacities;
  CopySites &copied;
  int64_t counter = 0;
  DenseMap<Operation *, Span> spans;
  std::vector<TileInfo> tiles;
  DenseMap<Value, unsigned> tileIndex;
  llvm::EquivalenceClasses<unsigned> ties;
  std::vector<StorageClass> classes;
};

void Planner::addTile(Value value, int64_t def) {
  if (!hasTileType(value))
    return;
  tileIndex[value] = tiles.size();
  tiles.push_back({value, def, def, nullptr});
  ties.insert(tiles.size() - 1);
}

void Planner::number(Block &block) {
  for (Operation &op : block) {
    Span span;
    span.begin = counter++;
    // A block's arguments are defined where the block starts: the after
    // region of an scf.while receives what the before region's condition
    // hands it, after that region ran.
    for (Region &region : op.getRegions())
      for (Block &nested : region) {
        for (BlockArgument argument : nested.getArguments())
          addTile(argument, counter);
        number(nested);
      }
    span.end = op.getNumRegions() ? counter++ : span.begin;
    spans[&op] = span;
    for (Value result : op.getResults())
      addTile(result, span.end);
  }
}

void Planner::computeLiveness() {
  for (TileInfo &tile : tiles) {
    Block *home = isa<BlockArgument>(tile.value)
                      ? cast<BlockArgument>(tile.value).getOwner()
                      : tile.value.getDefiningOp()->getBlock();
    for (OpOperand &use : tile.value.getUses()) {
      Operation *user = use.getOwner();
      Operation *ancestor = home->findAncestorOpInBlock(*user);
      if (!ancestor)
        continue;
      // A use inside a loop the tile is defined outside of recurs on every
      // iteration: the tile lives to the end of the outermost such loop.
      // In a branch, it lives only to the use.
      int64_t point = spans[user].begin;
      for (Operation *op = user; op != ancestor;) {
        op = op->getParentOp();
        if (isa<LoopLikeOpInterface>(op))
          point = std::max(point, spans[op].end);
      }
      if (point >= tile.lastUse) {
        tile.lastUse = point;
        tile.lastUser = user;
      }
    }
  }
}

void Planner::tieStorage() {
  auto tie = [&](Value a, Value b) {
    auto ia = tileIndex.find(a), ib = tileIndex.find(b);
    if (ia != tileIndex.end() && ib != tileIndex.end())
      ties.unionSets(ia->second, ib->second);
  };
  func->walk([&](Operation *op) {
    if (auto shared = dyn_cast<SharedStorageOpInterface>(op))
      for (OpResult result : op->getResults())
        if (OpOperand *operand = shared.getStorageOperand(result))
          tie(result, operand->get());
    // A register scope's block arguments are its captures, in the same
    // storage (the region is isolated, so they are values of their own).
    if (auto scope = dyn_cast<RegScopeOp>(op))
      for (auto [capture, argument] : llvm::zip(
               scope.getCaptures(), scope.getBody().front().getArguments()))
        tie(capture, argument);
    if (auto branch = dyn_cast<RegionBranchOpInterface>(op)) {
      RegionBranchSuccessorMapping mapping;
      branch.getSuccessorOperandInputMapping(mapping);
      for (auto &[operand, inputs] : mapping)
        for (Value input : inputs)
          tie(operand->get(), input);
    }
  });
}

/// Whether the op defining `result` may write it over `operand`, which it
/// reads last: an update in place (SharedStorageOpInterface), a matmul into
/// its accumulator, or an elementwise op that is not a reduction with an
/// operand of the result's box (the vector unit reads each element before
/// it writes it). Any other op needs its result apart from its operands.
static bool mayWriteOver(Value result, Value operand) {
  Operation *op = result.getDefiningOp();
  if (!op)
    return false;
  if (auto shared = dyn_cast<SharedStorageOpInterface>(op))
    if (OpOperand *storage = shared.getStorageOperand(cast<OpResult>(result)))
      return storage->get() == operand;
  if (auto matmul = dyn_cast<MatmulOpInterface>(op))
    return matmul.getAccumulator() == operand;
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op)) {
    ElementwiseFamily family = elementwise.getFamily();
    auto operandType = dyn_cast<TileType>(operand.getType());
    return family != ElementwiseFamily::RowReduce &&
           family != ElementwiseFamily::ColReduce && operandType &&
           operandType.hasSameBox(cast<TileType>(result.getType())) &&
           llvm::is_contained(op->getOperands(), operand);
  }
  return false;
}

static InFlightDiagnostic emitErrorAt(Value value) {
  return mlir::emitError(value.getLoc());
}

Outcome Planner::checkClass(StorageClass &storage) {
  TileInfo &first = tiles[storage.members.front()];
  auto firstType = cast<TileType>(first.value.getType());
  storage.buffer = getBuffer(firstType.getMemorySpace());
  storage.begin = first.def;
  storage.end = first.lastUse;
  storage.first = storage.last = &first;
  int64_t alignment = machine::getAlignment(storage.buffer);
  // Members are in definition order: the latest end among the earlier
  // members must not pass the next definition.
  const TileInfo *longest = nullptr;
  for (unsigned index : storage.members) {
    const TileInfo &tile = tiles[index];
    auto type = cast<TileType>(tile.value.getType());
    if (getBuffer(type.getMemorySpace()) != storage.buffer) {
      emitErrorAt(tile.value)
          << "this tile must share storage with a tile in "
          << machine::getName(storage.buffer) << " (" << first.value.getLoc()
          << "), but lives in "
          << machine::getName(getBuffer(type.getMemorySpace()));
      return Outcome::Failed;
    }
    if (type.getAddr()) {
      if (storage.fixedAddr && *storage.fixedAddr != *type.getAddr()) {
        emitErrorAt(tile.value)
            << "this tile must share storage with one at address "
            << *storage.fixedAddr << ", but is given address "
            << *type.getAddr();
        return Outcome::Failed;
      }
      storage.fixedAddr = type.getAddr();
    }
    if (longest && (longest->lastUse > tile.def ||
                    (longest->lastUse == tile.def &&
                     !mayWriteOver(tile.value, longest->value))))
      return separate(*longest, tile);
    if (!longest || tile.lastUse > longest->lastUse)
      longest = &tile;
    storage.begin = std::min(storage.begin, tile.def);
    if (tile.lastUse >= storage.end) {
      storage.end = tile.lastUse;
      storage.last = &tile;
    }
    storage.size = std::max<int64_t>(
        storage.size, llvm::alignTo(type.getSizeInBytes(), alignment));
    Operation *def = tile.value.getDefiningOp();
    auto set =
        def ? def->getAttrOfType<IntegerAttr>(PTODialect::kBufferSetAttrName)
            : IntegerAttr();
    int64_t memberSet = set ? set.getInt() : StorageClass::kNoSet;
    if (&tile == &first)
      storage.bufferSet = memberSet;
    else if (storage.bufferSet != memberSet)
      storage.bufferSet = StorageClass::kMixedSets;
  }
  if (storage.fixedAddr) {
    int64_t capacity = capacities[storage.buffer];
    if (*storage.fixedAddr % alignment != 0) {
      emitErrorAt(first.value)
          << "address " << *storage.fixedAddr << " is not a multiple of "
          << alignment << " bytes, the alignment of "
          << machine::getName(storage.buffer);
      return Outcome::Failed;
    }
    if (*storage.fixedAddr + storage.size > capacity) {
      emitErrorAt(first.value)
          << "the tile at address " << *storage.fixedAddr << " ("
          << storage.size << " bytes) runs past the end of "
          << machine::getName(storage.buffer) << " (" << capacity << " bytes)";
      return Outcome::Failed;
    }
    storage.addr = *storage.fixedAddr;
  }
  return Outcome::Planned;
}

/// `later` must take the storage of `earlier`, which is still needed. They
/// stop sharing storage through one copy (the out-of-SSA copy a register
/// allocator inserts) where they are tied: the operand of an in-place op
/// (update a copy), a value a yield hands to the next iteration or out of
/// its region while the carried tile is still read (hand over a copy), an
/// init still needed after its loop (hand the loop a copy). Anything else,
/// or a second copy at one place (a loop whose carried tiles trade places),
/// is an error.
Outcome Planner::separate(const TileInfo &earlier, const TileInfo &later) {
  OpOperand *tieUse = nullptr;
  if (auto shared = dyn_cast_or_null<SharedStorageOpInterface>(
          later.value.getDefiningOp()))
    if (OpOperand *operand =
            shared.getStorageOperand(cast<OpResult>(later.value));
        operand && operand->get() == earlier.value)
      tieUse = operand;
  for (OpOperand &use : later.value.getUses())
    if (!tieUse && isa<RegionBranchTerminatorOpInterface>(use.getOwner()))
      tieUse = &use;
  for (OpOperand &use : earlier.value.getUses())
    if (!tieUse && isa<RegionBranchOpInterface>(use.getOwner()) &&
        earlier.lastUse > spans[use.getOwner()].begin)
      tieUse = &use;
  if (tieUse &&
      !copied.insert({tieUse->getOwner(), tieUse->getOperandNumber()}).second)
    tieUse = nullptr;

  auto type = cast<TileType>(later.value.getType());
  MemorySpace space = type.getMemorySpace();
  bool copyable = space == MemorySpace::Vec || space == MemorySpace::Mat;
  if (!tieUse || !copyable) {
    InFlightDiagnostic diag =
        emitErrorAt(later.value)
        << "cannot plan memory: this tile must take the storage of another "
           "that is still needed afterwards";
    if (!tieUse)
      diag << ", and no copy separates them (do carried tiles trade places, "
              "or does one tile fill two places?)";
    else
      diag << ", and a tile in " << machine::getName(getBuffer(space))
           << " cannot be copied within its buffer";
    diag.attachNote(earlier.value.getLoc()) << "the other tile";
    if (earlier.lastUser)
      diag.attachNote(earlier.lastUser->getLoc()) << "still used here";
    return Outcome::Failed;
  }
  Value original = tieUse->get();
  OpBuilder builder(tieUse->getOwner());
  auto copy = TileMoveOp::create(builder, original.getLoc(), original.getType(),
                                 original);
  tieUse->set(copy.getResult());
  return Outcome::CopyInserted;
}

Outcome Planner::formClasses() {
  DenseMap<unsigned, unsigned> classOfLeader;
  for (unsigned index = 0; index < tiles.size(); ++index) {
    unsigned leader = ties.getLeaderValue(index);
    auto [it, inserted] = classOfLeader.try_emplace(leader, classes.size());
    if (inserted)
      classes.emplace_back();
    classes[it->second].members.push_back(index);
  }
  for (StorageClass &storage : classes) {
    llvm::stable_sort(storage.members, [&](unsigned a, unsigned b) {
      return tiles[a].def < tiles[b].def;
    });
    if (Outcome outcome = checkClass(storage); outcome != Outcome::Planned)
      return outcome;
  }
  return Outcome::Planned;
}

/// Whether `from` may pass its storage to `to` at the op where `from` is
/// read last and `to` begins: that op writes its result over the operand
/// (an elementwise op, a matmul into its accumulator; mayWriteOver).
static bool handsOver(const StorageClass &from, const StorageClass &to) {
  return from.end == to.begin && from.last->lastUser &&
         from.last->lastUser == to.first->value.getDefiningOp() &&
         from.size >= to.size &&
         mayWriteOver(to.first->value, from.last->value);
}

/// Greedy by size: the largest classes first, each in the smallest hole
/// left by the classes already placed that live at the same time (given
/// addresses included), else above them. Small tiles then fill the holes
/// between large ones instead of pushing them up.
void Planner::place(Buffer buffer) {
  SmallVector<StorageClass *> planned;
  // The classes placed so far: short-lived ones by first point, so that
  // those overlapping a lifetime are found in O(log n + k); the few that
  // live long (and given addresses) are checked one by one.
  constexpr int64_t kShortLifetime = 256;
  std::multimap<int64_t, StorageClass *> shortByBegin;
  SmallVector<StorageClass *> longLived;
  auto addPlaced = [&](StorageClass *storage) {
    // A class of a buffer set must be checked against every other set's,
    // whenever they live.
    if (!storage->fixedAddr && !storage->hasSet() &&
        storage->end - storage->begin <= kShortLifetime)
      shortByBegin.insert({storage->begin, storage});
    else
      longLived.push_back(storage);
  };
  for (StorageClass &storage : classes)
    if (storage.buffer == buffer) {
      if (storage.fixedAddr)
        addPlaced(&storage);
      else
        planned.push_back(&storage);
    }
  llvm::stable_sort(planned, [](StorageClass *a, StorageClass *b) {
    return std::make_pair(-a->size, a->begin) <
           std::make_pair(-b->size, b->begin);
  });
  int64_t alignment = machine::getAlignment(buffer);
  SmallVector<std::pair<int64_t, int64_t>> taken;
  for (StorageClass *storage : planned) {
    taken.clear();
    auto overlaps = [&](StorageClass *other) {
      if (storage->keptApartFrom(*other))
        return true;
      return other->begin <= storage->end && storage->begin <= other->end &&
             !handsOver(*other, *storage) && !handsOver(*storage, *other);
    };
    for (StorageClass *other : longLived)
      if (overlaps(other))
        taken.push_back({other->addr, other->addr + other->size});
    for (auto it = shortByBegin.lower_bound(storage->begin - kShortLifetime);
         it != shortByBegin.end() && it->first <= storage->end; ++it)
      if (overlaps(it->second))
        taken.push_back(
            {it->second->addr, it->second->addr + it->second->size});
    llvm::sort(taken);
    int64_t cursor = 0, bestAddr = -1, bestHole = 0;
    for (auto [begin, end] : taken) {
      int64_t hole = begin - cursor;
      if (hole >= storage->size && (bestAddr < 0 || hole < bestHole)) {
        bestAddr = cursor;
        bestHole = hole;
      }
      cursor = std::max<int64_t>(cursor, llvm::alignTo(end, alignment));
    }
    storage->addr = bestAddr >= 0 ? bestAddr : cursor;
    addPlaced(storage);
  }
}

BufferFootprint Planner::measure(Buffer buffer) {
  BufferFootprint footprint;
  footprint.buffer = buffer;
  footprint.capacity = capacities[buffer];
  // (point, +bytes at a class's begin / -bytes after its end)
  SmallVector<std::pair<int64_t, int64_t>> events;
  for (StorageClass &storage : classes) {
    if (storage.buffer != buffer)
      continue;
    footprint.highWater =
        std::max(footprint.highWater, storage.addr + storage.size);
    events.push_back({storage.begin, storage.size});
    events.push_back({storage.end + !storage.handedOver, -storage.size});
  }
  llvm::sort(events); // at one point, frees come before allocations
  int64_t live = 0, peakPoint = 0;
  for (auto [point, bytes] : events) {
    live += bytes;
    if (live > footprint.peakLive) {
      footprint.peakLive = live;
      peakPoint = point;
    }
  }
  for (StorageClass &storage : classes)
    if (storage.buffer == buffer && storage.begin <= peakPoint &&
        peakPoint < storage.end + !storage.handedOver)
      footprint.liveAtPeak.push_back(tiles[storage.members.front()].value);
  return footprint;
}

Outcome Planner::run(MemoryPlan &plan) {
  Block &entry = func.getFunctionBody().front();
  for (BlockArgument argument : entry.getArguments())
    addTile(argument, 0);
  number(entry);
  computeLiveness();
  tieStorage();
  if (Outcome outcome = formClasses(); outcome != Outcome::Planned)
    return outcome;

  DenseMap<Operation *, SmallVector<StorageClass *, 1>> byFirstDef;
  for (StorageClass &storage : classes)
    if (Operation *def = storage.first->value.getDefiningOp())
      byFirstDef[def].push_back(&storage);
  for (StorageClass &storage : classes)
    if (storage.last->lastUser)
      for (StorageClass *next : byFirstDef.lookup(storage.last->lastUser))
        storage.handedOver |= handsOver(storage, *next);

  for (unsigned i = 0; i < machine::kNumBuffers; ++i) {
    auto buffer = static_cast<Buffer>(i);
    if (llvm::none_of(classes, [&](const StorageClass &storage) {
          return storage.buffer == buffer;
        }))
      continue;
    place(buffer);
    plan.footprints.push_back(measure(buffer));
  }
  for (StorageClass &storage : classes)
    for (unsigned index : storage.members) {
      plan.addresses[tiles[index].value] = storage.addr;
      plan.reserved[tiles[index].value] = storage.size;
    }
  return Outcome::Planned;
}

} // namespace

/// Plans `func` as it is written.
static FailureOr<MemoryPlan> planAsWritten(FunctionOpInterface func,
                                           const BufferCapacities &capacities) {
  // Each attempt either plans, fails, or separates one pair of tiles with
  // a copy and starts over. No place gets two copies, so this ends.
  MemoryPlan plan;
  CopySites copied;
  while (true) {
    Outcome outcome = Planner(func, capacities, copied).run(plan);
    if (outcome == Outcome::Failed)
      return failure();
    if (outcome == Outcome::Planned)
      return plan;
    ++plan.copies;
  }
}

/// Plans a copy of `func` whose load loops are unrolled by two, each half's
/// loads a buffer set that never shares storage with the other's; adopts
/// the copy's body when that plan fits. Fails, leaving `func` alone and saying
/// nothing, otherwise.
static FailureOr<MemoryPlan>
planDoubleBuffered(FunctionOpInterface func,
                   const BufferCapacities &capacities) {
  auto copy = cast<FunctionOpInterface>(func->clone());
  auto discard = llvm::make_scope_exit([&] {
    if (copy)
      copy->erase();
  });
  SmallVector<scf::ForOp> loops;
  copy->walk([&](scf::ForOp loop) {
    // A loop that pushes or pops across cores is fused trip by trip with
    // the other core's loop when compiled, and its pipe's slots are its
    // buffering: it stays as written.
    bool crossCore =
        loop->walk([](Operation *op) {
              return op->hasTrait<pto::OpTrait::CrossCoreTransfer>()
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted();
    if (!crossCore && llvm::any_of(loop.getBody()->getOperations(),
                                   llvm::IsaPred<TileLoadOp>))
      loops.push_back(loop);
  });
  // Each half's loads are a buffer set of their own (pto.buffer_set): the
  // compiled kernel keeps the two sets apart as the plan does.
  Builder builder(func.getContext());
  auto markSet = [&](unsigned half, Operation *op, OpBuilder) {
    if (isa<TileLoadOp>(op))
      op->setAttr(PTODialect::kBufferSetAttrName,
                  builder.getI64IntegerAttr(half));
  };
  unsigned unrolled = 0;
  for (scf::ForOp loop : loops)
    unrolled += succeeded(loopUnrollByFactor(loop, 2, markSet));
  if (!unrolled)
    return failure();
  FailureOr<MemoryPlan> plan;
  {
    // A plan that does not work out here is not the user's error.
    ScopedDiagnosticHandler silence(func->getContext(),
                                    [](Diagnostic &) { return success(); });
    plan = planAsWritten(copy, capacities);
  }
  if (failed(plan) ||
      !llvm::all_of(plan->footprints, [](const BufferFootprint &footprint) {
        return footprint.fits();
      }))
    return failure();
  func.getFunctionBody().takeBody(copy.getFunctionBody());
  plan->doubleBufferedLoops = unrolled;
  return plan;
}

FailureOr<MemoryPlan> pto::computeMemoryPlan(FunctionOpInterface func,
                                             const BufferCapacities &capacities,
                                             const PlanOptions &options) {
  if (options.doubleBuffer)
    if (FailureOr<MemoryPlan> plan = planDoubleBuffered(func, capacities);
        succeeded(plan))
      return plan;
  return planAsWritten(func, capacities);
}

LogicalResult pto::reportOverflow(FunctionOpInterface func,
                                  const MemoryPlan &plan) {
  bool fits = true;
  for (const BufferFootprint &footprint : plan.footprints) {
    if (footprint.fits())
      continue;
    fits = false;
    StringRef name = machine::getName(footprint.buffer);
    InFlightDiagnostic diag = func.emitError()
                              << "@" << func.getName() << " needs "
                              << footprint.highWater << " bytes of " << name
                              << ", more than its capacity of "
                              << footprint.capacity << " bytes; at the peak "
                              << footprint.peakLive << " bytes are live in "
                              << footprint.liveAtPeak.size() << " tiles";
    if (footprint.peakLive <= footprint.capacity)
      diag << " (the rest is lost to alignment and placement)";
    for (Value tile : footprint.liveAtPeak)
      diag.attachNote(tile.getLoc())
          << "live at the peak: " << tile.getType() << ", "
          << plan.reservedBytes(tile) << " bytes";
  }
  return success(fits);
}

void pto::warnHalfBuffers(FunctionOpInterface func, const MemoryPlan &plan) {
  for (const BufferFootprint &footprint : plan.footprints) {
    if (!footprint.fits() || 2 * footprint.highWater <= footprint.capacity)
      continue;
    InFlightDiagnostic diag =
        func.emitWarning()
        << "@" << func.getName() << " needs " << footprint.highWater
        << " bytes of " << machine::getName(footprint.buffer)
        << ", more than half its " << footprint.capacity
        << ": two work items cannot share a core double-buffered, so each "
           "runs alone";
    for (Value tile : footprint.liveAtPeak)
      diag.attachNote(tile.getLoc())
          << "live at the peak: " << tile.getType() << ", "
          << plan.reservedBytes(tile) << " bytes";
  }
}

void pto::applyMemoryPlan(FunctionOpInterface func, const MemoryPlan &plan) {
  for (auto [value, addr] : plan.addresses) {
    auto type = cast<TileType>(value.getType());
    if (type.getAddr() != addr)
      value.setType(type.withAddr(addr));
  }
}
