//===- GroupRuntime.cpp - Cube and vector lanes running together ----------===//

#include "GroupRuntime.h"

#include "tilekit/Machine/Machine.h"

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

// Split codes are verified, so each names one of the machine's.
static machine::SplitCode codeOf(int64_t split) {
  return machine::getSplitCode(split).value_or(machine::SplitCode::None);
}
static int64_t axisOf(int64_t split) {
  return machine::getSplitAxis(codeOf(split));
}
static StringRef splitName(int64_t split) {
  return machine::getName(codeOf(split));
}

static std::string formatLanes(const Payload &lane0, const Payload &lane1) {
  return "lane 0's valid shape " + formatShape(lane0.valid) + " and lane 1's " +
         formatShape(lane1.valid);
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
  int64_t axis = axisOf(split);
  if (tile.shape.size() != 2)
    return op->emitOpError() << "splits 2-D tiles between lanes";
  // The cut is at the box half (the verifier checks the box is even), or at
  // lane_stride for an odd code; each lane keeps the part of the valid
  // region that falls in its box, which may be empty.
  int64_t box = tile.shape[axis], valid = tile.valid[axis];
  int64_t at = laneStride ? *laneStride : box / 2;
  Payload lane0 = cut(tile, axis, 0, at, std::min(valid, at));
  Payload lane1 =
      cut(tile, axis, at, box - at, std::max<int64_t>(0, valid - at));
  // The odd codes exist for an odd valid extent that lane 0 holds one cell
  // more of.
  if (machine::isOddSplit(codeOf(split)) &&
      lane0.valid[axis] != lane1.valid[axis] + 1)
    return op->emitOpError()
           << "split code " << split << " (" << splitName(split)
           << ") needs lane 0 to hold exactly one valid cell more than lane 1 "
              "along dim "
           << axis << ", but the valid extent " << valid << " cut at " << at
           << (laneStride ? " (lane_stride)" : " (the box half)")
           << " gives lane 0 " << lane0.valid[axis] << " and lane 1 "
           << lane1.valid[axis];
  return std::make_pair(std::move(lane0), std::move(lane1));
}

FailureOr<Payload> interp::mergeLanes(Operation *op, const Payload &lane0,
                                      const Payload &lane1, int64_t split) {
  int64_t axis = axisOf(split);
  int64_t other = 1 - axis;
  if (lane0.shape.size() != 2 || lane1.shape.size() != 2 ||
      lane0.shape[other] != lane1.shape[other] ||
      lane0.data->kind != lane1.data->kind)
    return op->emitOpError() << "merges lane tiles that do not line up along "
                                "dim "
                             << axis;
  // The merged valid region is lane 0's followed by lane 1's; it is one
  // rectangle only when lane 0 is full along the axis and both lanes agree
  // across it (or lane 1 holds nothing).
  if (lane1.valid[axis] > 0 && lane0.valid[axis] != lane0.shape[axis])
    return op->emitOpError()
           << "merges " << formatLanes(lane0, lane1) << " along dim " << axis
           << ": lane 1 holds valid data but lane 0 is not full (box "
           << lane0.shape[axis]
           << "), so the merged valid region would not be contiguous";
  if (lane1.valid[axis] > 0 && lane0.valid[other] != lane1.valid[other])
    return op->emitOpError()
           << "merges " << formatLanes(lane0, lane1) << " along dim " << axis
           << ": their valid extents along dim " << other
           << " differ, so the merged valid region would not be a rectangle";
  Payload merged;
  merged.shape = lane0.shape;
  merged.shape[axis] += lane1.shape[axis];
  merged.valid = lane0.valid;
  merged.valid[axis] += lane1.valid[axis];
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
    : dualNoSplit(dualNoSplit), popTimeout(popTimeout),
      unboundedPipes(unboundedPipes) {}

LogicalResult GroupRuntime::initializePipe(Operation *op, bool cubeEnd,
                                           int64_t pipe, unsigned directions,
                                           int64_t slotNum, int64_t slotSize) {
  std::lock_guard<std::mutex> lock(mutex);
  for (bool toAiv : {true, false}) {
    if (!(directions & (toAiv ? 1 : 2)))
      continue;
    slots[{toAiv, pipe, cubeEnd}] = {slotNum, slotSize};
    declaredBy[{toAiv, pipe, cubeEnd}] = op;
    auto other = slots.find({toAiv, pipe, !cubeEnd});
    if (other == slots.end() ||
        other->second == std::make_pair(slotNum, slotSize))
      continue;
    if (!disagreement)
      disagreement = {toAiv, pipe};
    return failure();
  }
  return success();
}

bool GroupRuntime::reportDisagreement() const {
  std::lock_guard<std::mutex> lock(mutex);
  if (!disagreement)
    return false;
  auto [toAiv, pipe] = *disagreement;
  auto [cubeNum, cubeSize] = slots.at({toAiv, pipe, true});
  auto [vecNum, vecSize] = slots.at({toAiv, pipe, false});
  // At the aiv end, whichever end declared second: the message does not
  // depend on the threads' timing.
  InFlightDiagnostic diag =
      declaredBy.at({toAiv, pipe, false})->emitOpError()
      << "sets up pipe " << pipe << (toAiv ? " (to_aiv)" : " (to_aic)")
      << " with slots the other end does not agree on: the aic end "
      << "declares " << cubeNum << " x " << cubeSize << " bytes, the aiv end "
      << vecNum << " x " << vecSize;
  diag.attachNote(declaredBy.at({toAiv, pipe, true})->getLoc())
      << "the aic end's declaration";
  return true;
}

std::optional<std::pair<int64_t, int64_t>>
GroupRuntime::pushingEndSlots(bool fromCube, int64_t pipe) const {
  if (unboundedPipes)
    return std::nullopt;
  // The pushing end's own declaration: it came earlier in the pushing
  // thread's program, so the answer does not depend on thread timing.
  auto it = slots.find({fromCube, pipe, fromCube});
  if (it == slots.end())
    return std::nullopt;
  return it->second;
}

int64_t GroupRuntime::getSlots(bool fromCube, int64_t pipe) const {
  std::lock_guard<std::mutex> lock(mutex);
  std::optional<std::pair<int64_t, int64_t>> declared =
      pushingEndSlots(fromCube, pipe);
  return declared ? declared->first : 0;
}

unsigned GroupRuntime::getLaneMask(bool cube, int64_t split,
                                   unsigned lane) const {
  if (split == 0 && !dualNoSplit)
    return 1;
  return cube ? 3 : 1u << lane;
}

LogicalResult GroupRuntime::waitForSlots(std::unique_lock<std::mutex> &lock,
                                         const CoreIdentity *self,
                                         Operation *op, int64_t split,
                                         bool fromCube, int64_t pipe,
                                         ArrayRef<QueueKey> keys,
                                         const Payload &payload) {
  std::optional<std::pair<int64_t, int64_t>> declared =
      pushingEndSlots(fromCube, pipe);
  if (!declared)
    return success();
  auto [count, size] = *declared;
  int64_t bytes = product(payload.shape) * getByteSize(payload.data->kind);
  if (bytes > size)
    return op->emitOpError()
           << "pushes " << bytes << " bytes per lane queue into pipe " << pipe
           << ", whose slots hold " << size
           << " bytes (set by its initialize_pipe)";
  SmallVector<QueueKey, 2> waitOn(keys.begin(), keys.end());
  return waitUntil(lock, self, op, split, [this, waitOn, count] {
    return llvm::all_of(waitOn, [&](const QueueKey &key) {
      return static_cast<int64_t>(queue(key).size()) < count;
    });
  });
}

std::string GroupRuntime::describe(const QueueKey &key) const {
  std::string text = key.toAiv ? "to_aiv" : "to_aic";
  text += "[pipe " + std::to_string(key.pipe);
  if (key.split > 0)
    text += ", split " + std::to_string(key.split);
  else if (key.split == 0)
    text += ", dual";
  if (key.lane >= 0)
    text += ", lane " + std::to_string(key.lane);
  return text + "]";
}

void GroupRuntime::push(const QueueKey &key, Payload payload) {
  queue(key).push_back(std::move(payload));
  changed.notify_all();
}

void GroupRuntime::threadStarted(const CoreIdentity *identity) {
  std::lock_guard<std::mutex> lock(mutex);
  alive[identity] =
      identity->function +
      (identity->isCube ? std::string(" (cube)")
                        : " (lane " + std::to_string(identity->lane) + ")");
}

void GroupRuntime::threadFinished(const CoreIdentity *identity) {
  std::lock_guard<std::mutex> lock(mutex);
  alive.erase(identity);
  // The finished thread can no longer push: the others may now be stuck.
  detectDeadlock();
  changed.notify_all();
}

void GroupRuntime::fail(const std::string &who) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!firstFailure)
    firstFailure = who;
  cancelled = true;
  changed.notify_all();
}

void GroupRuntime::timeOut(std::chrono::milliseconds limit) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!report)
    report = snapshot("timeout: the group ran longer than " +
                      std::to_string(limit.count()) + " ms");
  cancelled = true;
  changed.notify_all();
}

bool GroupRuntime::waitForThreads(
    std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex);
  return changed.wait_until(lock, deadline, [&] { return alive.empty(); });
}

std::optional<std::string> GroupRuntime::getFailure() const {
  std::lock_guard<std::mutex> lock(mutex);
  return firstFailure;
}

std::optional<GroupRuntime::Report> GroupRuntime::getReport() const {
  std::lock_guard<std::mutex> lock(mutex);
  return report;
}

GroupRuntime::Report GroupRuntime::snapshot(const std::string &reason) const {
  Report result;
  result.reason = reason;
  for (const auto &[identity, entry] : blocked)
    result.waiters.push_back(entry.waiter);
  for (const auto &[key, items] : queues)
    result.queueDepths.emplace_back(describe(key), items.size());
  for (const auto &[identity, name] : alive)
    if (!blocked.count(identity))
      result.running.push_back(name);
  return result;
}

void GroupRuntime::detectDeadlock() {
  if (cancelled || alive.empty() || blocked.size() < alive.size())
    return;
  for (const auto &[identity, entry] : blocked)
    if (entry.ready())
      return; // woken but not yet running
  report = snapshot("deadlock: every live thread waits for a tile that no "
                    "live thread can send, or for a slot that no live "
                    "thread can free");
  cancelled = true;
  changed.notify_all();
}

LogicalResult GroupRuntime::waitUntil(std::unique_lock<std::mutex> &lock,
                                      const CoreIdentity *self, Operation *op,
                                      int64_t split,
                                      std::function<bool()> ready) {
  if (ready())
    return success();
  std::string who = alive.count(self) ? alive[self] : "?";
  blocked[self] = Blocked{Waiter{who, op, split}, ready};
  detectDeadlock();
  auto deadline = std::chrono::steady_clock::now() + popTimeout;
  bool done = changed.wait_until(lock, deadline,
                                 [&] { return cancelled.load() || ready(); });
  if (!done && !cancelled) {
    report = snapshot("timeout: a pop waited longer than " +
                      std::to_string(popTimeout.count()) + " ms");
    cancelled = true;
    changed.notify_all();
  }
  blocked.erase(self);
  if (cancelled)
    return failure();
  return success();
}

LogicalResult GroupRuntime::pushToAiv(const CoreIdentity *self, Operation *op,
                                      const TileValue &tile, int64_t split,
                                      std::optional<int64_t> laneStride,
                                      int64_t pipe) {
  Payload payload = payloadOf(tile);
  std::unique_lock<std::mutex> lock(mutex);
  if (split == 0) {
    if (!dualNoSplit) {
      QueueKey key{true, pipe, -1, -1};
      if (failed(waitForSlots(lock, self, op, split, true, pipe, key, payload)))
        return failure();
      push(key, std::move(payload));
      return success();
    }
    // Dual dispatch: each lane gets its own copy.
    QueueKey key0{true, pipe, 0, 0}, key1{true, pipe, 0, 1};
    if (failed(waitForSlots(lock, self, op, split, true, pipe, {key0, key1},
                            payload)))
      return failure();
    Payload copy = payload;
    copy.data = std::make_shared<ArrayData>(*payload.data);
    push(key0, std::move(payload));
    push(key1, std::move(copy));
    return success();
  }
  auto halves = splitForLanes(op, payload, split, laneStride);
  if (failed(halves))
    return failure();
  QueueKey key0{true, pipe, split, 0}, key1{true, pipe, split, 1};
  if (failed(waitForSlots(lock, self, op, split, true, pipe, {key0, key1},
                          halves->first)))
    return failure();
  push(key0, std::move(halves->first));
  push(key1, std::move(halves->second));
  return success();
}

FailureOr<Payload> GroupRuntime::popFromAic(const CoreIdentity *self,
                                            Operation *op, int64_t split,
                                            int64_t pipe) {
  unsigned lane = self->lane;
  QueueKey key = split == 0 && !dualNoSplit
                     ? QueueKey{true, pipe, -1, -1}
                     : QueueKey{true, pipe, split, static_cast<int>(lane)};
  std::unique_lock<std::mutex> lock(mutex);
  if (failed(waitUntil(lock, self, op, split,
                       [this, key] { return !queue(key).empty(); })))
    return failure();
  Payload payload = std::move(queue(key).front());
  queue(key).pop_front();
  // A push may be waiting for the slot this pop freed.
  changed.notify_all();
  return payload;
}

LogicalResult GroupRuntime::pushToAic(const CoreIdentity *self, Operation *op,
                                      const TileValue &tile, int64_t split,
                                      int64_t pipe) {
  Payload payload = payloadOf(tile);
  std::unique_lock<std::mutex> lock(mutex);
  QueueKey key =
      split == 0 && !dualNoSplit
          ? QueueKey{false, pipe, -1, -1}
          : QueueKey{false, pipe, split, static_cast<int>(self->lane)};
  if (failed(waitForSlots(lock, self, op, split, false, pipe, key, payload)))
    return failure();
  push(key, std::move(payload));
  return success();
}

FailureOr<Payload> GroupRuntime::popFromAiv(const CoreIdentity *self,
                                            Operation *op, int64_t split,
                                            int64_t pipe) {
  std::unique_lock<std::mutex> lock(mutex);
  if (split == 0 && !dualNoSplit) {
    QueueKey key{false, pipe, -1, -1};
    if (failed(waitUntil(lock, self, op, split,
                         [this, key] { return !queue(key).empty(); })))
      return failure();
    Payload payload = std::move(queue(key).front());
    queue(key).pop_front();
    changed.notify_all();
    return payload;
  }
  // Split transfers and dual dispatch wait for both lanes.
  QueueKey key0{false, pipe, split, 0}, key1{false, pipe, split, 1};
  if (failed(waitUntil(lock, self, op, split, [this, key0, key1] {
        return !queue(key0).empty() && !queue(key1).empty();
      })))
    return failure();
  Payload lane0 = std::move(queue(key0).front());
  Payload lane1 = std::move(queue(key1).front());
  queue(key0).pop_front();
  queue(key1).pop_front();
  changed.notify_all();
  if (split == 0)
    return lane0; // dual no-split: lane 0's copy stands for both
  lock.unlock();
  return mergeLanes(op, lane0, lane1, split);
}
