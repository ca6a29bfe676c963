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

/// Elements in the box of `access`.
static int64_t volume(const GMAccess &access) {
  int64_t elements = 1;
  for (auto [lower, upper] : llvm::zip(access.lower, access.upper))
    elements *= std::max<int64_t>(upper - lower, 0);
  return elements;
}

std::optional<SmallVector<RuntimeValue>>
TaskScheduler::trySubmit(Operation *call, FunctionOpInterface callee,
                         ArrayRef<RuntimeValue> args, const CoreState &state) {
  std::optional<CallFootprint> footprint =
      evaluateFootprint(interpreter, callee, args, state);
  if (!footprint)
    return std::nullopt;
  if (!open)
    open = std::make_unique<Task>();
  for (GMAccess &access : footprint->accesses) {
    open->elements += volume(access);
    if (access.writes)
      addAccess(open->writes, access);
    addAccess(open->accesses, std::move(access));
  }
  open->calls.push_back(Call{submitted++, call, callee,
                             SmallVector<RuntimeValue>(args), state,
                             footprint->results});
  if (open->elements >= kBatchElements || open->calls.size() >= kBatchCalls) {
    std::unique_lock<std::mutex> lock(mutex);
    submitOpen(lock);
  }
  return std::move(footprint->results);
}

void TaskScheduler::submitOpen(std::unique_lock<std::mutex> &lock) {
  if (!open)
    return;
  // A full window waits until half of it has drained, so the
  // orchestration thread is woken once per many tasks, not per task.
  if (pending.size() >= kWindow) {
    orchestrationWaits = true;
    finished.wait(lock, [&] { return pending.size() <= kWindow / 2; });
    orchestrationWaits = false;
  }
  Task *task = open.get();
  // A conflict needs a write on one side: pairs of reads are skipped
  // without a look (a call reads many boxes and writes few).
  auto against = [](ArrayRef<GMAccess> writes, ArrayRef<GMAccess> all) {
    return llvm::any_of(writes, [&](const GMAccess &write) {
      return llvm::any_of(
          all, [&](const GMAccess &access) { return conflict(write, access); });
    });
  };
  for (std::unique_ptr<Task> &earlier : pending)
    if (against(earlier->writes, task->accesses) ||
        against(task->writes, earlier->accesses)) {
      earlier->dependents.push_back(task);
      ++task->waitingFor;
    }
  pending.push_back(std::move(open));
  if (task->waitingFor != 0)
    return;
  ready.push_back(task);
  lock.unlock();
  readied.notify_one();
  lock.lock();
}

bool TaskScheduler::execute(Call &call) {
  FailureOr<SmallVector<RuntimeValue>> results =
      interpreter.call(call.callee, call.args, call.state);
  if (failed(results)) {
    if (call.op)
      (void)reportFailedCall(call.op, call.callee);
    return false;
  }
  if (!sameResults(*results, call.predicted)) {
    (call.op ? call.op : call.callee.getOperation())->emitError()
        << "internal error: @" << call.callee.getName()
        << " returned other values than its footprint predicted";
    return false;
  }
  return true;
}

void TaskScheduler::execute(Task *task) {
  std::vector<Diagnostic> diagnostics;
  std::optional<uint64_t> failedCall;
  {
    CaptureScope capture(diagnostics);
    for (Call &call : task->calls) {
      // Past the first failure nothing runs: a run on one thread would
      // have stopped there.
      if (call.index >= firstFailure.load())
        break;
      if (!execute(call)) {
        failedCall = call.index;
        break;
      }
    }
  }
  size_t newlyReady = 0;
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    size_t before = ready.size();
    finish(task, std::move(diagnostics), failedCall);
    newlyReady = ready.size() - before;
    wake = orchestrationWaits &&
           (pending.empty() || pending.size() <= kWindow / 2);
  }
  if (wake)
    finished.notify_one();
  // This worker takes one of the newly ready tasks itself.
  for (size_t i = 1; i < newlyReady; ++i)
    readied.notify_one();
}

void TaskScheduler::finish(Task *task, std::vector<Diagnostic> diagnostics,
                           std::optional<uint64_t> failedCall) {
  if (failedCall) {
    failures.emplace(*failedCall, std::move(diagnostics));
    firstFailure = std::min(firstFailure.load(), *failedCall);
  }
  for (Task *dependent : task->dependents)
    if (--dependent->waitingFor == 0)
      ready.push_back(dependent);
  pending.remove_if(
      [&](const std::unique_ptr<Task> &entry) { return entry.get() == task; });
}

LogicalResult TaskScheduler::drain() {
  std::unique_lock<std::mutex> lock(mutex);
  submitOpen(lock);
  orchestrationWaits = true;
  finished.wait(lock, [&] { return pending.empty(); });
  orchestrationWaits = false;
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
