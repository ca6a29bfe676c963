//===- TaskScheduler.h - In-core calls on several threads ---------*- C++
//-*-===//
//
// Internal to the executor. Under --threads N an orchestration function
// still runs on one thread, in order, but each in-core call it makes (and
// each block of an in-core launch) becomes a task: it starts once every
// earlier task whose GM footprint conflicts with its own has finished, on
// one of N worker threads. Two calls run at once only when neither writes
// what the other touches, so every element of every tensor ends up
// bit-identical to a run on one thread. A call whose footprint is unknown
// waits for all tasks and runs inline, as does every orchestration op that
// reads or writes GM data itself.
//
// Errors come out as on one thread: every thread's diagnostics are held
// back, and only those of the first failure in program order are emitted.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_TASKSCHEDULER_H
#define TILEKIT_LIB_INTERP_TASKSCHEDULER_H

#include "DiagnosticCapture.h"
#include "Footprint.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace tilekit::interp {

class TaskScheduler {
public:
  TaskScheduler(Interpreter &interpreter, mlir::MLIRContext *context,
                unsigned threads);
  /// Waits for the tasks still running and stops the workers.
  ~TaskScheduler();

  /// Queues `callee(args)` in `state` to run once the calls before it that
  /// conflict with it have finished, and returns what it will return;
  /// nothing when its footprint is unknown (the caller drains and runs it
  /// inline). `call` (null for a launch block) is the op a failure is
  /// reported on. Blocks while too many tasks are pending.
  std::optional<llvm::SmallVector<RuntimeValue>>
  trySubmit(mlir::Operation *call, mlir::FunctionOpInterface callee,
            llvm::ArrayRef<RuntimeValue> args, const CoreState &state);
  /// Waits until every submitted task has finished; failure when one
  /// failed.
  mlir::LogicalResult drain();
  /// Whether a task has failed (the orchestration stops at its next call).
  bool hasFailed() const { return firstFailure != kNoFailure; }
  /// After drain: emits the diagnostics of the first failed task, else
  /// `orchestration`'s (those the orchestration thread collected). Returns
  /// failure when a task failed.
  mlir::LogicalResult report(std::vector<mlir::Diagnostic> &orchestration);

private:
  /// One in-core call.
  struct Call {
    /// Its place in program order.
    uint64_t index;
    mlir::Operation *op;
    mlir::FunctionOpInterface callee;
    llvm::SmallVector<RuntimeValue> args;
    CoreState state;
    llvm::SmallVector<RuntimeValue> predicted;
  };
  /// Consecutive calls run in order on one thread: a call of a small tile
  /// costs about what handing it to another thread costs, so calls are
  /// batched until their boxes hold kBatchElements elements.
  struct Task {
    llvm::SmallVector<Call, 1> calls;
    /// The union of the calls' footprints, and its writes.
    llvm::SmallVector<GMAccess> accesses, writes;
    int64_t elements = 0;
    /// Earlier conflicting tasks not yet finished.
    unsigned waitingFor = 0;
    llvm::SmallVector<Task *> dependents;
  };
  /// Hands the open batch to the workers (under the lock).
  void submitOpen(std::unique_lock<std::mutex> &lock);
  /// A worker thread: runs ready tasks until the scheduler stops.
  void work();
  void execute(Task *task);
  /// Runs one call; false (its diagnostics collected) when it failed.
  bool execute(Call &call);
  /// Under the lock: removes `task`, making its dependents ready;
  /// `failedCall` is the index of the call that failed in it, if one did.
  void finish(Task *task, std::vector<mlir::Diagnostic> diagnostics,
              std::optional<uint64_t> failedCall);

  static constexpr uint64_t kNoFailure = ~uint64_t(0);
  /// Tasks pending at once: enough to keep every thread busy while a
  /// chain of dependent ones drains, few enough that their arguments cost
  /// nothing.
  static constexpr size_t kWindow = 32;
  /// Elements in the boxes of a batch (a 256x256 tile) and calls in one.
  static constexpr int64_t kBatchElements = 1 << 16;
  static constexpr size_t kBatchCalls = 64;

  Interpreter &interpreter;
  mlir::MLIRContext *context;
  DiagnosticRouter router;
  std::mutex mutex;
  /// Signals the orchestration thread: a task finished.
  std::condition_variable finished;
  /// Signals the workers: a task is ready, or the scheduler stops.
  std::condition_variable readied;
  /// The batch being filled (null when empty).
  std::unique_ptr<Task> open;
  /// Submitted tasks not yet finished, in program order.
  std::list<std::unique_ptr<Task>> pending;
  /// Tasks whose dependencies have finished, not yet taken by a worker.
  std::deque<Task *> ready;
  bool stopping = false;
  /// Whether the orchestration thread waits for tasks to finish.
  bool orchestrationWaits = false;
  uint64_t submitted = 0;
  std::atomic<uint64_t> firstFailure{kNoFailure};
  /// The diagnostics of failed tasks by index.
  std::map<uint64_t, std::vector<mlir::Diagnostic>> failures;
  std::vector<std::thread> workers;
};

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_TASKSCHEDULER_H
