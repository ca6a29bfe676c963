//===- Groups.cpp - Cube/vector groups to one mixed AscendC kernel --------===//
//
// A PTO group (an `aic` and an `aiv` function exchanging tiles through
// cross-core pipes) becomes one kernel, the group function, in three steps:
//
// 1. Before the conversion, `mergeGroups` builds the group's body from its
//    members: the cube's ops and the vector core's, interleaved so that
//    every pop comes after the pushes it takes and every push after the
//    pop that frees its pipe's one slot (the order the cross-core sync
//    passes reason in); loops holding transfers on both cores fuse into
//    one, merged the same way. A split group's two lanes both run on vector
//    sub-block 0 (the pipelines guard mixed kernels to it): each of the
//    aiv function's top-level ops is cloned for lane 0, then for lane 1,
//    with get_subblock_idx the lane. Each pipe direction gets a workspace
//    tensor in GM that its pushes write and its pops read.
// 2. The conversion lowers the transfers (patterns below): a cube push
//    from the accumulator is a fixpipe into the workspace, a lane's push a
//    data_copy of its half into it; pops copy from it (a lane its half).
// 3. After it, `formCoreGroups` wraps each run of one core's ops in an
//    `if_aic` / `if_aiv` group; scalar code stays outside, where both cores
//    run it. It does the same for an in-core function that mixes cube and
//    vector tile ops, inside its loops and branches too.
//
// One tile in flight per pipe direction and lane (a workspace holds one);
// a pushed tile's valid shape reaches its pops when one push feeds them.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// Tiles pushed and not yet popped, per pipe direction and lane.
using Channel = std::tuple<int64_t, bool, unsigned>;
using Flight = std::map<Channel, int64_t>;

bool sameFlight(const Flight &a, const Flight &b) {
  auto nonzero = [](const Flight &flight) {
    Flight kept;
    for (auto [channel, count] : flight)
      if (count)
        kept[channel] = count;
    return kept;
  };
  return nonzero(a) == nonzero(b);
}

/// Builds one group's kernel body.
class GroupMerger {
public:
  GroupMerger(func::FuncOp group, FunctionOpInterface aic,
              FunctionOpInterface aiv, unsigned lanes, Transfers &transfers)
      : group(group), aic(aic), aiv(aiv), lanes(lanes), transfers(transfers),
        builder(group.getContext()) {}

  LogicalResult merge();

private:
  FailureOr<Value> workspaceFor(Operation *transfer);
  SmallVector<unsigned, 2> lanesOf(std::optional<unsigned> lane) const;
  bool take(Operation *transfer, std::optional<unsigned> lane,
            Flight &flight) const;
  bool blocked(const Step &step) const;
  LogicalResult emit(const Step &step);
  LogicalResult registerTransfer(Operation *original, Operation *clone,
                                 std::optional<unsigned> lane);
  LogicalResult mergeBlock(ArrayRef<Step> cubeSteps,
                           ArrayRef<Step> vectorSteps);
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
  std::map<std::pair<int64_t, bool>, Value> workspaces;
  /// The pushes of each channel, and each pop with the lanes it takes from.
  std::map<Channel, SmallVector<Operation *, 2>> pushesOn;
  SmallVector<std::pair<Operation *, SmallVector<unsigned, 2>>> pops;
};

/// The workspace of a transfer's pipe direction: the cube's tile box, in
/// the vector side's element type; made first in the kernel.
FailureOr<Value> GroupMerger::workspaceFor(Operation *transfer) {
  auto channel = channelOf(transfer);
  auto it = workspaces.find(channel);
  if (it != workspaces.end())
    return it->second;
  Operation *cubeEnd = nullptr, *vectorEnd = nullptr;
  aic->walk([&](Operation *op) {
    if (isTransfer(op) && channelOf(op) == channel)
      cubeEnd = op;
  });
  aiv->walk([&](Operation *op) {
    if (isTransfer(op) && channelOf(op) == channel)
      vectorEnd = op;
  });
  if (!cubeEnd || !vectorEnd)
    return transfer->emitOpError()
           << "has no partner on the other core for pipe " << channel.first;
  pto::TileType box = tileOf(cubeEnd), part = tileOf(vectorEnd);
  int64_t split = splitOf(transfer);
  int axis = splitAxisOf(transfer);
  if (transfer->hasAttr("lane_stride"))
    return transfer->emitOpError()
           << "cuts its tile at a lane_stride, which is not lowered yet: "
              "the lanes' parts are the box halves";
  SmallVector<int64_t, 2> halves(box.getShape());
  if (axis >= 0 && box.getRank() == 2)
    halves[axis] /= 2;
  if (box.getRank() != 2 || ArrayRef<int64_t>(halves) != part.getShape())
    return transfer->emitOpError()
           << "moves " << part << " on each lane and " << box
           << " on the cube core with split " << split
           << ", which do not cut into each other";
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&group.getBody().front());
  Value workspace = ascendc::WorkspaceOp::create(
      builder, group.getLoc(),
      ascendc::GlobalTensorType::get(group.getContext(), box.getShape(),
                                     part.getElementType()));
  workspaces[channel] = workspace;
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

/// Applies `transfer` to `flight`, or returns false when it must wait: a
/// pop for a tile not pushed yet, a push for the pipe's one slot (its
/// workspace) to be popped.
bool GroupMerger::take(Operation *transfer, std::optional<unsigned> lane,
                       Flight &flight) const {
  auto [pipe, toVector] = channelOf(transfer);
  bool push = isPush(transfer);
  SmallVector<unsigned, 2> reached = lanesOf(lane);
  for (unsigned l : reached) {
    int64_t count = flight[{pipe, toVector, l}];
    if (push ? count >= 1 : count <= 0)
      return false;
  }
  for (unsigned l : reached)
    flight[{pipe, toVector, l}] += push ? 1 : -1;
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

/// Gives the clone of a transfer its workspace and counts it in flight.
LogicalResult GroupMerger::registerTransfer(Operation *original,
                                            Operation *clone,
                                            std::optional<unsigned> lane) {
  FailureOr<Value> workspace = workspaceFor(original);
  if (failed(workspace))
    return failure();
  transfers.sites[clone] = {*workspace, lane.value_or(0), lanes, {}};
  auto [pipe, toVector] = channelOf(original);
  if (!take(original, lane, inFlight))
    return original->emitOpError()
           << (isPush(original) ? "pushes a second tile on pipe "
                                : "pops a tile not pushed yet on pipe ")
           << pipe << ", which is not lowered yet: one workspace holds one "
           << "tile";
  SmallVector<unsigned, 2> reached = lanesOf(lane);
  if (isPush(original)) {
    for (unsigned l : reached)
      pushesOn[{pipe, toVector, l}].push_back(clone);
  } else {
    pops.push_back({clone, reached});
  }
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

/// The cube's loop and the vector core's (each lane's) become one loop
/// whose body merges theirs as a block is merged; it carries the values
/// of both. Each trip must leave the tiles in flight it found.
LogicalResult GroupMerger::fuseLoops(scf::ForOp cubeLoop,
                                     scf::ForOp vectorLoop) {
  Value bounds[3] = {cube.lookupOrDefault(cubeLoop.getLowerBound()),
                     cube.lookupOrDefault(cubeLoop.getUpperBound()),
                     cube.lookupOrDefault(cubeLoop.getStep())};
  Value vectorBounds[3] = {vectorLoop.getLowerBound(),
                           vectorLoop.getUpperBound(), vectorLoop.getStep()};
  for (IRMapping &map : laneMaps)
    for (auto [bound, other] : llvm::zip(bounds, vectorBounds))
      if (!sameValue(bound, map.lookupOrDefault(other)))
        return vectorLoop.emitOpError()
               << "holds cross-core transfers and runs other trips than the "
                  "cube's loop at "
               << cubeLoop.getLoc()
               << "; the two are fused trip by trip, so their bounds must "
                  "be computed alike";
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
    SmallVector<Step> cubeSteps, vectorSteps;
    for (Operation &op : cubeLoop.getBody()->without_terminator())
      cubeSteps.push_back({&op, std::nullopt});
    for (Operation &op : vectorLoop.getBody()->without_terminator())
      for (unsigned lane = 0; lane < lanes; ++lane)
        vectorSteps.push_back({&op, lane});
    if (failed(mergeBlock(cubeSteps, vectorSteps)))
      return failure();
    if (!sameFlight(inFlight, atEntry))
      return cubeLoop.emitOpError()
             << "and the vector core's loop at " << vectorLoop.getLoc()
             << " leave other tiles in flight after a trip than before it, "
                "so the trips of the fused loop would not repeat";
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
/// for the other core; two loops holding transfers meet and fuse.
LogicalResult GroupMerger::mergeBlock(ArrayRef<Step> cubeSteps,
                                      ArrayRef<Step> vectorSteps) {
  size_t nextCube = 0, nextVector = 0;
  auto ready = [&](ArrayRef<Step> steps, size_t next) {
    return next < steps.size() && !isTransferLoop(steps[next].op) &&
           !blocked(steps[next]);
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
      Operation *vectorLoop = vectorSteps[nextVector].op;
      if (failed(fuseLoops(cast<scf::ForOp>(cubeSteps[nextCube].op),
                           cast<scf::ForOp>(vectorLoop))))
        return failure();
      ++nextCube;
      while (nextVector < vectorSteps.size() &&
             vectorSteps[nextVector].op == vectorLoop)
        ++nextVector;
      continue;
    }
    Operation *stuck = nextCube < cubeSteps.size() ? cubeSteps[nextCube].op
                                                   : vectorSteps[nextVector].op;
    if (cubeAtLoop || vectorAtLoop)
      stuck = cubeAtLoop ? cubeSteps[nextCube].op : vectorSteps[nextVector].op;
    if (isTransferLoop(stuck))
      return stuck->emitOpError()
             << "holds cross-core transfers, but the other core reaches no "
                "loop to fuse it with before it must wait for this one";
    if (isPush(stuck))
      return stuck->emitOpError()
             << "pushes a second tile on pipe " << std::get<0>(channelOf(stuck))
             << " before the other core pops the first, which is not "
                "lowered yet: one workspace holds one tile";
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
  // Each pop's partner per lane: the one push of its channel, if one.
  for (auto &[pop, reached] : pops) {
    TransferSite &site = transfers.sites[pop];
    site.partners.assign(lanes, nullptr);
    auto [pipe, toVector] = channelOf(pop);
    for (unsigned l : reached) {
      auto &pushes = pushesOn[{pipe, toVector, l}];
      if (pushes.size() == 1)
        site.partners[l] = pushes.front();
    }
  }
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
  int64_t rows = part.getShape()[0], cols = part.getShape()[1];
  int64_t width = axis == 0 ? cols : 2 * cols;
  int64_t offset = axis == 0 ? site.lane * rows * cols : site.lane * cols;
  Value at = arith::ConstantIndexOp::create(builder, loc, offset);
  result.view = ascendc::GlobalSubIndexOp::create(
      builder, loc, site.workspace.getType(), site.workspace, at);
  if (axis == 1) {
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    result.window = {constant(rows), constant(cols)};
    result.strides = {constant(width), constant(cols)};
  }
  return result;
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
  /// cube's pop lane 0's part followed by lane 1's. None when it is known
  /// only at run time: several pushes feed the pipe, or lane 0's part is
  /// short along the axis (lane 1's then follows it at a run-time row).
  std::optional<ValidShape> poppedShape(OpBuilder &builder, Operation *op,
                                        const TransferSite &site, bool toVector,
                                        pto::TileType tile) const {
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
      if (!shape || axis < 0 || site.lanes == 1 || !extent(*shape))
        return shape;
      // This lane's part: clamp(valid - lane * part, 0, part).
      int64_t part = tile.getShape()[axis];
      Value left = arith::SubIOp::create(builder, loc, extent(*shape),
                                         constant(site.lane * part));
      left = arith::MaxSIOp::create(builder, loc, left, constant(0));
      extent(*shape) =
          arith::MinSIOp::create(builder, loc, left, constant(part));
      return shape;
    }
    std::optional<ValidShape> first = shapeOf(0);
    if (!first || axis < 0 || site.lanes == 1)
      return first;
    std::optional<ValidShape> second = shapeOf(1);
    if (!second || extent(*first))
      return std::nullopt;
    if (Value more = extent(*second))
      extent(*first) = arith::AddIOp::create(
          builder, loc, constant(tile.getShape()[axis] / 2), more);
    return first;
  }
  Transfers &transfers;
};

/// The cube pushes its accumulator: a fixpipe into the workspace.
struct PushToAivLowering : TransferPattern<pto::TPushToAivOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(pto::TPushToAivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = siteOf(op, op.getTile());
    if (failed(site))
      return failure();
    auto tile = cast<pto::TileType>(op.getTile().getType());
    if (tile.getMemorySpace() != pto::MemorySpace::Acc)
      return op.emitOpError()
             << "pushes a " << stringifyEnum(tile.getMemorySpace())
             << " tile: only the accumulator reaches GM on "
                "its way to the vector core";
    ascendc::FixpipeOp::create(rewriter, op.getLoc(), site->workspace,
                               adaptor.getTile());
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
    std::optional<ValidShape> shape =
        this->poppedShape(rewriter, op, *site, ToVector, tile);
    if (!shape)
      this->valid.unknown.insert(op.getResult());
    else if (shape->rows || shape->cols)
      this->valid.shapes[op.getResult()] = *shape;
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
  // The members live on in their group.
  for (auto [group, aic, aiv, lanes] : groups)
    for (Operation *member : {aic, aiv})
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
