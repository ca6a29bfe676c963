//===- CrossCorePipes.h - The cross-core pipes' rules, for every runner -*-===//
//
// A group launch's cube core and vector lanes exchange tiles through
// cross-core pipes (docs/guide.md, "Cross-core pipes"). Two runners run
// them: the executor (lib/Interp/GroupRuntime.cpp), with tile data, and
// the compiled trace producers (tilekit/Trace/TraceProducer.h), without.
// Both take every rule from here, so that they cannot drift apart:
//
//  * which lane queues a transfer fills or drains (Topology);
//  * where a split cuts a tile, and which lane parts merge back into one
//    rectangle (cutForLanes, mergeLanes);
//  * the slots each end declares, and that both ends agree (SlotTable);
//  * a push waiting for a free slot, a pop for its data, and a deadlock
//    when every live core waits for what no live core can give
//    (PipeQueues).
//
// Header-only, C++17 and the standard library alone (with Machine.def),
// because a compiled producer builds with nothing but a compiler.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_MACHINE_CROSSCOREPIPES_H
#define TILEKIT_MACHINE_CROSSCOREPIPES_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tilekit::pipes {

//===----------------------------------------------------------------------===//
// Queues
//===----------------------------------------------------------------------===//

/// One queue of a pipe: its direction, pipe id, and channel.
struct QueueKey {
  bool toAiv;
  int64_t pipe;
  /// -1 for the one queue both ends share, else the split code (0 for a
  /// whole tile copied to each lane under dual dispatch).
  int64_t split;
  /// -1 for the shared queue, else the vector lane.
  int lane;

  bool operator<(const QueueKey &other) const {
    return std::tie(toAiv, pipe, split, lane) <
           std::tie(other.toAiv, other.pipe, other.split, other.lane);
  }
  /// `to_aiv[pipe 0, split 1, lane 0]`, for reports.
  std::string describe() const {
    std::string text = toAiv ? "to_aiv" : "to_aic";
    text += "[pipe " + std::to_string(pipe);
    if (split > 0)
      text += ", split " + std::to_string(split);
    else if (split == 0)
      text += ", dual";
    if (lane >= 0)
      text += ", lane " + std::to_string(lane);
    return text + "]";
  }
};

/// Which queues a transfer uses. An unsplit transfer goes through one queue
/// both ends share, except under dual dispatch (a 1:2 group whose lanes each
/// get the whole tile), where each lane has its own; a split transfer always
/// uses one queue per lane.
class Topology {
public:
  explicit Topology(bool dualNoSplit) : dualNoSplit(dualNoSplit) {}

  bool sharesQueue(int64_t split) const { return split == 0 && !dualNoSplit; }

  /// The lane queues a transfer fills or drains, a bit per lane (the shared
  /// queue is bit 0): what a push or pop record names.
  unsigned laneMask(bool cube, int64_t split, unsigned lane) const {
    if (sharesQueue(split))
      return 1;
    return cube ? 3 : 1u << lane;
  }
  /// The queues the cube core fills (`toAiv`) or drains: the shared one, or
  /// lane 0's and lane 1's.
  std::vector<QueueKey> cubeQueues(bool toAiv, int64_t pipe,
                                   int64_t split) const {
    if (sharesQueue(split))
      return {QueueKey{toAiv, pipe, -1, -1}};
    return {QueueKey{toAiv, pipe, split, 0}, QueueKey{toAiv, pipe, split, 1}};
  }
  /// The queue vector lane `lane` drains (`toAiv`) or fills.
  QueueKey laneQueue(bool toAiv, int64_t pipe, int64_t split,
                     unsigned lane) const {
    if (sharesQueue(split))
      return QueueKey{toAiv, pipe, -1, -1};
    return QueueKey{toAiv, pipe, split, static_cast<int>(lane)};
  }

private:
  bool dualNoSplit;
};

//===----------------------------------------------------------------------===//
// Splitting and merging
//===----------------------------------------------------------------------===//

/// A split code's cut, from the machine description.
struct SplitRule {
  const char *name;
  /// The dimension cut (-1: none).
  int axis;
  /// Whether lane 0 holds one valid cell more than lane 1.
  bool odd;
};

inline std::optional<SplitRule> getSplitRule(int64_t code) {
  switch (code) {
#define TILEKIT_SPLIT(E, CODE, NAME, AXIS, ODD)                                \
  case CODE:                                                                   \
    return SplitRule{NAME, AXIS, ODD};
#include "tilekit/Machine/Machine.def"
  default:
    return std::nullopt;
  }
}

/// The extents of a tile crossing between cores: its box and the valid
/// region in it (2-D; a rank-1 tile uses dimension 0).
struct Extents {
  int rank = 2;
  int64_t box[2] = {1, 1};
  int64_t valid[2] = {1, 1};
};

inline std::string formatValid(const Extents &extents) {
  std::string text = "[";
  for (int d = 0; d < extents.rank && d < 2; ++d)
    text += (d ? ", " : "") + std::to_string(extents.valid[d]);
  return text + "]";
}

/// Where a split transfer cuts its tile, and each lane's part.
struct LaneCut {
  int axis;
  int64_t at;
  Extents lanes[2];
};

/// Cuts `tile` for split code `code` (1-4): at the box half, or at
/// `laneStride`; each lane keeps the part of the valid region in its box,
/// possibly none. The odd codes exist for an odd valid extent that lane 0
/// holds one cell more of; anything else is an error. Returns the message
/// (without the op), empty when the cut is fine.
inline std::string cutForLanes(const Extents &tile, int64_t code,
                               std::optional<int64_t> laneStride,
                               LaneCut &cut) {
  std::optional<SplitRule> rule = getSplitRule(code);
  if (!rule || rule->axis < 0)
    return "splits with split code " + std::to_string(code) +
           ", which cuts nothing";
  if (tile.rank != 2)
    return "splits 2-D tiles between lanes";
  int axis = rule->axis;
  int64_t box = tile.box[axis], valid = tile.valid[axis];
  int64_t at = laneStride ? *laneStride : box / 2;
  cut.axis = axis;
  cut.at = at;
  for (unsigned lane : {0u, 1u}) {
    Extents &part = cut.lanes[lane];
    part = tile;
    part.box[axis] = lane ? box - at : at;
    part.valid[axis] =
        lane ? std::max<int64_t>(0, valid - at) : std::min(valid, at);
  }
  int64_t valid0 = cut.lanes[0].valid[axis], valid1 = cut.lanes[1].valid[axis];
  if (rule->odd && valid0 != valid1 + 1)
    return "split code " + std::to_string(code) + " (" + rule->name +
           ") needs lane 0 to hold exactly one valid cell more than lane 1 "
           "along dim " +
           std::to_string(axis) + ", but the valid extent " +
           std::to_string(valid) + " cut at " + std::to_string(at) +
           (laneStride ? " (lane_stride)" : " (the box half)") +
           " gives lane 0 " + std::to_string(valid0) + " and lane 1 " +
           std::to_string(valid1);
  return "";
}

/// Merges the lanes' parts of a split transfer along the split axis, the
/// inverse of cutForLanes, into `merged`. The merged valid region is lane
/// 0's followed by lane 1's: one rectangle only when lane 0 is full along
/// the axis and both lanes agree across it (or lane 1 holds nothing).
/// Returns the message, empty when the merge is fine.
inline std::string mergeLanes(const Extents &lane0, const Extents &lane1,
                              int64_t code, Extents &merged) {
  std::optional<SplitRule> rule = getSplitRule(code);
  if (!rule || rule->axis < 0)
    return "merges with split code " + std::to_string(code) +
           ", which cuts nothing";
  int axis = rule->axis, other = 1 - axis;
  if (lane0.rank != 2 || lane1.rank != 2 ||
      lane0.box[other] != lane1.box[other])
    return "merges lane tiles that do not line up along dim " +
           std::to_string(axis);
  std::string lanes = "merges lane 0's valid shape " + formatValid(lane0) +
                      " and lane 1's " + formatValid(lane1) + " along dim " +
                      std::to_string(axis);
  if (lane1.valid[axis] > 0 && lane0.valid[axis] != lane0.box[axis])
    return lanes + ": lane 1 holds valid data but lane 0 is not full (box " +
           std::to_string(lane0.box[axis]) +
           "), so the merged valid region would not be contiguous";
  if (lane1.valid[axis] > 0 && lane0.valid[other] != lane1.valid[other])
    return lanes + ": their valid extents along dim " + std::to_string(other) +
           " differ, so the merged valid region would not be a rectangle";
  merged = lane0;
  merged.box[axis] += lane1.box[axis];
  merged.valid[axis] += lane1.valid[axis];
  return "";
}

//===----------------------------------------------------------------------===//
// Slots
//===----------------------------------------------------------------------===//

/// What one end of a pipe declares for a direction (initialize_pipe).
struct Slots {
  int64_t count = 0, bytes = 0;
  bool operator==(const Slots &other) const {
    return count == other.count && bytes == other.bytes;
  }
};

/// The slots each end of each pipe declared.
class SlotTable {
public:
  /// Records what the cube end (`cubeEnd`) or the vector end declares for
  /// the directions of `directions` (bit 0: to the lanes, bit 1: to the
  /// cube). Returns the first direction whose other end declared something
  /// else.
  std::optional<bool> declare(bool cubeEnd, int64_t pipe, unsigned directions,
                              Slots slots) {
    std::optional<bool> disagreement;
    for (bool toAiv : {true, false}) {
      if (!(directions & (toAiv ? 1u : 2u)))
        continue;
      declared[{toAiv, pipe, cubeEnd}] = slots;
      auto other = declared.find({toAiv, pipe, !cubeEnd});
      if (other != declared.end() && !(other->second == slots) && !disagreement)
        disagreement = toAiv;
    }
    return disagreement;
  }

  /// The pushing end's declaration: it came earlier in the pushing core's
  /// program, so the answer does not depend on the threads' timing.
  std::optional<Slots> pushingEnd(bool fromCube, int64_t pipe) const {
    auto it = declared.find({fromCube, pipe, fromCube});
    if (it == declared.end())
      return std::nullopt;
    return it->second;
  }

  /// Why the two ends of `pipe` in direction `toAiv` disagree.
  std::string describeDisagreement(bool toAiv, int64_t pipe) const {
    Slots cube = declared.at({toAiv, pipe, true});
    Slots vec = declared.at({toAiv, pipe, false});
    return "sets up pipe " + std::to_string(pipe) +
           (toAiv ? " (to_aiv)" : " (to_aic)") +
           " with slots the other end does not agree on: the aic end "
           "declares " +
           std::to_string(cube.count) + " x " + std::to_string(cube.bytes) +
           " bytes, the aiv end " + std::to_string(vec.count) + " x " +
           std::to_string(vec.bytes);
  }

private:
  /// Per (direction to the lanes, pipe, cube end).
  std::map<std::tuple<bool, int64_t, bool>, Slots> declared;
};

/// Why a push of `bytes` per lane queue does not fit its pipe's slots;
/// empty when it does.
inline std::string checkSlotBytes(int64_t bytes, int64_t pipe,
                                  const Slots &slots) {
  if (bytes <= slots.bytes)
    return "";
  return "pushes " + std::to_string(bytes) +
         " bytes per lane queue into pipe " + std::to_string(pipe) +
         ", whose slots hold " + std::to_string(slots.bytes) +
         " bytes (set by its initialize_pipe)";
}

//===----------------------------------------------------------------------===//
// Running: queues, waiting, deadlock
//===----------------------------------------------------------------------===//

/// The queues of one group launch and the cores running it, each on a
/// thread of its own. A pop waits until each queue it drains holds a tile,
/// a push until each queue it fills has a free slot (the pushing end's
/// slot count; unbounded when none is declared or pipes are unbounded).
/// When every live core waits for something no live core can give, the
/// launch stops with a deadlock report naming each waiter.
///
/// `Payload` is what a queue carries (a tile with data in the executor,
/// its extents in a producer); `Site` says where a core waits (the op).
template <typename Payload, typename Site> class PipeQueues {
public:
  using Core = const void *;
  struct Waiter {
    std::string who;
    Site site;
  };
  /// Why the launch stopped early: each waiter, each queue's depth, the
  /// cores still running.
  struct Report {
    std::string reason;
    std::vector<Waiter> waiters;
    std::vector<std::pair<std::string, size_t>> queueDepths;
    std::vector<std::string> running;
  };

  PipeQueues(Topology topology, bool unbounded)
      : topology(topology), unbounded(unbounded) {}

  const Topology &getTopology() const { return topology; }

  /// Each core registers, with its name for reports, before any runs.
  void started(Core core, std::string name) {
    std::lock_guard<std::mutex> lock(mutex);
    alive[core] = std::move(name);
  }
  /// A core's end: the others may now be stuck.
  void finished(Core core) {
    std::lock_guard<std::mutex> lock(mutex);
    alive.erase(core);
    detectDeadlock();
    changed.notify_all();
  }
  /// Records the first failure and stops the other cores.
  void fail(const std::string &message) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!failure)
      failure = message;
    cancel();
  }
  /// Stops the launch with a report (a timeout, say), unless it stopped.
  void stop(const std::string &reason) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!report)
      report = snapshot(reason);
    cancel();
  }
  bool isCancelled() const { return cancelled.load(); }
  std::optional<std::string> getFailure() const {
    std::lock_guard<std::mutex> lock(mutex);
    return failure;
  }
  std::optional<Report> getReport() const {
    std::lock_guard<std::mutex> lock(mutex);
    return report;
  }
  /// Waits until every core finished or `deadline` passed; true when all
  /// finished.
  bool waitForCores(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mutex);
    return changed.wait_until(lock, deadline, [&] { return alive.empty(); });
  }

  /// Records a declaration (SlotTable::declare).
  std::optional<bool> declareSlots(bool cubeEnd, int64_t pipe,
                                   unsigned directions, Slots slots) {
    std::lock_guard<std::mutex> lock(mutex);
    return slotTable.declare(cubeEnd, pipe, directions, slots);
  }
  std::string describeDisagreement(bool toAiv, int64_t pipe) const {
    std::lock_guard<std::mutex> lock(mutex);
    return slotTable.describeDisagreement(toAiv, pipe);
  }
  /// The slots a push from the cube (or a lane) on `pipe` waits for; none
  /// when unbounded.
  std::optional<Slots> pushLimit(bool fromCube, int64_t pipe) const {
    std::lock_guard<std::mutex> lock(mutex);
    return unbounded ? std::nullopt : slotTable.pushingEnd(fromCube, pipe);
  }

  /// Pushes `parts[i]` into `keys[i]` once each has a free slot. False when
  /// the launch stopped meanwhile; `timeout` (zero: none) ends the wait with
  /// a report.
  bool push(Core core, const Site &site, bool fromCube, int64_t pipe,
            const std::vector<QueueKey> &keys, std::vector<Payload> parts,
            std::chrono::milliseconds timeout = {}) {
    std::unique_lock<std::mutex> lock(mutex);
    std::optional<Slots> limit =
        unbounded ? std::nullopt : slotTable.pushingEnd(fromCube, pipe);
    if (limit) {
      int64_t count = limit->count;
      if (!waitUntil(lock, core, site, timeout, [this, &keys, count] {
            for (const QueueKey &key : keys)
              if (static_cast<int64_t>(queues[key].size()) >= count)
                return false;
            return true;
          }))
        return false;
    }
    for (size_t i = 0; i < keys.size(); ++i)
      queues[keys[i]].push_back(std::move(parts[i]));
    changed.notify_all();
    return true;
  }

  /// Pops the front of each of `keys` once all hold one, into `parts`.
  bool pop(Core core, const Site &site, const std::vector<QueueKey> &keys,
           std::vector<Payload> &parts,
           std::chrono::milliseconds timeout = {}) {
    std::unique_lock<std::mutex> lock(mutex);
    if (!waitUntil(lock, core, site, timeout, [this, &keys] {
          for (const QueueKey &key : keys)
            if (queues[key].empty())
              return false;
          return true;
        }))
      return false;
    parts.clear();
    for (const QueueKey &key : keys) {
      parts.push_back(std::move(queues[key].front()));
      queues[key].pop_front();
    }
    // A push may be waiting for the slot this pop freed.
    changed.notify_all();
    return true;
  }

  static constexpr const char *kDeadlock =
      "deadlock: every live core waits for a tile that no live core can "
      "send, or for a slot that no live core can free";

private:
  struct Blocked {
    Waiter waiter;
    std::function<bool()> ready;
  };

  void cancel() {
    cancelled = true;
    changed.notify_all();
  }

  bool waitUntil(std::unique_lock<std::mutex> &lock, Core core,
                 const Site &site, std::chrono::milliseconds timeout,
                 std::function<bool()> ready) {
    if (ready())
      return true;
    auto name = alive.find(core);
    blocked[core] =
        Blocked{Waiter{name == alive.end() ? "?" : name->second, site}, ready};
    detectDeadlock();
    auto until = [&] { return cancelled.load() || ready(); };
    bool done = true;
    if (timeout.count() > 0)
      done = changed.wait_for(lock, timeout, until);
    else
      changed.wait(lock, until);
    if (!done && !cancelled) {
      report = snapshot("timeout: a pop waited longer than " +
                        std::to_string(timeout.count()) + " ms");
      cancel();
    }
    blocked.erase(core);
    return !cancelled;
  }

  /// With the lock held: when every live core waits on something nobody
  /// can give, records the deadlock and stops the launch.
  void detectDeadlock() {
    if (cancelled || alive.empty() || blocked.size() < alive.size())
      return;
    for (const auto &entry : blocked)
      if (entry.second.ready())
        return; // woken but not yet running
    report = snapshot(kDeadlock);
    cancel();
  }

  Report snapshot(const std::string &reason) const {
    Report result;
    result.reason = reason;
    for (const auto &entry : blocked)
      result.waiters.push_back(entry.second.waiter);
    for (const auto &[key, items] : queues)
      result.queueDepths.emplace_back(key.describe(), items.size());
    for (const auto &[core, name] : alive)
      if (!blocked.count(core))
        result.running.push_back(name);
    return result;
  }

  Topology topology;
  bool unbounded;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::map<QueueKey, std::deque<Payload>> queues;
  SlotTable slotTable;
  /// The cores that have not finished, by name.
  std::map<Core, std::string> alive;
  std::map<Core, Blocked> blocked;
  std::atomic<bool> cancelled{false};
  std::optional<std::string> failure;
  std::optional<Report> report;
};

} // namespace tilekit::pipes

#endif // TILEKIT_MACHINE_CROSSCOREPIPES_H
