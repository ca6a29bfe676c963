//===- MixedKernel.cpp - The cube and the vector core of one kernel -------===//

#include "MixedKernel.h"

#include "AscendCMachine.h"
#include "ExecContext.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

namespace {

/// The turns of the two cores of one run: exactly one core's thread runs
/// at a time.
class MixedKernelRun {
public:
  explicit MixedKernelRun(std::shared_ptr<AscendCMachine> machine)
      : machine(std::move(machine)) {}

  /// Blocks until `core` may start.
  void begin(unsigned core) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return turn == core || stopped; });
  }

  HandOver handOver(unsigned core, Operation *op, Operation *&other) {
    std::unique_lock<std::mutex> lock(mutex);
    unsigned peer = 1 - core;
    if (stopped)
      return HandOver::Stopped;
    // The peer can help only if it is running, or parked at a wait that
    // a flag set since then may satisfy.
    if (done[peer] || (waitingAt[peer] && sets == setsWhenParked[peer])) {
      other = waitingAt[peer];
      stopped = true;
      changed.notify_all();
      return HandOver::Deadlock;
    }
    waitingAt[core] = op;
    setsWhenParked[core] = sets;
    turn = peer;
    changed.notify_all();
    changed.wait(lock, [&] { return turn == core || stopped; });
    waitingAt[core] = nullptr;
    return stopped ? HandOver::Stopped : HandOver::Retry;
  }

  /// `core` meets a core group, its own or not; both cores meet the same
  /// groups in the same order (they run the same scalar code). Before its
  /// own group it waits until every earlier group has run, so the kernel
  /// runs in program order wherever that order can run: when the other core
  /// is stuck at a wait no set has answered since, or has returned, it goes
  /// ahead. Returns the group's number, or none when the run has stopped.
  std::optional<uint64_t> enterGroup(unsigned core, bool own) {
    std::unique_lock<std::mutex> lock(mutex);
    uint64_t index = met[core]++;
    unsigned peer = 1 - core;
    while (own && !stopped && frontier != index && !done[peer] &&
           !(waitingAt[peer] && sets == setsWhenParked[peer])) {
      turn = peer;
      changed.notify_all();
      changed.wait(lock, [&] { return turn == core || stopped; });
    }
    if (stopped)
      return std::nullopt;
    return index;
  }

  /// `core` has run group `index`.
  void leaveGroup(uint64_t index) {
    std::unique_lock<std::mutex> lock(mutex);
    finished.insert(index);
    while (finished.erase(frontier))
      ++frontier;
  }

  void noteSet() {
    std::unique_lock<std::mutex> lock(mutex);
    ++sets;
  }

  /// `core` has returned (or failed: then the run stops).
  void finish(unsigned core, bool failed) {
    std::unique_lock<std::mutex> lock(mutex);
    done[core] = true;
    stopped |= failed;
    turn = 1 - core;
    changed.notify_all();
  }

  std::shared_ptr<AscendCMachine> machine;

private:
  std::mutex mutex;
  std::condition_variable changed;
  unsigned turn = 0; // the cube starts
  bool done[2] = {false, false};
  Operation *waitingAt[2] = {nullptr, nullptr};
  /// Cross-core sets so far, and when each parked core last looked.
  uint64_t sets = 0;
  uint64_t setsWhenParked[2] = {0, 0};
  bool stopped = false;
  /// Groups each core has met, and the first group not yet run.
  uint64_t met[2] = {0, 0};
  uint64_t frontier = 0;
  std::set<uint64_t> finished;
};

/// The run and core of the current thread.
struct MixedCore {
  MixedKernelRun *run = nullptr;
  unsigned core = 0;
};
thread_local MixedCore current;

} // namespace

std::optional<unsigned> interp::currentMixedCore() {
  if (!current.run)
    return std::nullopt;
  return current.core;
}

std::shared_ptr<AscendCMachine> interp::currentMixedMachine() {
  return current.run ? current.run->machine : nullptr;
}

bool interp::isMixedKernel(FunctionOpInterface func) {
  // Only AscendC kernels (which take GM tensors, or live in a compiled
  // module, as a launch kernel without arguments does) have groups: a PTO
  // call is not walked.
  auto module = func->getParentOfType<ModuleOp>();
  if (!llvm::any_of(
          func.getArgumentTypes(),
          [](Type type) { return isa<ascendc::GlobalTensorType>(type); }) &&
      !(module && module->hasAttr(ascendc::AscendCDialect::kArchAttrName)))
    return false;
  bool cube = false, vector = false;
  func->walk([&](Operation *op) {
    cube |= isa<ascendc::IfAicOp>(op);
    vector |= isa<ascendc::IfAivOp>(op);
    return cube && vector ? WalkResult::interrupt() : WalkResult::advance();
  });
  return cube && vector;
}

HandOver interp::handOverAt(Operation *op, Operation *&other) {
  other = nullptr;
  return current.run->handOver(current.core, op, other);
}

std::optional<uint64_t> interp::enterCoreGroup(bool own) {
  return current.run->enterGroup(current.core, own);
}

void interp::leaveCoreGroup(uint64_t index) { current.run->leaveGroup(index); }

void interp::noteCrossCoreSet() {
  if (current.run)
    current.run->noteSet();
}

FailureOr<SmallVector<RuntimeValue>>
interp::runMixedKernel(Interpreter &interpreter, FunctionOpInterface func,
                       ArrayRef<RuntimeValue> args, const CoreState &state) {
  MixedKernelRun run(std::make_shared<AscendCMachine>(
      interpreter.getOptions().checkRaces, interpreter.getOptions().undefined));
  std::vector<RuntimeValue> arguments(args.begin(), args.end());
  FailureOr<SmallVector<RuntimeValue>> outcomes[2] = {failure(), failure()};
  std::vector<std::thread> cores;
  for (unsigned core = 0; core < 2; ++core)
    cores.emplace_back([&, core] {
      current = {&run, core};
      run.begin(core);
      outcomes[core] = interpreter.call(func, arguments, state);
      run.finish(core, failed(outcomes[core]));
      current = {};
    });
  for (std::thread &thread : cores)
    thread.join();
  flushAscendCTraceStreams(interpreter, *run.machine);
  if (failed(outcomes[0]) || failed(outcomes[1]) ||
      failed(checkFlagsWaited(*run.machine, func)))
    return failure();
  return std::move(outcomes[1]);
}
