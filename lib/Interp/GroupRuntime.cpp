//===- GroupRuntime.cpp - Cube and vector lanes running together ----------===//

#include "GroupRuntime.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

//===----------------------------------------------------------------------===//
// Thread identity
//===----------------------------------------------------------------------===//

bool interp::isGroupCancelled(const CoreIdentity *core) {
  return core && core->runtime->isCancelled();
}

//===----------------------------------------------------------------------===//
// Splitting and merging
//===----------------------------------------------------------------------===//

/// A payload's extents, as the shared rules take them.
static pipes::Extents extentsOf(const Payload &tile) {
  pipes::Extents extents;
  extents.rank = static_cast<int>(tile.shape.size());
  for (int d = 0; d < extents.rank && d < 2; ++d) {
    extents.box[d] = tile.shape[d];
    extents.valid[d] = tile.valid[d];
  }
  return extents;
}

/// Copies the part [begin, begin + extent) along `axis` of `from`.
static Payload cut(const Payload &from, int64_t axis, int64_t begin,
                   int64_t extent, int64_t valid) {
  Payload part;
  part.shape = from.shape;
  part.shape[axis] = extent;
  part.valid = from.valid;
  part.valid[axis] = valid;
  part.data = std::make_shared<ArrayData>(from.data->kind, product(part.shape));
  int64_t cols = from.shape[1];
  int64_t partCols = part.shape[1];
  for (int64_t r = 0; r < part.shape[0]; ++r)
    for (int64_t c = 0; c < partCols; ++c) {
      int64_t sr = axis == 0 ? begin + r : r, sc = axis == 1 ? begin + c : c;
      size_t to = r * partCols + c, fromIndex = sr * cols + sc;
      if (isFloatKind(from.data->kind))
        part.data->floats[to] = from.data->floats[fromIndex];
      else
        part.data->ints[to] = from.data->ints[fromIndex];
    }
  return part;
}

FailureOr<std::pair<Payload, Payload>>
interp::splitForLanes(Operation *op, const Payload &tile, int64_t split,
                      std::optional<int64_t> laneStride) {
  pipes::LaneCut where;
  std::string error =
      pipes::cutForLanes(extentsOf(tile), split, laneStride, where);
  if (!error.empty())
    return op->emitOpError() << error;
  int64_t axis = where.axis, box = tile.shape[axis];
  return std::make_pair(
      cut(tile, axis, 0, where.at, where.lanes[0].valid[axis]),
      cut(tile, axis, where.at, box - where.at, where.lanes[1].valid[axis]));
}

FailureOr<Payload> interp::mergeLanes(Operation *op, const Payload &lane0,
                                      const Payload &lane1, int64_t split) {
  pipes::Extents extents;
  std::string error =
      pipes::mergeLanes(extentsOf(lane0), extentsOf(lane1), split, extents);
  if (error.empty() && lane0.data->kind != lane1.data->kind)
    error = "merges lane tiles of different element types";
  if (!error.empty())
    return op->emitOpError() << error;
  int64_t axis = pipes::getSplitRule(split)->axis;
  Payload merged;
  merged.shape.assign(extents.box, extents.box + 2);
  merged.valid.assign(extents.valid, extents.valid + 2);
  merged.data =
      std::make_shared<ArrayData>(lane0.data->kind, product(merged.shape));
  int64_t cols = merged.shape[1];
  for (const auto &[lane, offset] :
       {std::pair<const Payload *, int64_t>{&lane0, 0},
        std::pair<const Payload *, int64_t>{&lane1, lane0.shape[axis]}}) {
    int64_t laneCols = lane->shape[1];
    for (int64_t r = 0; r < lane->shape[0]; ++r)
      for (int64_t c = 0; c < laneCols; ++c) {
        int64_t mr = axis == 0 ? offset + r : r,
                mc = axis == 1 ? offset + c : c;
        size_t to = mr * cols + mc, from = r * laneCols + c;
        if (isFloatKind(merged.data->kind))
          merged.data->floats[to] = lane->data->floats[from];
        else
          merged.data->ints[to] = lane->data->ints[from];
      }
  }
  return merged;
}

static Payload payloadOf(const TileValue &tile) {
  Payload payload;
  payload.shape.assign(tile.shape().begin(), tile.shape().end());
  payload.valid = tile.valid;
  payload.data = tile.data;
  payload.buffer = tile.buffer;
  return payload;
}

//===----------------------------------------------------------------------===//
// Queues
//===----------------------------------------------------------------------===//

GroupRuntime::GroupRuntime(bool dualNoSplit,
                           std::chrono::milliseconds popTimeout,
                           bool unboundedPipes)
    : popTimeout(popTimeout),
      queues(pipes::Topology(dualNoSplit), unboundedPipes) {}

LogicalResult GroupRuntime::initializePipe(Operation *op, bool cubeEnd,
                                           int64_t pipe, unsigned directions,
                                           int64_t slotNum, int64_t slotSize) {
  std::optional<bool> disagreeing = queues.declareSlots(
      cubeEnd, pipe, directions, pipes::Slots{slotNum, slotSize});
  std::lock_guard<std::mutex> lock(declarationMutex);
  for (bool toAiv : {true, false})
    if (directions & (toAiv ? 1 : 2))
      declaredBy[{toAiv, pipe, cubeEnd}] = op;
  if (!disagreeing)
    return success();
  if (!disagreement)
    disagreement = {*disagreeing, pipe};
  return failure();
}

bool GroupRuntime::reportDisagreement() const {
  std::lock_guard<std::mutex> lock(declarationMutex);
  if (!disagreement)
    return false;
  auto [toAiv, pipe] = *disagreement;
  // At the aiv end, whichever end declared second: the message does not
  // depend on the threads' timing.
  InFlightDiagnostic diag = declaredBy.at({toAiv, pipe, false})->emitOpError()
                            << queues.describeDisagreement(toAiv, pipe);
  diag.attachNote(declaredBy.at({toAiv, pipe, true})->getLoc())
      << "the aic end's declaration";
  return true;
}

int64_t GroupRuntime::getSlots(bool fromCube, int64_t pipe) const {
  std::optional<pipes::Slots> limit = queues.pushLimit(fromCube, pipe);
  return limit ? limit->count : 0;
}

void GroupRuntime::threadStarted(const CoreIdentity *identity) {
  queues.started(identity,
                 identity->function +
                     (identity->isCube
                          ? std::string(" (cube)")
                          : " (lane " + std::to_string(identity->lane) + ")"));
}

LogicalResult GroupRuntime::push(const CoreIdentity *self, Operation *op,
                                 int64_t split, bool fromCube, int64_t pipe,
                                 std::vector<pipes::QueueKey> keys,
                                 std::vector<Payload> parts) {
  if (std::optional<pipes::Slots> limit = queues.pushLimit(fromCube, pipe)) {
    const Payload &first = parts.front();
    std::string error = pipes::checkSlotBytes(
        product(first.shape) * getByteSize(first.data->kind), pipe, *limit);
    if (!error.empty())
      return op->emitOpError() << error;
  }
  return success(queues.push(self, WaitSite{op, split}, fromCube, pipe, keys,
                             std::move(parts), popTimeout));
}

FailureOr<std::vector<Payload>>
GroupRuntime::pop(const CoreIdentity *self, Operation *op, int64_t split,
                  std::vector<pipes::QueueKey> keys) {
  std::vector<Payload> parts;
  if (!queues.pop(self, WaitSite{op, split}, keys, parts, popTimeout))
    return failure();
  return parts;
}

LogicalResult GroupRuntime::pushToAiv(const CoreIdentity *self, Operation *op,
                                      const TileValue &tile, int64_t split,
                                      std::optional<int64_t> laneStride,
                                      int64_t pipe) {
  Payload payload = payloadOf(tile);
  std::vector<pipes::QueueKey> keys =
      queues.getTopology().cubeQueues(/*toAiv=*/true, pipe, split);
  if (split == 0) {
    std::vector<Payload> parts{payload};
    // Dual dispatch: each lane gets its own copy.
    if (keys.size() == 2) {
      parts.push_back(payload);
      parts.back().data = std::make_shared<ArrayData>(*payload.data);
    }
    return push(self, op, split, true, pipe, keys, std::move(parts));
  }
  auto halves = splitForLanes(op, payload, split, laneStride);
  if (failed(halves))
    return failure();
  return push(self, op, split, true, pipe, keys,
              {std::move(halves->first), std::move(halves->second)});
}

FailureOr<Payload> GroupRuntime::popFromAic(const CoreIdentity *self,
                                            Operation *op, int64_t split,
                                            int64_t pipe) {
  auto parts = pop(self, op, split,
                   {queues.getTopology().laneQueue(/*toAiv=*/true, pipe, split,
                                                   self->lane)});
  if (failed(parts))
    return failure();
  return std::move(parts->front());
}

LogicalResult GroupRuntime::pushToAic(const CoreIdentity *self, Operation *op,
                                      const TileValue &tile, int64_t split,
                                      int64_t pipe) {
  return push(self, op, split, false, pipe,
              {queues.getTopology().laneQueue(/*toAiv=*/false, pipe, split,
                                              self->lane)},
              {payloadOf(tile)});
}

FailureOr<Payload> GroupRuntime::popFromAiv(const CoreIdentity *self,
                                            Operation *op, int64_t split,
                                            int64_t pipe) {
  // Split transfers and dual dispatch wait for both lanes.
  auto parts =
      pop(self, op, split,
          queues.getTopology().cubeQueues(/*toAiv=*/false, pipe, split));
  if (failed(parts))
    return failure();
  if (split == 0)
    return std::move(parts->front()); // dual: lane 0's copy stands for both
  return mergeLanes(op, (*parts)[0], (*parts)[1], split);
}
