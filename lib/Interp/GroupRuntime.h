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
#include "tilekit/Machine/CrossCorePipes.h"

#include "mlir/IR/Operation.h"

#include <chrono>
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

/// Where a core of a group waits: the op and its split code.
struct WaitSite {
  mlir::Operation *op;
  int64_t split;
};

/// A group launch's pipes as the executor runs them: the rules of
/// tilekit/Machine/CrossCorePipes.h (shared with the compiled trace
/// producers) over tiles with data, errors reported at the ops.
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
  unsigned getLaneMask(bool cube, int64_t split, unsigned lane) const {
    return queues.getTopology().laneMask(cube, split, lane);
  }

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
  void threadFinished(const CoreIdentity *identity) {
    queues.finished(identity);
  }
  /// Records the first failing thread and cancels the others.
  void fail(const std::string &who) { queues.fail(who); }
  /// Stops the group because it ran longer than `limit`.
  void timeOut(std::chrono::milliseconds limit) {
    queues.stop("timeout: the group ran longer than " +
                std::to_string(limit.count()) + " ms");
  }
  bool isCancelled() const { return queues.isCancelled(); }

  /// Waits until every thread finished or `deadline` passed; true when all
  /// finished.
  bool waitForThreads(std::chrono::steady_clock::time_point deadline) {
    return queues.waitForCores(deadline);
  }

  /// Why the group stopped early, if it did.
  std::optional<std::string> getFailure() const { return queues.getFailure(); }
  /// Reports the first disagreement on pipe slots, at the aiv end's
  /// declaration with a note at the aic end's; false when there was none.
  bool reportDisagreement() const;
  /// The deadlock or timeout report: each waiter and each queue's depth.
  using Queues = pipes::PipeQueues<Payload, WaitSite>;
  using Waiter = Queues::Waiter;
  using Report = Queues::Report;
  std::optional<Report> getReport() const { return queues.getReport(); }

private:
  /// Pushes `parts` into `keys` once each has a free slot, after checking
  /// that a part fits a slot.
  mlir::LogicalResult push(const CoreIdentity *self, mlir::Operation *op,
                           int64_t split, bool fromCube, int64_t pipe,
                           std::vector<pipes::QueueKey> keys,
                           std::vector<Payload> parts);
  /// Pops the front of each of `keys` once all hold one.
  mlir::FailureOr<std::vector<Payload>> pop(const CoreIdentity *self,
                                            mlir::Operation *op, int64_t split,
                                            std::vector<pipes::QueueKey> keys);

  std::chrono::milliseconds popTimeout;
  Queues queues;
  /// The op of each end's declaration, per (to the vector lanes, pipe,
  /// cube end), for the disagreement's locations.
  std::map<std::tuple<bool, int64_t, bool>, mlir::Operation *> declaredBy;
  /// The first pipe direction whose ends disagree: (to the vector lanes,
  /// pipe).
  std::optional<std::pair<bool, int64_t>> disagreement;
  mutable std::mutex declarationMutex;
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
