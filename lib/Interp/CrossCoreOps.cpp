//===- CrossCoreOps.cpp - Group launches and cross-core pipes -------------===//
//
// A call of a group function runs its aic function on one thread and its
// aiv function on one or two lane threads over a fresh GroupRuntime; the
// pipe ops push to and pop from that runtime. The group returns vector lane
// 0's results.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "GroupRuntime.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <thread>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

/// The identity of the current thread, or an error on `op` when it does not
/// run on the expected side of a group.
static const CoreIdentity *requireCore(ExecContext &context, Operation *op,
                                       bool cube) {
  const CoreIdentity *core = context.getCoreState().core;
  if (!core) {
    op->emitOpError() << "runs outside a group launch; cross-core pipes "
                         "connect the functions of a group called from "
                         "orchestration";
    return nullptr;
  }
  if (core->isCube != cube) {
    op->emitOpError() << "runs on the " << (cube ? "cube core" : "vector lanes")
                      << ", but " << core->function << " runs on the "
                      << (core->isCube ? "cube core" : "vector lanes");
    return nullptr;
  }
  return core;
}

/// The popped tile as a value of the pop's result type.
static FailureOr<TileValue>
tileFromPayload(Operation *op, const Payload &payload, TileType type) {
  if (static_cast<int64_t>(payload.shape.size()) != type.getRank())
    return op->emitOpError() << "receives a tile of rank "
                             << payload.shape.size() << " as " << type;
  for (auto [valid, dim] : llvm::zip(payload.valid, type.getShape()))
    if (valid > dim)
      return op->emitOpError()
             << "receives a tile whose valid shape "
             << formatShape(payload.valid) << " does not fit " << type;
  TileValue tile = makeTile(type, kindOf(type));
  tile.valid = payload.valid;
  int64_t rows = std::min(payload.shape[0], type.getDimSize(0));
  int64_t cols =
      type.getRank() == 2 ? std::min(payload.shape[1], type.getDimSize(1)) : 1;
  int64_t fromCols = type.getRank() == 2 ? payload.shape[1] : 1;
  int64_t toCols = type.getRank() == 2 ? type.getDimSize(1) : 1;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      tile.data->set(r * toCols + c, payload.data->get(r * fromCols + c));
  return tile;
}

template <typename OpTy, bool Cube>
static LogicalResult runInitializePipe(ExecContext &context, Operation *raw) {
  auto op = cast<OpTy>(raw);
  // Outside a group launch there is no other end to set up.
  if (!context.getCoreState().core)
    return success();
  const CoreIdentity *core = requireCore(context, op, Cube);
  if (!core)
    return failure();
  return core->runtime->initializePipe(op, Cube, op.getPipeIdAttr().getInt(),
                                       static_cast<unsigned>(op.getDir()),
                                       op.getSlotNum(), op.getSlotSize());
}

/// A push: into the runtime's queues (blocking while its slots are full),
/// then its trace record.
template <typename OpTy, bool Cube>
static LogicalResult runPush(ExecContext &context, Operation *raw) {
  auto op = cast<OpTy>(raw);
  const CoreIdentity *core = requireCore(context, op, Cube);
  if (!core)
    return failure();
  TileValue tile = context.tile(op.getTile());
  int64_t split = op.getSplitAttr().getInt();
  int64_t pipe = op.getPipeIdAttr().getInt();
  LogicalResult pushed = failure();
  if constexpr (Cube)
    pushed = core->runtime->pushToAiv(core, op, tile, split, op.getLaneStride(),
                                      pipe);
  else
    pushed = core->runtime->pushToAic(core, op, tile, split, pipe);
  if (failed(pushed))
    return failure();
  if (context.getInterpreter().isTracing())
    emitPush(context, op, tile,
             core->runtime->getLaneMask(Cube, split, core->lane),
             core->runtime->getSlots(Cube, pipe));
  return success();
}

template <typename OpTy, bool Cube>
static LogicalResult runPop(ExecContext &context, Operation *raw) {
  auto op = cast<OpTy>(raw);
  const CoreIdentity *core = requireCore(context, op, Cube);
  if (!core)
    return failure();
  int64_t split = op.getSplitAttr().getInt();
  int64_t pipe = op.getPipeIdAttr().getInt();
  FailureOr<Payload> payload =
      Cube ? core->runtime->popFromAiv(core, op, split, pipe)
           : core->runtime->popFromAic(core, op, split, pipe);
  if (failed(payload))
    return failure();
  FailureOr<TileValue> tile =
      tileFromPayload(op, *payload, cast<TileType>(op.getResult().getType()));
  if (failed(tile))
    return failure();
  // Past its valid region the slot holds anything, as a load's padding.
  if (context.getInterpreter().getOptions().undefined == UndefinedData::NaN)
    fillUndefined(*tile, tile->valid);
  // Bound first, so that the record writes the buffer its readers read.
  context.set(op.getResult(), std::move(*tile));
  if (context.getInterpreter().isTracing())
    emitPop(context, op, context.tile(op.getResult()),
            core->runtime->getLaneMask(Cube, split, core->lane));
  return success();
}

static LogicalResult runSubblockIdx(ExecContext &context, Operation *raw) {
  const CoreIdentity *core = context.getCoreState().core;
  int64_t lane = core && !core->isCube ? core->lane : 0;
  context.set(cast<GetSubblockIdxOp>(raw).getResult(),
              Scalar::ofInt(ElementKind::Index, lane));
  return success();
}

/// Reports why a group stopped early: each waiter where it waits, each
/// queue's depth, and the threads still running.
static void emitReport(Operation *call, StringRef group,
                       const GroupRuntime::Report &report) {
  InFlightDiagnostic diag = call->emitOpError()
                            << "launched group '@" << group
                            << "', which stopped: " << report.reason;
  for (const GroupRuntime::Waiter &waiter : report.waiters)
    diag.attachNote(waiter.site.op->getLoc())
        << waiter.who << " waits in " << waiter.site.op->getName() << " (split "
        << waiter.site.split << ")";
  std::string depths;
  for (const auto &[queue, depth] : report.queueDepths)
    depths +=
        (depths.empty() ? "" : ", ") + queue + ": " + std::to_string(depth);
  diag.attachNote() << "queue depths: " << (depths.empty() ? "none" : depths);
  if (!report.running.empty()) {
    std::string running;
    for (const std::string &name : report.running)
      running += (running.empty() ? "" : ", ") + name;
    diag.attachNote() << "still running: " << running;
  }
}

LogicalResult interp::runGroupCall(ExecContext &context, Operation *call,
                                   FunctionOpInterface group,
                                   const GroupInfo &info,
                                   ArrayRef<RuntimeValue> args,
                                   SmallVectorImpl<RuntimeValue> &results) {
  Interpreter &interpreter = context.getInterpreter();
  const InterpreterOptions &options = interpreter.getOptions();
  auto aic = cast<FunctionOpInterface>(info.aic);
  auto aiv = cast<FunctionOpInterface>(info.aiv);
  GroupRuntime runtime(info.split == 0 && info.dualAivDispatch,
                       options.popTimeout, options.unboundedPipes);
  // Buffer ids the cores allocate from here on depend on how their threads
  // interleave; the merged trace renumbers them.
  uint64_t firstBuffer = newBufferId();

  unsigned lanes = info.numLanes();
  std::vector<CoreIdentity> cores(1 + lanes);
  cores[0] = {&runtime, true, 0, "@" + aic.getName().str()};
  for (unsigned lane = 0; lane < lanes; ++lane)
    cores[1 + lane] = {&runtime, false, lane, "@" + aiv.getName().str()};
  for (const CoreIdentity &core : cores)
    runtime.threadStarted(&core);

  std::vector<FailureOr<SmallVector<RuntimeValue>>> outcomes(
      cores.size(), FailureOr<SmallVector<RuntimeValue>>(failure()));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < cores.size(); ++i)
    threads.emplace_back([&, i, state = context.getCoreState()]() mutable {
      const CoreIdentity &core = cores[i];
      state.core = &core;
      outcomes[i] = interpreter.call(i == 0 ? aic : aiv, args, state);
      if (failed(outcomes[i]) && !runtime.isCancelled())
        runtime.fail(core.function +
                     (core.isCube
                          ? " (cube)"
                          : " (lane " + std::to_string(core.lane) + ")"));
      runtime.threadFinished(&core);
    });
  auto deadline = std::chrono::steady_clock::now() + options.groupTimeout;
  if (!runtime.waitForThreads(deadline))
    runtime.timeOut(options.groupTimeout);
  for (std::thread &thread : threads)
    thread.join();
  if (interpreter.isTracing()) {
    SmallVector<const CoreIdentity *, 3> streams;
    for (const CoreIdentity &core : cores)
      streams.push_back(&core);
    interpreter.emitGroupStreams(streams, firstBuffer);
  }

  StringRef name = group.getName();
  // Before the failure of whichever thread found it.
  if (runtime.reportDisagreement())
    return failure();
  if (std::optional<GroupRuntime::Report> report = runtime.getReport()) {
    // A deadlock or a timeout.
    std::vector<StalledWait> waits;
    for (const GroupRuntime::Waiter &waiter : report->waiters)
      waits.push_back({waiter.who, waiter.site.op});
    interpreter.noteStalled(waits);
    emitReport(call, name, *report);
    return failure();
  }
  if (std::optional<std::string> who = runtime.getFailure())
    return call->emitOpError()
           << "launched group '@" << name << "', which failed in " << *who;
  // The group returns lane 0's results; the verifier has checked that the
  // cube function returns nothing and that two-lane groups return nothing.
  results.assign(outcomes[1]->begin(), outcomes[1]->end());
  return success();
}

void interp::registerCrossCoreHandlers(HandlerMap &map) {
  addHandler<AicInitializePipeOp>(map,
                                  runInitializePipe<AicInitializePipeOp, true>);
  addHandler<AivInitializePipeOp>(
      map, runInitializePipe<AivInitializePipeOp, false>);
  addHandler<TPushToAivOp>(map, runPush<TPushToAivOp, true>);
  addHandler<TPushToAicOp>(map, runPush<TPushToAicOp, false>);
  addHandler<TPopFromAicOp>(map, runPop<TPopFromAicOp, false>);
  addHandler<TPopFromAivOp>(map, runPop<TPopFromAivOp, true>);
  addHandler<GetSubblockIdxOp>(map, runSubblockIdx);
}
