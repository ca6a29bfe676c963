//===- GroupMerge.cpp - pto-merge-groups ----------------------------------===//
//
// A PTO group (an `aic` and an `aiv` function exchanging tiles through
// cross-core pipes) becomes one kernel, the group function, whose body this
// pass builds from its members: the cube's ops and the vector core's,
// interleaved so that every pop comes after the pushes it takes and every
// push finds a free slot of its pipe (the order the cross-core sync passes
// reason in); loops holding transfers on both cores fuse into one, merged
// the same way, and a loop of a constant trip count that cannot fuse (its
// trips would not repeat, or the other core has no loop to meet it)
// unrolls. A split group's aiv function runs on two lanes: each of its
// top-level ops is cloned for lane 0, then for lane 1, with
// get_subblock_idx the lane, and each clone names its lane (tilekit.lane;
// ascendc-guard-lanes later runs each lane on its own vector sub-block). Each
// slot of a pipe direction is a workspace tensor in GM that its pushes write
// and its pops read, or on C310 (the module's ascendc.arch) for L1 tiles sent
// to the lanes, a mailbox in UB that the cube's L1 -> UB copy fills. Each
// transfer records its slot, lane and partners (TransferRecord) for
// convert-pto-to-ascendc.
//
// A pipe direction holds as many tiles in flight as the pushing end's
// initialize_pipe gives it slots (any number without one, as the PTO
// runtime's unbounded queues); a push takes the lowest free slot, a pop the
// oldest tile's. Inside a fused loop a pipe holds at most the tiles in
// flight at the loop's entry (at least one), so each trip uses the slots
// the one before did. A pop takes the push it matches in FIFO order, and
// that push's valid shape, unless the push is known only at run time.
//
// A counted scf.while holding transfers is first lifted to the scf.for it
// is (CountedWhile.cpp), so that it fuses with the other core's loop trip
// by trip; another while holding transfers is an error at it.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

#include <deque>
#include <limits>
#include <map>

namespace tilekit {
#define GEN_PASS_DEF_MERGEGROUPS
#include "tilekit/Conversion/Passes.h.inc"
} // namespace tilekit

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

/// Whether `op` holds a cross-core transfer in one of its regions.
bool holdsTransfers(Operation *op) {
  if (op->getNumRegions() == 0)
    return false;
  return op
      ->walk([](Operation *inner) {
        return isTransfer(inner) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

/// A loop that holds transfers: fused trip by trip with the other core's.
bool isTransferLoop(Operation *op) {
  return isa<scf::ForOp>(op) && holdsTransfers(op);
}

/// An op of one side of the merge: the cube's (no lane) or a vector
/// lane's.
struct Step {
  Operation *op;
  std::optional<unsigned> lane;
};

/// A tile pushed and not yet popped: its slot and the push (its clone in
/// the kernel).
struct Pushed {
  unsigned slot;
  Operation *push;
};

/// The tiles in flight (oldest first), per pipe direction and lane.
using Channel = std::tuple<int64_t, bool, unsigned>;
using Flight = std::map<Channel, std::deque<Pushed>>;

/// Whether two points hold their tiles in flight in the same slots.
bool sameSlots(const Flight &a, const Flight &b) {
  auto slots = [](const Flight &flight) {
    std::map<Channel, SmallVector<unsigned>> kept;
    for (const auto &[channel, tiles] : flight)
      for (const Pushed &tile : tiles)
        kept[channel].push_back(tile.slot);
    return kept;
  };
  return slots(a) == slots(b);
}

/// Builds one group's kernel body.
class GroupMerger {
public:
  GroupMerger(func::FuncOp group, FunctionOpInterface aic,
              FunctionOpInterface aiv, unsigned lanes);

  LogicalResult merge();

private:
  FailureOr<Value> workspaceFor(Operation *transfer, unsigned slot);
  SmallVector<unsigned, 2> lanesOf(std::optional<unsigned> lane) const;
  size_t slotsFor(Operation *transfer, std::optional<unsigned> lane) const;
  bool take(Operation *transfer, std::optional<unsigned> lane, Flight &flight,
            Operation *clone = nullptr,
            SmallVectorImpl<Pushed> *popped = nullptr) const;
  bool blocked(const Step &step) const;
  LogicalResult emit(const Step &step);
  LogicalResult registerTransfer(Operation *original, Operation *clone,
                                 std::optional<unsigned> lane);
  LogicalResult mergeBlock(SmallVector<Step> cubeSteps,
                           SmallVector<Step> vectorSteps);
  bool sameTrips(scf::ForOp cubeLoop, scf::ForOp vectorLoop);
  bool balanced(scf::ForOp cubeLoop, scf::ForOp vectorLoop) const;
  LogicalResult fuseLoops(scf::ForOp cubeLoop, scf::ForOp vectorLoop);
  IRMapping &mapOf(std::optional<unsigned> lane) {
    return lane ? laneMaps[*lane] : cube;
  }

  func::FuncOp group;
  FunctionOpInterface aic, aiv;
  unsigned lanes;
  /// Each push's id (its clone's), which the pops it feeds name.
  llvm::DenseMap<Operation *, int64_t> pushIds;
  OpBuilder builder;
  IRMapping cube;
  SmallVector<IRMapping, 2> laneMaps;
  Flight inFlight;
  /// The slots of each pipe direction, from its pushing end's
  /// initialize_pipe (absent: unbounded, as the PTO runtime's queues).
  std::map<std::pair<int64_t, bool>, size_t> declaredSlots;
  /// The bytes each of those slots holds.
  std::map<std::pair<int64_t, bool>, int64_t> slotBytes;
  /// Inside a fused loop: the tiles in flight at the loop's entry.
  const Flight *loopEntry = nullptr;
  /// One workspace per pipe, direction and slot.
  std::map<std::tuple<int64_t, bool, unsigned>, Value> workspaces;
  /// Per pipe direction, where lane 1's part of the box starts.
  std::map<std::pair<int64_t, bool>, int64_t> cuts;
};

GroupMerger::GroupMerger(func::FuncOp group, FunctionOpInterface aic,
                         FunctionOpInterface aiv, unsigned lanes)
    : group(group), aic(aic), aiv(aiv), lanes(lanes),
      builder(group.getContext()) {
  // A direction's slots are those its pushing end declares.
  aic->walk([&](pto::AicInitializePipeOp init) {
    if (static_cast<unsigned>(init.getDir()) &
        static_cast<unsigned>(pto::PipeDirection::ToAiv)) {
      declaredSlots[{init.getPipeId(), true}] = init.getSlotNum();
      slotBytes[{init.getPipeId(), true}] = init.getSlotSize();
    }
  });
  aiv->walk([&](pto::AivInitializePipeOp init) {
    if (static_cast<unsigned>(init.getDir()) &
        static_cast<unsigned>(pto::PipeDirection::ToAic)) {
      declaredSlots[{init.getPipeId(), false}] = init.getSlotNum();
      slotBytes[{init.getPipeId(), false}] = init.getSlotSize();
    }
  });
}

/// The workspace of one slot of a transfer's pipe direction: the cube's
/// tile box, in the vector side's element type; made first in the kernel.
FailureOr<Value> GroupMerger::workspaceFor(Operation *transfer, unsigned slot) {
  auto [pipe, toVector] = channelOf(transfer);
  auto it = workspaces.find({pipe, toVector, slot});
  if (it != workspaces.end())
    return it->second;
  auto channel = channelOf(transfer);
  SmallVector<Operation *> cubeEnds, vectorEnds;
  aic->walk([&](Operation *op) {
    if (isTransfer(op) && channelOf(op) == channel)
      cubeEnds.push_back(op);
  });
  aiv->walk([&](Operation *op) {
    if (isTransfer(op) && channelOf(op) == channel)
      vectorEnds.push_back(op);
  });
  if (cubeEnds.empty() || vectorEnds.empty())
    return transfer->emitOpError()
           << "has no partner on the other core for pipe " << channel.first;
  // The workspace holds the cube's tile, the box; every cube end of the
  // pipe moves one of that shape.
  pto::TileType box = tileOf(cubeEnds.front());
  for (Operation *end : cubeEnds)
    if (tileOf(end).getShape() != box.getShape())
      return end->emitOpError() << "moves " << tileOf(end) << " on pipe "
                                << pipe << ", whose workspace holds the " << box
                                << " another transfer of the cube moves on it";
  // The cut between the lanes' parts: the box half, or the lane_stride of
  // the cube's pushes (odd codes), which must agree on the pipe.
  auto strideOf = [](pto::TPushToAivOp push) -> std::optional<int64_t> {
    if (IntegerAttr stride = push.getLaneStrideAttr())
      return stride.getInt();
    return std::nullopt;
  };
  SmallVector<pto::TPushToAivOp> cubePushes;
  aic->walk([&](pto::TPushToAivOp push) {
    if (channelOf(push) == channel)
      cubePushes.push_back(push);
  });
  std::optional<int64_t> laneStride =
      cubePushes.empty() ? std::nullopt : strideOf(cubePushes.front());
  for (pto::TPushToAivOp push : cubePushes)
    if (strideOf(push) != laneStride)
      return push.emitOpError()
             << "cuts its tile between the lanes elsewhere than another push "
                "on pipe "
             << pipe << ", which is not lowered: each pipe's workspace is "
             << "cut in one place";
  // Each vector end's tile holds its lane's part of the box under its own
  // split: the box (split 0), or the box cut along the split axis, the
  // part at least as long as the longer side of the cut.
  int64_t cut = 0, payloadBytes = 0;
  for (Operation *end : vectorEnds) {
    pto::TileType part = tileOf(end);
    int axis = splitAxisOf(end);
    bool matches = box.getRank() == 2 && part.getRank() == 2;
    SmallVector<int64_t, 2> payload(box.getShape());
    if (matches && axis >= 0) {
      int64_t extent = box.getDimSize(axis);
      int64_t at = laneStride.value_or(extent / 2);
      int64_t across = 1 - axis;
      payload[axis] = std::max(at, extent - at);
      // Each lane's tile holds at least lane 0's part (lane 1's is no
      // longer but at a lane_stride, where laneRange clamps it).
      matches = at > 0 && at < extent &&
                part.getDimSize(across) == box.getDimSize(across) &&
                part.getDimSize(axis) >= at;
      cut = at;
    } else if (matches) {
      matches = box.getShape() == part.getShape();
    }
    if (!matches)
      return end->emitOpError()
             << "moves " << part << " on each lane and " << box
             << " on the cube core with split " << splitOf(end)
             << (laneStride ? " at lane_stride " + std::to_string(*laneStride)
                            : std::string())
             << ", which do not cut into each other";
    // What one lane's queue carries, in the pushing side's element type.
    int64_t size = (toVector ? box : part).getElementTypeBitWidth() / 8;
    for (int64_t extent : payload)
      size *= extent;
    payloadBytes = std::max(payloadBytes, size);
  }
  cuts[{pipe, toVector}] = cut;
  // It must fit a slot, as the PTO run checks at each push.
  auto bytes = slotBytes.find({pipe, toVector});
  if (bytes != slotBytes.end() && payloadBytes > bytes->second) {
    // A direction's transfers on its pushing core are its pushes.
    Operation *push = toVector ? cubeEnds.back() : vectorEnds.back();
    return push->emitOpError()
           << "pushes " << payloadBytes << " bytes per lane queue into pipe "
           << pipe << ", whose slots hold " << bytes->second
           << " bytes (set by its initialize_pipe)";
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&group.getBody().front());
  Type element = tileOf(vectorEnds.front()).getElementType();
  // 950 takes an L1 tile straight into the vector core's UB; A2/A3 (and
  // every other transfer) meets in GM.
  auto arch = group->getParentOfType<ModuleOp>()->getAttrOfType<StringAttr>(
      ascendc::AscendCDialect::kArchAttrName);
  bool direct = toVector && arch && arch.getValue() == "c310" &&
                box.getMemorySpace() == pto::MemorySpace::Mat;
  Value workspace;
  if (direct)
    workspace = ascendc::LocalTensorAutoOp::create(
        builder, group.getLoc(),
        ascendc::LocalTensorType::get(group.getContext(), box.getShape(),
                                      element),
        ascendc::Position::VecIn, /*input=*/false, /*output=*/false);
  else
    workspace = ascendc::WorkspaceOp::create(
        builder, group.getLoc(),
        ascendc::GlobalTensorType::get(group.getContext(), box.getShape(),
                                       element));
  workspace.getDefiningOp()->setAttr(
      kWorkspaceAttr, builder.getI64IntegerAttr(workspaces.size()));
  workspaces[{pipe, toVector, slot}] = workspace;
  return workspace;
}

/// The lanes a transfer of `lane` reaches: its own, or every lane for
/// the cube's (a cube push fills each lane's part, a cube pop takes them
/// all).
SmallVector<unsigned, 2>
GroupMerger::lanesOf(std::optional<unsigned> lane) const {
  if (lane)
    return {*lane};
  SmallVector<unsigned, 2> all;
  for (unsigned l = 0; l < lanes; ++l)
    all.push_back(l);
  return all;
}

/// The tiles `transfer`'s pipe direction may hold in flight for `lane`:
/// its slots; inside a fused loop, those in flight at the loop's entry
/// unless none were, so that every trip uses the slots the one before did.
size_t GroupMerger::slotsFor(Operation *transfer,
                             std::optional<unsigned> lane) const {
  auto [pipe, toVector] = channelOf(transfer);
  auto declared = declaredSlots.find({pipe, toVector});
  size_t slots = declared == declaredSlots.end()
                     ? std::numeric_limits<size_t>::max()
                     : declared->second;
  if (!loopEntry)
    return slots;
  size_t atEntry = 0;
  for (unsigned l : lanesOf(lane)) {
    auto it = loopEntry->find({pipe, toVector, l});
    if (it != loopEntry->end())
      atEntry = std::max(atEntry, it->second.size());
  }
  return atEntry ? std::min(slots, atEntry) : slots;
}

/// Applies `transfer` (made as `clone`) to `flight`, or returns false when
/// it must wait: a pop for a tile not pushed yet, a push for a free slot. A
/// push takes the lowest slot free on every lane it reaches; a pop takes
/// the oldest tile of each lane, into `popped`.
bool GroupMerger::take(Operation *transfer, std::optional<unsigned> lane,
                       Flight &flight, Operation *clone,
                       SmallVectorImpl<Pushed> *popped) const {
  auto [pipe, toVector] = channelOf(transfer);
  SmallVector<unsigned, 2> reached = lanesOf(lane);
  auto queue = [&](unsigned l) -> std::deque<Pushed> & {
    return flight[{pipe, toVector, l}];
  };
  if (isPush(transfer)) {
    size_t slots = slotsFor(transfer, lane);
    for (unsigned l : reached)
      if (queue(l).size() >= slots)
        return false;
    auto used = [&](unsigned slot) {
      return llvm::any_of(reached, [&](unsigned l) {
        return llvm::any_of(
            queue(l), [&](const Pushed &tile) { return tile.slot == slot; });
      });
    };
    unsigned slot = 0;
    while (used(slot))
      ++slot;
    for (unsigned l : reached)
      queue(l).push_back({slot, clone});
    return true;
  }
  for (unsigned l : reached)
    if (queue(l).empty())
      return false;
  for (unsigned l : reached) {
    if (popped)
      popped->push_back(queue(l).front());
    queue(l).pop_front();
  }
  return true;
}

/// Whether `step` must wait for the other core: a transfer, or a branch
/// holding some, whose transfers cannot all proceed now.
bool GroupMerger::blocked(const Step &step) const {
  if (!isTransfer(step.op) && !holdsTransfers(step.op))
    return false;
  Flight flight = inFlight;
  bool waits = false;
  step.op->walk([&](Operation *inner) {
    if (isTransfer(inner) && !take(inner, step.lane, flight))
      waits = true;
  });
  return waits;
}

/// Counts the clone of a transfer in flight and gives it the workspace of
/// its slot; a pop learns the push that feeds it on each lane it takes
/// from, unless a tile in flight at the entry of the loop it is fused in
/// (whose later trips take the loop's own pushes).
LogicalResult GroupMerger::registerTransfer(Operation *original,
                                            Operation *clone,
                                            std::optional<unsigned> lane) {
  auto [pipe, toVector] = channelOf(original);
  SmallVector<Pushed, 2> popped;
  if (!take(original, lane, inFlight, clone, &popped))
    return original->emitOpError()
           << "was ordered before its pipe " << pipe
           << (isPush(original) ? " had a free slot" : " held its tile")
           << " (an internal error of the group merge)";
  TransferRecord record;
  record.lane = lane.value_or(0);
  record.lanes = lanes;
  unsigned slot = 0;
  if (isPush(original)) {
    auto &queue = inFlight[{pipe, toVector, lanesOf(lane).front()}];
    slot = queue.back().slot;
    record.id = pushIds.size();
    pushIds[clone] = record.id;
  } else {
    slot = popped.front().slot;
    auto inFlightAtLoopEntry = [&](unsigned l, Operation *push) {
      if (!loopEntry)
        return false;
      auto it = loopEntry->find({pipe, toVector, l});
      return it != loopEntry->end() &&
             llvm::any_of(it->second, [&](const Pushed &earlier) {
               return earlier.push == push;
             });
    };
    record.partners.assign(lanes, -1);
    for (auto [l, tile] : llvm::zip(lanesOf(lane), popped))
      if (!inFlightAtLoopEntry(l, tile.push))
        record.partners[l] = pushIds.lookup(tile.push);
  }
  FailureOr<Value> workspace = workspaceFor(original, slot);
  if (failed(workspace))
    return failure();
  record.workspace =
      cast<IntegerAttr>(workspace->getDefiningOp()->getAttr(kWorkspaceAttr))
          .getInt();
  record.cut = cuts[{pipe, toVector}];
  clone->setAttr(kTransferAttr, record.toAttr(clone->getContext()));
  return success();
}

/// Clones the op of `step` into the kernel.
LogicalResult GroupMerger::emit(const Step &step) {
  Operation *op = step.op;
  IRMapping &map = mapOf(step.lane);
  if (isa<pto::AicInitializePipeOp, pto::AivInitializePipeOp>(op))
    return success(); // the workspaces are the pipes' slots
  if (auto index = dyn_cast<pto::GetSubblockIdxOp>(op)) {
    map.map(index.getResult(),
            arith::ConstantIndexOp::create(builder, op->getLoc(),
                                           step.lane.value_or(0)));
    return success();
  }
  // A lane's clone names its lane, which the lowering gives its tensors.
  auto cloned = [&] {
    Operation *clone = builder.clone(*op, map);
    if (step.lane)
      clone->walk([&](Operation *inner) {
        inner->setAttr(kLaneAttr, builder.getI64IntegerAttr(*step.lane));
      });
    return clone;
  };
  if (isTransfer(op))
    return registerTransfer(op, cloned(), step.lane);
  if (!holdsTransfers(op)) {
    cloned();
    return success();
  }
  // A branch holding transfers on one core (a push made on some trips
  // only) moves as a whole; its transfers count as made.
  auto branch = dyn_cast<scf::IfOp>(op);
  bool elseHolds = branch && branch.elseBlock() &&
                   llvm::any_of(*branch.elseBlock(), [](Operation &inner) {
                     return isTransfer(&inner) || holdsTransfers(&inner);
                   });
  if (!branch || elseHolds)
    return op->emitOpError()
           << "holds cross-core transfers in a form the lowering does not "
              "fuse across the cores: a loop whose trips match the other "
              "core's loop, or a branch with transfers in its then region";
  WalkResult nested = op->walk([&](Operation *inner) {
    if (inner != op && inner->getNumRegions() && holdsTransfers(inner)) {
      inner->emitOpError() << "holds cross-core transfers inside a branch "
                              "that holds transfers, which is not lowered";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return failure();
  Operation *clone = cloned();
  SmallVector<Operation *> originals, clones;
  op->walk([&](Operation *inner) {
    if (isTransfer(inner))
      originals.push_back(inner);
  });
  clone->walk([&](Operation *inner) {
    if (isTransfer(inner))
      clones.push_back(inner);
  });
  for (auto [original, copy] : llvm::zip(originals, clones))
    if (failed(registerTransfer(original, copy, step.lane)))
      return failure();
  return success();
}

/// Whether `a` and `b` compute the same value: the same value, or results
/// of the same side-effect-free op on the same operands (a trip count each
/// core computes for itself).
bool sameValue(Value a, Value b, unsigned depth = 8) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  // The attributes but the lane a clone names.
  auto attributes = [](Operation *op) {
    NamedAttrList list(op->getAttrDictionary());
    list.erase(kLaneAttr);
    return list.getDictionary(op->getContext());
  };
  if (!depth || !x || !y || x->getName() != y->getName() ||
      attributes(x) != attributes(y) ||
      x->getNumOperands() != y->getNumOperands() || x->getNumRegions() ||
      !isMemoryEffectFree(x) ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [u, v] : llvm::zip(x->getOperands(), y->getOperands()))
    if (!sameValue(u, v, depth - 1))
      return false;
  return true;
}

/// Whether the cube's loop and the vector core's run the same trips, their
/// bounds computed alike on every lane.
bool GroupMerger::sameTrips(scf::ForOp cubeLoop, scf::ForOp vectorLoop) {
  Value bounds[3] = {cubeLoop.getLowerBound(), cubeLoop.getUpperBound(),
                     cubeLoop.getStep()};
  Value vectorBounds[3] = {vectorLoop.getLowerBound(),
                           vectorLoop.getUpperBound(), vectorLoop.getStep()};
  for (IRMapping &map : laneMaps)
    for (auto [bound, other] : llvm::zip(bounds, vectorBounds))
      if (!sameValue(cube.lookupOrDefault(bound), map.lookupOrDefault(other)))
        return false;
  return true;
}

/// Whether a trip of the two loops together pops as many tiles from each
/// pipe direction and lane as it pushes.
bool GroupMerger::balanced(scf::ForOp cubeLoop, scf::ForOp vectorLoop) const {
  std::map<Channel, int64_t> net;
  auto count = [&](scf::ForOp loop, std::optional<unsigned> lane) {
    loop.getBody()->walk([&](Operation *op) {
      if (!isTransfer(op))
        return;
      auto [pipe, toVector] = channelOf(op);
      for (unsigned l : lanesOf(lane))
        net[{pipe, toVector, l}] += isPush(op) ? 1 : -1;
    });
  };
  count(cubeLoop, std::nullopt);
  for (unsigned lane = 0; lane < lanes; ++lane)
    count(vectorLoop, lane);
  return llvm::all_of(net, [](const auto &entry) { return entry.second == 0; });
}

/// The most trips a loop holding transfers unrolls to when it cannot fuse.
constexpr uint64_t kMaxUnrolledTrips = 64;

/// Unrolls `loop`, of a member function, in place when its trip count is a
/// constant of at most kMaxUnrolledTrips: each trip's body in turn, the
/// induction variable a constant; returns the ops now in its stead.
FailureOr<SmallVector<Operation *>> unrollInPlace(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!trips || !lower || !step || trips->getZExtValue() > kMaxUnrolledTrips)
    return failure();
  OpBuilder builder(loop);
  SmallVector<Operation *> unrolled;
  SmallVector<Value> carried(loop.getInitArgs());
  for (uint64_t trip = 0; trip < trips->getZExtValue(); ++trip) {
    IRMapping map;
    Value index = arith::ConstantIndexOp::create(
        builder, loop.getLoc(), *lower + static_cast<int64_t>(trip) * *step);
    unrolled.push_back(index.getDefiningOp());
    map.map(loop.getInductionVar(), index);
    map.map(loop.getRegionIterArgs(), carried);
    for (Operation &op : loop.getBody()->without_terminator())
      unrolled.push_back(builder.clone(op, map));
    carried.clear();
    for (Value yielded : loop.getBody()->getTerminator()->getOperands())
      carried.push_back(map.lookupOrDefault(yielded));
  }
  loop.replaceAllUsesWith(carried);
  loop.erase();
  return unrolled;
}

/// The cube's loop and the vector core's (each lane's) become one loop
/// whose body merges theirs as a block is merged; it carries the values
/// of both. Each trip must leave the tiles in flight it found.
LogicalResult GroupMerger::fuseLoops(scf::ForOp cubeLoop,
                                     scf::ForOp vectorLoop) {
  if (!sameTrips(cubeLoop, vectorLoop))
    return vectorLoop.emitOpError()
           << "holds cross-core transfers and runs other trips than the "
              "cube's loop at "
           << cubeLoop.getLoc()
           << "; the two are fused trip by trip, so their bounds must be "
              "computed alike (or be constants, and the loops unroll)";
  Value bounds[3] = {cube.lookupOrDefault(cubeLoop.getLowerBound()),
                     cube.lookupOrDefault(cubeLoop.getUpperBound()),
                     cube.lookupOrDefault(cubeLoop.getStep())};
  SmallVector<Value> inits;
  for (Value init : cubeLoop.getInitArgs())
    inits.push_back(cube.lookupOrDefault(init));
  for (IRMapping &map : laneMaps)
    for (Value init : vectorLoop.getInitArgs())
      inits.push_back(map.lookupOrDefault(init));
  auto fused = scf::ForOp::create(builder, cubeLoop.getLoc(), bounds[0],
                                  bounds[1], bounds[2], inits);
  ValueRange args = fused.getRegionIterArgs();
  cube.map(cubeLoop.getInductionVar(), fused.getInductionVar());
  size_t next = 0;
  for (Value arg : cubeLoop.getRegionIterArgs())
    cube.map(arg, args[next++]);
  for (IRMapping &map : laneMaps) {
    map.map(vectorLoop.getInductionVar(), fused.getInductionVar());
    for (Value arg : vectorLoop.getRegionIterArgs())
      map.map(arg, args[next++]);
  }
  Block *body = fused.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(body);
    Flight atEntry = inFlight;
    const Flight *outerEntry = loopEntry;
    loopEntry = &atEntry;
    auto restore = llvm::make_scope_exit([&] { loopEntry = outerEntry; });
    SmallVector<Step> cubeSteps, vectorSteps;
    for (Operation &op : cubeLoop.getBody()->without_terminator())
      cubeSteps.push_back({&op, std::nullopt});
    for (Operation &op : vectorLoop.getBody()->without_terminator())
      for (unsigned lane = 0; lane < lanes; ++lane)
        vectorSteps.push_back({&op, lane});
    if (failed(mergeBlock(cubeSteps, vectorSteps)))
      return failure();
    if (!sameSlots(inFlight, atEntry))
      return cubeLoop.emitOpError()
             << "and the vector core's loop at " << vectorLoop.getLoc()
             << " leave other tiles in flight after a trip than before it "
                "(or in other slots), so the trips of the fused loop would "
                "not repeat";
    SmallVector<Value> yields;
    for (Value value : cubeLoop.getBody()->getTerminator()->getOperands())
      yields.push_back(cube.lookupOrDefault(value));
    for (IRMapping &map : laneMaps)
      for (Value value : vectorLoop.getBody()->getTerminator()->getOperands())
        yields.push_back(map.lookupOrDefault(value));
    scf::YieldOp::create(builder, cubeLoop.getLoc(), yields);
  }
  next = 0;
  for (Value result : cubeLoop.getResults())
    cube.map(result, fused.getResult(next++));
  for (IRMapping &map : laneMaps)
    for (Value result : vectorLoop.getResults())
      map.map(result, fused.getResult(next++));
  return success();
}

/// Emits the ops of both sides, each running until a transfer must wait
/// for the other core. Two loops holding transfers meet and fuse; a loop
/// that cannot (the trips differ or would not repeat, or the other core
/// waits for it outside a loop) unrolls if its trip count is a constant.
LogicalResult GroupMerger::mergeBlock(SmallVector<Step> cubeSteps,
                                      SmallVector<Step> vectorSteps) {
  size_t nextCube = 0, nextVector = 0;
  auto ready = [&](ArrayRef<Step> steps, size_t next) {
    return next < steps.size() && !isTransferLoop(steps[next].op) &&
           !blocked(steps[next]);
  };
  // Replaces the loop at `steps[next]` (once per lane) by its unrolled ops.
  auto unroll = [&](SmallVector<Step> &steps, size_t next) {
    Operation *loop = steps[next].op;
    size_t end = next;
    while (end < steps.size() && steps[end].op == loop)
      ++end;
    SmallVector<std::optional<unsigned>> sides;
    for (size_t i = next; i < end; ++i)
      sides.push_back(steps[i].lane);
    FailureOr<SmallVector<Operation *>> ops =
        unrollInPlace(cast<scf::ForOp>(loop));
    if (failed(ops))
      return false;
    SmallVector<Step> unrolled;
    for (Operation *op : *ops)
      for (std::optional<unsigned> lane : sides)
        unrolled.push_back({op, lane});
    steps.erase(steps.begin() + next, steps.begin() + end);
    steps.insert(steps.begin() + next, unrolled.begin(), unrolled.end());
    return true;
  };
  while (nextCube < cubeSteps.size() || nextVector < vectorSteps.size()) {
    bool progress = false;
    for (; ready(vectorSteps, nextVector); ++nextVector, progress = true)
      if (failed(emit(vectorSteps[nextVector])))
        return failure();
    for (; ready(cubeSteps, nextCube); ++nextCube, progress = true)
      if (failed(emit(cubeSteps[nextCube])))
        return failure();
    if (progress)
      continue;
    bool cubeAtLoop =
        nextCube < cubeSteps.size() && isTransferLoop(cubeSteps[nextCube].op);
    bool vectorAtLoop = nextVector < vectorSteps.size() &&
                        isTransferLoop(vectorSteps[nextVector].op);
    if (cubeAtLoop && vectorAtLoop) {
      auto cubeLoop = cast<scf::ForOp>(cubeSteps[nextCube].op);
      auto vectorLoop = cast<scf::ForOp>(vectorSteps[nextVector].op);
      if (!sameTrips(cubeLoop, vectorLoop) || !balanced(cubeLoop, vectorLoop)) {
        bool unrolledCube = unroll(cubeSteps, nextCube);
        bool unrolledVector = unroll(vectorSteps, nextVector);
        if (unrolledCube || unrolledVector)
          continue;
      }
      // Fused, or the reason they cannot be.
      if (failed(fuseLoops(cubeLoop, vectorLoop)))
        return failure();
      ++nextCube;
      while (nextVector < vectorSteps.size() &&
             vectorSteps[nextVector].op == vectorLoop)
        ++nextVector;
      continue;
    }
    if ((cubeAtLoop && unroll(cubeSteps, nextCube)) ||
        (vectorAtLoop && unroll(vectorSteps, nextVector)))
      continue;
    Operation *stuck = nextCube < cubeSteps.size() ? cubeSteps[nextCube].op
                                                   : vectorSteps[nextVector].op;
    if (cubeAtLoop || vectorAtLoop)
      stuck = cubeAtLoop ? cubeSteps[nextCube].op : vectorSteps[nextVector].op;
    // Only scf.for loops fuse across the cores (their trips can be
    // compared); another region op holding transfers waits as a whole.
    if (!isTransfer(stuck) && !isa<scf::ForOp>(stuck) && holdsTransfers(stuck))
      return stuck->emitOpError()
             << "holds cross-core transfers that wait for the other core, "
                "which the group merge does not interleave with it inside "
                "this op (it fuses scf.for loops with the same trips on both "
                "cores, and scf.while loops that count an index to a bound: "
                "a compare of it before each trip, an add at the end); write "
                "the loop as an scf.for";
    if (isTransferLoop(stuck))
      return stuck->emitOpError()
             << "holds cross-core transfers, but the other core reaches no "
                "loop to fuse it with before it must wait for this one (and "
                "its trip count is not a constant to unroll it by)";
    if (isPush(stuck)) {
      if (loopEntry)
        return stuck->emitOpError()
               << "pushes more tiles on pipe " << std::get<0>(channelOf(stuck))
               << " in a trip of a loop fused across the cores than the trip "
                  "may hold in flight (as many as at the loop's entry, or "
                  "the pipe's slots if none) before the other core pops";
      return stuck->emitOpError()
             << "pushes a tile on pipe " << std::get<0>(channelOf(stuck))
             << " whose slots are all full while the other core waits "
                "too: the group deadlocks";
    }
    return stuck->emitOpError()
           << "waits for a tile the other core pushes only after it pops "
              "one itself: the group deadlocks";
  }
  return success();
}

LogicalResult GroupMerger::merge() {
  Block &body = group.getBody().front();
  body.getTerminator()->erase();
  builder.setInsertionPointToEnd(&body);
  for (auto [from, to] : llvm::zip(aic.getArguments(), body.getArguments()))
    cube.map(from, to);
  laneMaps.resize(lanes);
  for (IRMapping &map : laneMaps)
    for (auto [from, to] : llvm::zip(aiv.getArguments(), body.getArguments()))
      map.map(from, to);

  // The vector side in lockstep: each op for lane 0, then lane 1.
  SmallVector<Step> cubeSteps, vectorSteps;
  for (Operation &op : aic.getFunctionBody().front().without_terminator())
    cubeSteps.push_back({&op, std::nullopt});
  for (Operation &op : aiv.getFunctionBody().front().without_terminator())
    for (unsigned lane = 0; lane < lanes; ++lane)
      vectorSteps.push_back({&op, lane});
  if (failed(mergeBlock(cubeSteps, vectorSteps)))
    return failure();
  // A group returns what its (one) lane returns: GM tensors it was passed,
  // which formCoreGroups then drops as for any mixed kernel.
  SmallVector<Value> returned;
  for (Value value :
       aiv.getFunctionBody().front().getTerminator()->getOperands())
    returned.push_back(laneMaps.front().lookupOrDefault(value));
  func::ReturnOp::create(builder, group.getLoc(), returned);
  for (StringRef name :
       {"pto.kind", "pto.split", "pto.aic", "pto.aiv", "pto.dual_aiv_dispatch"})
    group->removeAttr(name);
  return success();
}

struct MergeGroupsPass : tilekit::impl::MergeGroupsBase<MergeGroupsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::tuple<func::FuncOp, Operation *, Operation *, unsigned>>
        groups;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (pto::getFunctionKind(func) != pto::FunctionKind::Group ||
          func.isExternal())
        continue;
      std::optional<pto::GroupInfo> info = pto::resolveGroup(func);
      if (!info) {
        func.emitOpError() << "is a group whose members do not resolve";
        return signalPassFailure();
      }
      groups.push_back({func, info->aic, info->aiv, info->numLanes()});
    }
    // The members' tiles are checked before the lanes' clones share their
    // addresses.
    llvm::SetVector<Operation *> members;
    for (auto [group, aic, aiv, lanes] : groups)
      members.insert_range(ArrayRef<Operation *>{aic, aiv});
    SmallVector<func::FuncOp> memberFuncs;
    for (Operation *member : members)
      if (auto func = dyn_cast<func::FuncOp>(member))
        memberFuncs.push_back(func);
    if (failed(checkNoLiveAliases(memberFuncs)))
      return signalPassFailure();
    for (func::FuncOp member : memberFuncs)
      lowering::liftCountedWhileLoops(
          member, [](scf::WhileOp loop) { return holdsTransfers(loop); });
    for (auto [group, aic, aiv, lanes] : groups) {
      GroupMerger merger(group, cast<FunctionOpInterface>(aic),
                         cast<FunctionOpInterface>(aiv), lanes);
      if (failed(merger.merge()))
        return signalPassFailure();
      group->setAttr(kMergedGroupAttr, UnitAttr::get(&getContext()));
    }
    // The members live on in their group. Several groups may name one
    // member: each is erased once.
    for (Operation *member : members)
      if (SymbolTable::symbolKnownUseEmpty(member, module))
        member->erase();
  }
};

} // namespace

bool tilekit::holdsMergedGroups(ModuleOp module) {
  return llvm::any_of(module.getOps<func::FuncOp>(), [](func::FuncOp func) {
    return func->hasAttr(kMergedGroupAttr);
  });
}
