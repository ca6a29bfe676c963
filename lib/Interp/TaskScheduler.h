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

  /// Starts `callee(args)` in `state` as a task, the `index`-th of the run,
  /// and returns what it will return; nothing when its footprint is
  /// unknown (the caller drains and runs it inline). `call` (null for a
  /// launch block) is the op a failure is reported on. Blocks while too
  /// many tasks are pending.
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
  struct Task {
    uint64_t index;
    mlir::Operation *call;
    mlir::FunctionOpInterface callee;
    llvm::SmallVector<RuntimeValue> args;
    CoreState state;
    CallFootprint footprint;
    /// The accesses of the footprint that write.
    llvm::SmallVector<GMAccess> writes;
    /// Earlier conflicting tasks not yet finished.
    unsigned waitingFor = 0;
    llvm::SmallVector<Task *> dependents;
  };
  /// A worker thread: runs ready tasks until the scheduler stops.
  void work();
  void execute(Task *task);
  /// Under the lock: removes `task`, making its dependents ready.
  void finish(Task *task, std::vector<mlir::Diagnostic> diagnostics,
              bool broke);

  static constexpr uint64_t kNoFailure = ~uint64_t(0);
  /// Tasks pending at once: enough to keep every thread busy while a
  /// chain of dependent ones drains, few enough that their arguments cost
  /// nothing.
  static constexpr size_t kWindow = 32;

  Interpreter &interpreter;
  mlir::MLIRContext *context;
  DiagnosticRouter router;
  std::mutex mutex;
  /// Signals the orchestration thread: a task finished.
  std::condition_variable finished;
  /// Signals the workers: a task is ready, or the scheduler stops.
  std::condition_variable readied;
  /// Submitted tasks not yet finished, in program order.
  std::list<std::unique_ptr<Task>> pending;
  /// Tasks whose dependencies have finished, not yet taken by a worker.
  std::deque<Task *> ready;
  bool stopping = false;
  uint64_t submitted = 0;
  std::atomic<uint64_t> firstFailure{kNoFailure};
  /// The diagnostics of failed tasks by index.
  std::map<uint64_t, std::vector<mlir::Diagnostic>> failures;
  std::vector<std::thread> workers;
};

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_TASKSCHEDULER_H
