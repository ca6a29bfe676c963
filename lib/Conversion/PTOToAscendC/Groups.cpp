//===- Groups.cpp - Cube/vector groups to one mixed AscendC kernel --------===//
//
// A PTO group (an `aic` and an `aiv` function exchanging tiles through
// cross-core pipes) becomes one kernel, the group function, in three steps:
//
// 1. Before the conversion, `mergeGroups` builds the group's body from its
//    members: the cube's ops and the vector core's, interleaved so that
//    every pop comes after the pushes it takes and every push finds a
//    free slot of its pipe (the order the cross-core sync passes reason
//    in); loops holding transfers on both cores fuse into one, merged the
//    same way, and a loop of a constant trip count that cannot fuse (its
//    trips would not repeat, or the other core has no loop to meet it)
//    unrolls. A split group's two lanes both run on vector
//    sub-block 0 (the pipelines guard mixed kernels to it): each of the
//    aiv function's top-level ops is cloned for lane 0, then for lane 1,
//    with get_subblock_idx the lane. Each slot of a pipe direction is a
//    workspace tensor in GM that its pushes write and its pops read, or on
//    C310 (the module's ascendc.arch) for L1 tiles sent to the lanes, a
//    mailbox in UB that the cube's L1 -> UB copy fills.
// 2. The conversion lowers the transfers (patterns below): a cube push
//    from the accumulator is a fixpipe into the workspace, one from L1 a
//    data_copy (A2/A3's L1 -> GM path), a lane's push a
//    data_copy of its half into it; pops copy from it (a lane its half).
// 3. After it, `formCoreGroups` wraps each run of one core's ops in an
//    `if_aic` / `if_aiv` group; scalar code stays outside, where both cores
//    run it. It does the same for an in-core function that mixes cube and
//    vector tile ops, inside its loops and branches too.
//
// A pipe direction holds as many tiles in flight as the pushing end's
// initialize_pipe gives it slots (any number without one, as the PTO
// runtime's unbounded queues); a push takes the lowest free slot, a pop the
// oldest tile's. Inside a fused loop a pipe holds at most the tiles in
// flight at the loop's entry (at least one), so each trip uses the slots
// the one before did. A pop takes the push it matches in FIFO order, and
// that push's valid shape, unless the push is known only at run time.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

#include <deque>
#include <limits>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

bool isTransfer(Operation *op) {
  return isa<pto::TPushToAivOp, pto::TPushToAicOp, pto::TPopFromAicOp,
             pto::TPopFromAivOp>(op);
}

/// The pipe and direction of a transfer (true: toward the vector core).
std::pair<int64_t, bool> channelOf(Operation *op) {
  auto pipe = op->getAttrOfType<IntegerAttr>("pipe_id"); // absent: pipe 0
  return {pipe ? pipe.getInt() : 0,
          isa<pto::TPushToAivOp, pto::TPopFromAicOp>(op)};
}

/// A transfer's split code (an I32 enum attribute).
int64_t splitOf(Operation *op) {
  return cast<IntegerAttr>(op->getAttr("split")).getInt();
}

/// The axis a transfer's split cuts its tile along (-1: none). The odd
/// codes cut where the even ones do, at the box half; they only promise
/// lane 0 one valid cell more, which the PTO run checks.
int splitAxisOf(Operation *op) {
  return machine::getSplitAxis(
      machine::getSplitCode(splitOf(op)).value_or(machine::SplitCode::None));
}

pto::TileType tileOf(Operation *op) {
  Value tile = isa<pto::TPushToAivOp, pto::TPushToAicOp>(op) ? op->getOperand(0)
                                                             : op->getResult(0);
  return cast<pto::TileType>(tile.getType());
}

bool isPush(Operation *op) {
  return isa<pto::TPushToAivOp, pto::TPushToAicOp>(op);
}

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
              FunctionOpInterface aiv, unsigned lanes, Transfers &transfers);

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
  Transfers &transfers;
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
                         FunctionOpInterface aiv, unsigned lanes,
                         Transfers &transfers)
    : group(group), aic(aic), aiv(aiv), lanes(lanes), transfers(transfers),
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
  TransferSite site{Value(), lane.value_or(0), lanes, {}};
  unsigned slot = 0;
  if (isPush(original)) {
    auto &queue = inFlight[{pipe, toVector, lanesOf(lane).front()}];
    slot = queue.back().slot;
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
    site.partners.assign(lanes, nullptr);
    for (auto [l, tile] : llvm::zip(lanesOf(lane), popped))
      if (!inFlightAtLoopEntry(l, tile.push))
        site.partners[l] = tile.push;
  }
  FailureOr<Value> workspace = workspaceFor(original, slot);
  if (failed(workspace))
    return failure();
  site.workspace = *workspace;
  site.cut = cuts[{pipe, toVector}];
  transfers.sites[clone] = site;
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
  if (isTransfer(op))
    return registerTransfer(op, builder.clone(*op, map), step.lane);
  if (!holdsTransfers(op)) {
    builder.clone(*op, map);
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
  Operation *clone = builder.clone(*op, map);
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
  if (!depth || !x || !y || x->getName() != y->getName() ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
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

//===----------------------------------------------------------------------===//
// The transfers, through the workspace
//===----------------------------------------------------------------------===//

/// The part of the workspace lane `site.lane` holds under `split` (all of
/// it for split 0): a view and a window (none when the part is whole rows).
struct LanePart {
  Value view;
  SmallVector<Value, 2> window, strides;
};

LanePart lanePart(OpBuilder &builder, Location loc, const TransferSite &site,
                  int axis, pto::TileType part) {
  LanePart result{site.workspace, {}, {}};
  if (axis < 0 || site.lanes == 1)
    return result;
  ArrayRef<int64_t> box = cast<ShapedType>(site.workspace.getType()).getShape();
  auto [start, extent] = site.laneRange(box[axis], part.getDimSize(axis));
  int64_t rows = axis == 0 ? extent : box[0];
  int64_t cols = axis == 1 ? extent : box[1];
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  int64_t offset = axis == 0 ? start * box[1] : start;
  if (auto mailbox =
          dyn_cast<ascendc::LocalTensorType>(site.workspace.getType()))
    // A UB mailbox: the elements from the lane's first on.
    result.view = ascendc::ReinterpretCastOp::create(
        builder, loc,
        ascendc::LocalTensorType::get(builder.getContext(),
                                      {box[0] * box[1] - offset},
                                      mailbox.getElementType()),
        site.workspace, constant(offset));
  else
    result.view = ascendc::GlobalSubIndexOp::create(
        builder, loc, site.workspace.getType(), site.workspace,
        constant(offset));
  // Whole rows of the box that fill the lane's tile move in one piece.
  if (axis == 1 || rows != part.getDimSize(0)) {
    result.window = {constant(rows), constant(cols)};
    result.strides = {constant(box[1]), constant(part.getDimSize(1))};
  }
  return result;
}

/// The cube's pop of the lanes' parts when lane 0's may be short along
/// the split `axis`: lane 1's part (at the cut in the workspace) must
/// follow lane 0's `lane0` valid cells, `merged` in all. Two windows do it
/// without a local offset: the first copies from `cut - lane0` on, which
/// puts lane 1's part at `lane0` (and workspace padding before it); the
/// second copies lane 0's part over that padding.
void mergeShortParts(OpBuilder &builder, Location loc, const TransferSite &site,
                     int axis, Value local, Value lane0, Value merged) {
  ArrayRef<int64_t> box = cast<ShapedType>(site.workspace.getType()).getShape();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value lead = arith::SubIOp::create(builder, loc, constant(site.cut), lane0);
  Value offset =
      axis == 0 ? arith::MulIOp::create(builder, loc, lead, constant(box[1]))
                : lead;
  Value shifted = ascendc::GlobalSubIndexOp::create(
      builder, loc, site.workspace.getType(), site.workspace, offset);
  auto window = [&](Value extent) -> SmallVector<Value, 2> {
    return axis == 0 ? SmallVector<Value, 2>{extent, constant(box[1])}
                     : SmallVector<Value, 2>{constant(box[0]), extent};
  };
  SmallVector<Value, 2> strides = {constant(box[1]), constant(box[1])};
  ascendc::DataCopyOp::create(builder, loc, local, shifted, Value(),
                              window(merged), strides);
  ascendc::DataCopyOp::create(builder, loc, local, site.workspace, Value(),
                              window(lane0), strides);
}

template <typename From> struct TransferPattern : TilePattern<From> {
  TransferPattern(const TypeConverter &types, MLIRContext *context,
                  ValidShapes &valid, Transfers &transfers)
      : TilePattern<From>(types, context, valid), transfers(transfers) {}

  /// Where `op` moves its tile. A push's tile (`pushed`) moves whole; its
  /// valid shape is kept for the pops it feeds.
  FailureOr<TransferSite> siteOf(Operation *op, Value pushed = {}) const {
    auto it = transfers.sites.find(op);
    if (it == transfers.sites.end())
      return op->emitOpError() << "is outside a group, where it has no "
                                  "partner to lower with";
    if (pushed)
      transfers.pushed[op] =
          this->valid.unknown.contains(pushed)
              ? std::nullopt
              : std::optional<ValidShape>(this->valid.lookup(pushed));
    return it->second;
  }

  /// The valid shape of the tile `op` pops, from the pushes of its
  /// partners as the runtime cuts and merges them (GroupRuntime.cpp): a
  /// lane's pop takes its part of the cube's tile along the split axis, the
  /// cube's pop lane 0's part followed by lane 1's. When lane 0's part may
  /// be short along the axis, lane 1's follows it at a run-time row or
  /// column: `lane0Extent` gets lane 0's extent, where the pop must move
  /// lane 1's part. None when it is known only at run time (several pushes
  /// feed the pipe).
  std::optional<ValidShape> poppedShape(OpBuilder &builder, Operation *op,
                                        const TransferSite &site, bool toVector,
                                        pto::TileType tile,
                                        Value *lane0Extent = nullptr) const {
    auto shapeOf = [&](unsigned lane) -> std::optional<ValidShape> {
      Operation *push =
          lane < site.partners.size() ? site.partners[lane] : nullptr;
      auto it = push ? transfers.pushed.find(push) : transfers.pushed.end();
      if (it == transfers.pushed.end() || !it->second)
        return std::nullopt;
      // The extents must be computed where the pop can see them.
      for (Value extent : {it->second->rows, it->second->cols})
        if (extent &&
            !extent.getParentRegion()->isAncestor(op->getParentRegion()))
          return std::nullopt;
      return it->second;
    };
    int axis = splitAxisOf(op);
    Location loc = op->getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    auto extent = [&](ValidShape &shape) -> Value & {
      return axis == 0 ? shape.rows : shape.cols;
    };
    if (toVector) {
      std::optional<ValidShape> shape = shapeOf(site.lane);
      if (!shape || axis < 0 || site.lanes == 1)
        return shape;
      // This lane's part [start, start + size) of the box:
      // clamp(valid - start, 0, size), all of it for a whole box.
      int64_t box = cast<ShapedType>(site.workspace.getType()).getShape()[axis];
      auto [start, size] = site.laneRange(box, tile.getDimSize(axis));
      if (!extent(*shape)) {
        if (size != tile.getDimSize(axis))
          extent(*shape) = constant(size);
        return shape;
      }
      Value left =
          arith::SubIOp::create(builder, loc, extent(*shape), constant(start));
      left = arith::MaxSIOp::create(builder, loc, left, constant(0));
      extent(*shape) =
          arith::MinSIOp::create(builder, loc, left, constant(size));
      return shape;
    }
    std::optional<ValidShape> first = shapeOf(0);
    if (!first || axis < 0 || site.lanes == 1)
      return first;
    std::optional<ValidShape> second = shapeOf(1);
    if (!second)
      return std::nullopt;
    Value half = constant(tile.getShape()[axis] / 2);
    Value more = extent(*second) ? extent(*second) : half;
    if (Value short0 = extent(*first)) {
      if (!lane0Extent)
        return std::nullopt;
      *lane0Extent = short0;
      extent(*first) = arith::AddIOp::create(builder, loc, short0, more);
    } else if (extent(*second)) {
      extent(*first) = arith::AddIOp::create(builder, loc, half, more);
    }
    return first;
  }
  Transfers &transfers;
};

/// The cube pushes its accumulator (a fixpipe into the workspace) or an
/// L1 tile (a data_copy into it: A2/A3's L1 -> GM path, which C310 lacks
/// and its pipeline refuses).
struct PushToAivLowering : TransferPattern<pto::TPushToAivOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(pto::TPushToAivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = siteOf(op, op.getTile());
    if (failed(site))
      return failure();
    auto tile = cast<pto::TileType>(op.getTile().getType());
    switch (tile.getMemorySpace()) {
    case pto::MemorySpace::Acc:
      ascendc::FixpipeOp::create(rewriter, op.getLoc(), site->workspace,
                                 adaptor.getTile());
      break;
    case pto::MemorySpace::Mat:
      ascendc::DataCopyOp::create(rewriter, op.getLoc(), site->workspace,
                                  adaptor.getTile(), Value(), ValueRange(),
                                  ValueRange());
      break;
    default:
      return op.emitOpError()
             << "pushes a " << stringifyEnum(tile.getMemorySpace())
             << " tile: only the accumulator and L1 reach GM on "
                "their way to the vector core";
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A lane pushes its part: a data_copy into its part of the workspace.
struct PushToAicLowering : TransferPattern<pto::TPushToAicOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(pto::TPushToAicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = siteOf(op, op.getTile());
    if (failed(site))
      return failure();
    // Unsplit, each lane (of a dual dispatch) pushes the whole tile and
    // the cube keeps lane 0's: the other lanes' pushes write nothing.
    int axis = splitAxisOf(op);
    if (axis < 0 && site->lane != 0) {
      rewriter.eraseOp(op);
      return success();
    }
    LanePart part = lanePart(rewriter, op.getLoc(), *site, axis,
                             cast<pto::TileType>(op.getTile().getType()));
    ascendc::DataCopyOp::create(
        rewriter, op.getLoc(), part.view, adaptor.getTile(), Value(),
        part.window,
        part.strides.empty() ? ValueRange()
                             : ValueRange{part.strides[1], part.strides[0]});
    rewriter.eraseOp(op);
    return success();
  }
};

/// A pop copies from the workspace into a fresh tile: a lane its part
/// (VECIN), the cube the whole box (L1).
template <typename From, bool ToVector>
struct PopLowering : TransferPattern<From> {
  using TransferPattern<From>::TransferPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = this->siteOf(op);
    if (failed(site))
      return failure();
    Location loc = op.getLoc();
    auto tile = cast<pto::TileType>(op.getType());
    Value local = createLocal(
        rewriter, loc, *this->getTypeConverter(), op.getResult(),
        ToVector ? ascendc::Position::VecIn : positionFor(op.getResult()));
    Value lane0Extent;
    std::optional<ValidShape> shape = this->poppedShape(
        rewriter, op, *site, ToVector, tile, ToVector ? nullptr : &lane0Extent);
    if (!shape)
      this->valid.unknown.insert(op.getResult());
    else if (shape->rows || shape->cols)
      this->valid.shapes[op.getResult()] = *shape;
    if (lane0Extent) {
      mergeShortParts(rewriter, loc, *site, splitAxisOf(op), local, lane0Extent,
                      splitAxisOf(op) == 0 ? shape->rows : shape->cols);
      rewriter.replaceOp(op, local);
      return success();
    }
    LanePart part = ToVector
                        ? lanePart(rewriter, loc, *site, splitAxisOf(op), tile)
                        : LanePart{site->workspace, {}, {}};
    ascendc::DataCopyOp::create(rewriter, loc, local, part.view, Value(),
                                part.window, part.strides);
    rewriter.replaceOp(op, local);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Core groups
//===----------------------------------------------------------------------===//

enum class Core { None, Cube, Vector, Both };

Core join(Core a, Core b) {
  if (a == Core::None || a == b)
    return b;
  return b == Core::None ? a : Core::Both;
}

/// The core an op of the merged kernel runs on: the one whose buffers its
/// local tensors are in (GM alone, scalars and placeholders: none).
Core coreOf(Operation *op) {
  if (isa<ascendc::LocalTensorAutoOp, ascendc::LocalTensorOp,
          ascendc::ReinterpretCastOp>(op))
    return Core::None;
  auto coreOfBuffer = [](Value tensor) {
    std::optional<ascendc::Position> position = ascendc::getPosition(tensor);
    if (!position)
      return Core::None;
    return ascendc::getBuffer(*position) == ascendc::Buffer::UB ? Core::Vector
                                                                : Core::Cube;
  };
  // A transfer runs on the core that holds its source (the fixpipe moving
  // L0C into UB is the cube's, a UB to L1 copy the vector core's), or its
  // destination when the source is GM.
  if (isa<ascendc::FixpipeOp>(op))
    return Core::Cube;
  if (auto copy = dyn_cast<ascendc::DataCopyOp>(op)) {
    Core from = coreOfBuffer(copy.getSrc());
    return from != Core::None ? from : coreOfBuffer(copy.getDst());
  }
  Core core = Core::None;
  for (Value operand : op->getOperands()) {
    core = join(core, coreOfBuffer(operand));
  }
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) { core = join(core, coreOf(inner)); });
  return core;
}

} // namespace

LogicalResult lowering::mergeGroups(ModuleOp module, Transfers &transfers) {
  SmallVector<std::tuple<func::FuncOp, Operation *, Operation *, unsigned>>
      groups;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (pto::getFunctionKind(func) != pto::FunctionKind::Group ||
        func.isExternal())
      continue;
    std::optional<pto::GroupInfo> info = pto::resolveGroup(func);
    if (!info)
      return func.emitOpError() << "is a group whose members do not resolve";
    groups.push_back({func, info->aic, info->aiv, info->numLanes()});
  }
  for (auto [group, aic, aiv, lanes] : groups) {
    GroupMerger merger(group, cast<FunctionOpInterface>(aic),
                       cast<FunctionOpInterface>(aiv), lanes, transfers);
    if (failed(merger.merge()))
      return failure();
  }
  // The members live on in their group. Several groups may name one member:
  // each is erased once.
  llvm::SetVector<Operation *> members;
  for (auto [group, aic, aiv, lanes] : groups)
    members.insert_range(ArrayRef<Operation *>{aic, aiv});
  for (Operation *member : members)
    if (SymbolTable::symbolKnownUseEmpty(member, module))
      member->erase();
  return success();
}

/// Puts each run of one core's ops of `block` in a group. Scalar code,
/// placeholders and GM views depend on nothing a group defines (groups
/// have no results): each moves before the first group since the last
/// control-flow op holding both cores' ops (which stays in place, between
/// groups, and is partitioned inside), so the groups stay long.
static void partition(Block &block) {
  Operation *end = block.getTerminator();
  Operation *open = nullptr, *first = nullptr;
  Core openCore = Core::None;
  // The ops move to the end as they are placed: walk a snapshot.
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *each : ops) {
    Operation &op = *each;
    Core core = coreOf(&op);
    if (core == Core::None) {
      op.moveBefore(first ? first : end);
      continue;
    }
    if (core == Core::Both) {
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          partition(inner);
      op.moveBefore(end);
      open = first = nullptr;
      continue;
    }
    if (!open || openCore != core) {
      OpBuilder builder(end);
      ascendc::createGroup(builder, op.getLoc(), core == Core::Cube,
                           [](OpBuilder &) {});
      open = end->getPrevNode();
      openCore = core;
      if (!first)
        first = open;
    }
    op.moveBefore(open->getRegion(0).front().getTerminator());
  }
}

/// A mixed kernel returns nothing on the machine (its sub-block 1 returns
/// early). The GM tensors a PTO kernel returns are buffers it was passed,
/// so each result goes and its callers use the argument instead.
static LogicalResult dropReturnedBuffers(func::FuncOp kernel, ModuleOp module) {
  if (kernel.getNumResults() == 0)
    return success();
  auto ret = cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  SmallVector<unsigned> passedAs;
  for (Value result : ret.getOperands()) {
    auto arg = dyn_cast<BlockArgument>(result);
    if (!arg || arg.getOwner() != &kernel.getBody().front())
      return kernel.emitOpError()
             << "mixes the cube and the vector unit and returns a value that "
                "is not one of its GM tensor arguments; a mixed kernel "
                "returns nothing";
    passedAs.push_back(arg.getArgNumber());
  }
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(kernel, module);
  if (!uses)
    return kernel.emitOpError() << "has uses the lowering cannot follow";
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call)
      return use.getUser()->emitOpError()
             << "refers to mixed kernel @" << kernel.getName()
             << " other than by a call";
    for (auto [index, arg] : llvm::enumerate(passedAs))
      call.getResult(index).replaceAllUsesWith(call.getOperand(arg));
    OpBuilder builder(call);
    func::CallOp::create(builder, call.getLoc(), kernel.getName(), TypeRange(),
                         call.getOperands());
    call.erase();
  }
  OpBuilder builder(ret);
  func::ReturnOp::create(builder, ret.getLoc());
  ret.erase();
  kernel.setFunctionType(FunctionType::get(
      kernel.getContext(), kernel.getArgumentTypes(), TypeRange()));
  return success();
}

LogicalResult lowering::formCoreGroups(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    // A kernel whose tiles live on both cores (a merged group, or an
    // in-core function mixing cube and vector tile ops) splits into groups;
    // a one-core kernel and host code stay as they are.
    if (func.isExternal() ||
        func->hasAttr(ascendc::AscendCDialect::kHostAttrName) ||
        coreOf(func) != Core::Both)
      continue;
    if (failed(dropReturnedBuffers(func, module)))
      return failure();
    partition(func.getBody().front());
  }
  return success();
}

void lowering::populateCrossCorePatterns(PTOToAscendCTypes &types,
                                         RewritePatternSet &patterns,
                                         ValidShapes &valid,
                                         Transfers &transfers) {
  patterns.add<PushToAivLowering, PushToAicLowering,
               PopLowering<pto::TPopFromAicOp, true>,
               PopLowering<pto::TPopFromAivOp, false>>(
      types, patterns.getContext(), valid, transfers);
}
