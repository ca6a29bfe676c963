//===- GroupRuntime.h - Cube and vector lanes running together ---*- C++
//-*-===//
//
// A group call runs its aic function on one thread and its aiv function on
// one or two lane threads. They exchange tiles through blocking queues with
// the split semantics of the cross-core pipes (see docs/guide.md). A pop that
// no live thread can satisfy is a deadlock, reported at once with every
// waiter and queue; timeouts remain as a safety net. Internal to the
// executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_GROUPRUNTIME_H
#define TILEKIT_LIB_INTERP_GROUPRUNTIME_H

#include "tilekit/Interp/Interpreter.h"

#include "mlir/IR/Operation.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace tilekit::interp {

/// A tile in flight: its elements, box and valid shape.
struct Payload {
  llvm::SmallVector<int64_t, 2> shape;
  llvm::SmallVector<int64_t, 2> valid;
  std::shared_ptr<ArrayData> data;
  /// The sender's buffer (for the trace).
  uint64_t buffer = 0;
};

class GroupRuntime;

/// Who the current thread is inside a group call.
struct CoreIdentity {
  GroupRuntime *runtime = nullptr;
  bool isCube = true;
  unsigned lane = 0;
  std::string function;
  /// The records this core emits, in its program order, with names and
  /// locations in its own tables (only this core's thread touches it).
  mutable trace::Trace stream;
};

/// True when `core` belongs to a group that has been cancelled (another
/// thread failed, a deadlock was found, or time ran out): it stops at the
/// next op without reporting anything more. False outside groups (null).
bool isGroupCancelled(const CoreIdentity *core);

class GroupRuntime {
public:
  GroupRuntime(bool dualNoSplit, std::chrono::milliseconds popTimeout,
               bool unboundedPipes);

  /// Records the slots one end of pipe `pipe` declares for the directions
  /// of `directions` (bit 0: to the vector lanes, bit 1: to the cube);
  /// failure when the other end declared different ones (reported by
  /// reportDisagreement once the threads have stopped, whichever end
  /// declared second).
  mlir::LogicalResult initializePipe(mlir::Operation *op, bool cubeEnd,
                                     int64_t pipe, unsigned directions,
                                     int64_t slotNum, int64_t slotSize);
  /// The slot count a push from the cube (or a vector lane) on `pipe`
  /// waits for, as its own end declared it; 0 when unbounded.
  int64_t getSlots(bool fromCube, int64_t pipe) const;
  /// The lane queues a transfer fills or drains (bit per lane; the single
  /// queue of an unsplit one-queue pipe is bit 0).
  unsigned getLaneMask(bool cube, int64_t split, unsigned lane) const;

  mlir::LogicalResult pushToAiv(const CoreIdentity *self, mlir::Operation *op,
                                const TileValue &tile, int64_t split,
                                std::optional<int64_t> laneStride,
                                int64_t pipe);
  mlir::FailureOr<Payload> popFromAic(const CoreIdentity *self,
                                      mlir::Operation *op, int64_t split,
                                      int64_t pipe);
  mlir::LogicalResult pushToAic(const CoreIdentity *self, mlir::Operation *op,
                                const TileValue &tile, int64_t split,
                                int64_t pipe);
  mlir::FailureOr<Payload> popFromAiv(const CoreIdentity *self,
                                      mlir::Operation *op, int64_t split,
                                      int64_t pipe);

  /// Thread bookkeeping: each thread registers before any thread runs, and
  /// finishes once.
  void threadStarted(const CoreIdentity *identity);
  void threadFinished(const CoreIdentity *identity);
  /// Records the first failing thread and cancels the others.
  void fail(const std::string &who);
  /// Stops the group because it ran longer than `limit`.
  void timeOut(std::chrono::milliseconds limit);
  bool isCancelled() const { return cancelled.load(); }

  /// Waits until every thread finished or `deadline` passed; true when all
  /// finished.
  bool waitForThreads(std::chrono::steady_clock::time_point deadline);

  /// Why the group stopped early, if it did.
  std::optional<std::string> getFailure() const;
  /// Reports the first disagreement on pipe slots, at the aiv end's
  /// declaration with a note at the aic end's; false when there was none.
  bool reportDisagreement() const;
  /// The deadlock or timeout report: each waiter and each queue's depth.
  struct Waiter {
    std::string who;
    mlir::Operation *op;
    int64_t split;
  };
  struct Report {
    std::string reason;
    std::vector<Waiter> waiters;
    std::vector<std::pair<std::string, size_t>> queueDepths;
    std::vector<std::string> running;
  };
  std::optional<Report> getReport() const;

private:
  /// A queue of one direction, pipe and channel.
  struct QueueKey {
    bool toAiv;
    int64_t pipe;
    /// -1 for the single queue, else the split code (0 for dual no-split).
    int64_t split;
    int lane;
    bool operator<(const QueueKey &other) const {
      return std::tie(toAiv, pipe, split, lane) <
             std::tie(other.toAiv, other.pipe, other.split, other.lane);
    }
  };
  std::string describe(const QueueKey &key) const;
  std::deque<Payload> &queue(const QueueKey &key) { return queues[key]; }

  void push(const QueueKey &key, Payload payload);
  /// With the lock held: the slot count and bytes the pushing end declared
  /// for `pipe`, none when unbounded.
  std::optional<std::pair<int64_t, int64_t>>
  pushingEndSlots(bool fromCube, int64_t pipe) const;
  /// Blocks until each of `keys` has a free slot (the pushing end's slot
  /// count) and checks the payload fits a slot.
  mlir::LogicalResult
  waitForSlots(std::unique_lock<std::mutex> &lock, const CoreIdentity *self,
               mlir::Operation *op, int64_t split, bool fromCube, int64_t pipe,
               llvm::ArrayRef<QueueKey> keys, const Payload &payload);
  /// Blocks until `ready` holds, a deadlock is found, the group is
  /// cancelled, or the pop times out. Called with `lock` held.
  mlir::LogicalResult waitUntil(std::unique_lock<std::mutex> &lock,
                                const CoreIdentity *self, mlir::Operation *op,
                                int64_t split, std::function<bool()> ready);
  /// With the lock held: if every live thread waits on something nobody can
  /// give, records a deadlock report and cancels the group.
  void detectDeadlock();
  Report snapshot(const std::string &reason) const;

  bool dualNoSplit;
  std::chrono::milliseconds popTimeout;
  bool unboundedPipes;
  /// Declared slots per (direction to the vector lanes, pipe, cube end):
  /// count and bytes.
  std::map<std::tuple<bool, int64_t, bool>, std::pair<int64_t, int64_t>> slots;
  /// The op of each declaration in `slots`.
  std::map<std::tuple<bool, int64_t, bool>, mlir::Operation *> declaredBy;
  /// The first pipe direction whose ends disagree: (to the vector lanes,
  /// pipe).
  std::optional<std::pair<bool, int64_t>> disagreement;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::map<QueueKey, std::deque<Payload>> queues;
  /// Threads that have not finished.
  std::map<const CoreIdentity *, std::string> alive;
  struct Blocked {
    Waiter waiter;
    std::function<bool()> ready;
  };
  std::map<const CoreIdentity *, Blocked> blocked;
  std::atomic<bool> cancelled{false};
  std::optional<std::string> firstFailure;
  std::optional<Report> report;
};

/// Splits a tile between two lanes for split code 1-4: the cut is at the box
/// half, or at `laneStride`; the odd codes fail with a diagnostic on `op`
/// unless lane 0 ends up with one valid cell more than lane 1.
mlir::FailureOr<std::pair<Payload, Payload>>
splitForLanes(mlir::Operation *op, const Payload &tile, int64_t split,
              std::optional<int64_t> laneStride);

/// Merges the two lanes' halves along the split axis, the exact inverse of
/// the split; fails when the lanes' valid regions do not make one rectangle.
mlir::FailureOr<Payload> mergeLanes(mlir::Operation *op, const Payload &lane0,
                                    const Payload &lane1, int64_t split);

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_GROUPRUNTIME_H
