//===- TaskScheduler.cpp - In-core calls on several threads ---------------===//

#include "TaskScheduler.h"

#include "ExecContext.h"

#include "mlir/IR/Diagnostics.h"

#include <cstring>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

TaskScheduler::TaskScheduler(Interpreter &interpreter, MLIRContext *context,
                             unsigned threads)
    : interpreter(interpreter), context(context), router(context) {
  for (unsigned i = 0; i < threads; ++i)
    workers.emplace_back([this] { work(); });
}

TaskScheduler::~TaskScheduler() {
  (void)drain();
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  readied.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

void TaskScheduler::work() {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    readied.wait(lock, [&] { return stopping || !ready.empty(); });
    if (ready.empty())
      return; // stopping, nothing left
    Task *task = ready.front();
    ready.pop_front();
    lock.unlock();
    execute(task);
    lock.lock();
  }
}

/// Whether the results a call returned are those its footprint predicted
/// (the same tensors, the same scalars).
static bool sameResults(ArrayRef<RuntimeValue> actual,
                        ArrayRef<RuntimeValue> predicted) {
  if (actual.size() != predicted.size())
    return false;
  for (auto [a, p] : llvm::zip(actual, predicted)) {
    if (const auto *tensor = std::get_if<TensorValue>(&a)) {
      const auto *expected = std::get_if<TensorValue>(&p);
      if (!expected || tensor->storage != expected->storage ||
          tensor->shape != expected->shape || tensor->valid != expected->valid)
        return false;
      continue;
    }
    const auto *scalar = std::get_if<Scalar>(&a);
    const auto *expected = std::get_if<Scalar>(&p);
    if (!scalar || !expected || scalar->kind != expected->kind ||
        scalar->i != expected->i ||
        std::memcmp(&scalar->f, &expected->f, sizeof(double)) != 0)
      return false;
  }
  return true;
}

std::optional<SmallVector<RuntimeValue>>
TaskScheduler::trySubmit(Operation *call, FunctionOpInterface callee,
                         ArrayRef<RuntimeValue> args, const CoreState &state) {
  std::optional<CallFootprint> footprint =
      evaluateFootprint(interpreter, callee, args, state);
  if (!footprint)
    return std::nullopt;
  auto task = std::make_unique<Task>(Task{0, call, callee,
                                          SmallVector<RuntimeValue>(args),
                                          state, std::move(*footprint)});
  Task *raw = task.get();
  for (const GMAccess &access : raw->footprint.accesses)
    if (access.writes)
      raw->writes.push_back(access);
  SmallVector<RuntimeValue> results = raw->footprint.results;
  {
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, [&] { return pending.size() < kWindow; });
    raw->index = submitted++;
    for (std::unique_ptr<Task> &earlier : pending) {
      // A conflict needs a write on one side: pairs of reads are skipped
      // without a look (a call reads many boxes and writes few).
      auto against = [](ArrayRef<GMAccess> writes, ArrayRef<GMAccess> all) {
        return llvm::any_of(writes, [&](const GMAccess &write) {
          return llvm::any_of(all, [&](const GMAccess &access) {
            return conflict(write, access);
          });
        });
      };
      bool conflicts = against(earlier->writes, raw->footprint.accesses) ||
                       against(raw->writes, earlier->footprint.accesses);
      if (conflicts) {
        earlier->dependents.push_back(raw);
        ++raw->waitingFor;
      }
    }
    pending.push_back(std::move(task));
    if (raw->waitingFor == 0)
      ready.push_back(raw);
  }
  readied.notify_one();
  return results;
}

void TaskScheduler::execute(Task *task) {
  std::vector<Diagnostic> diagnostics;
  bool broke = false;
  // Past the first failure nothing runs: a run on one thread would have
  // stopped there.
  if (task->index < firstFailure.load()) {
    CaptureScope capture(diagnostics);
    FailureOr<SmallVector<RuntimeValue>> results =
        interpreter.call(task->callee, task->args, task->state);
    if (failed(results)) {
      broke = true;
      if (task->call)
        (void)reportFailedCall(task->call, task->callee);
    } else if (!sameResults(*results, task->footprint.results)) {
      broke = true;
      (task->call ? task->call : task->callee.getOperation())->emitError()
          << "internal error: @" << task->callee.getName()
          << " returned other values than its footprint predicted";
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    finish(task, std::move(diagnostics), broke);
  }
  finished.notify_all();
  readied.notify_all();
}

void TaskScheduler::finish(Task *task, std::vector<Diagnostic> diagnostics,
                           bool broke) {
  if (broke) {
    failures.emplace(task->index, std::move(diagnostics));
    firstFailure = std::min(firstFailure.load(), task->index);
  }
  for (Task *dependent : task->dependents)
    if (--dependent->waitingFor == 0)
      ready.push_back(dependent);
  pending.remove_if(
      [&](const std::unique_ptr<Task> &entry) { return entry.get() == task; });
}

LogicalResult TaskScheduler::drain() {
  std::unique_lock<std::mutex> lock(mutex);
  finished.wait(lock, [&] { return pending.empty(); });
  return failure(hasFailed());
}

LogicalResult TaskScheduler::report(std::vector<Diagnostic> &orchestration) {
  (void)drain();
  std::lock_guard<std::mutex> lock(mutex);
  if (failures.empty()) {
    emitAll(context, orchestration);
    return success();
  }
  emitAll(context, failures.begin()->second);
  failures.clear();
  orchestration.clear();
  return failure();
}
