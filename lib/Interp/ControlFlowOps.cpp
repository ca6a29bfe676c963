//===- ControlFlowOps.cpp - scf and func in the executor ------------------===//
//
// Loop-carried values are collected from the whole yield before any of them
// is rebound, so carries update simultaneously (a swap works).
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "GroupRuntime.h"
#include "TaskScheduler.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

static SmallVector<RuntimeValue> valuesOf(ExecContext &context,
                                          ValueRange range) {
  SmallVector<RuntimeValue> result;
  for (Value value : range)
    result.push_back(isa<pto::TileType>(value.getType())
                         ? RuntimeValue(context.tile(value))
                         : context.get(value));
  return result;
}

static void bindResults(ExecContext &context, Operation *op,
                        ArrayRef<RuntimeValue> values) {
  for (auto [result, value] : llvm::zip(op->getResults(), values))
    context.set(result, value);
}

static LogicalResult runFor(ExecContext &context, Operation *raw) {
  auto op = cast<scf::ForOp>(raw);
  Scalar lower = context.scalar(op.getLowerBound());
  int64_t upper = context.scalar(op.getUpperBound()).i;
  int64_t step = context.scalar(op.getStep()).i;
  if (step <= 0)
    return op.emitOpError() << "has step " << step << "; it must be positive";
  SmallVector<RuntimeValue> carried = valuesOf(context, op.getInitArgs());
  SmallVector<RuntimeValue> blockArgs;
  for (int64_t iv = lower.i; iv < upper; iv += step) {
    blockArgs.clear();
    blockArgs.push_back(Scalar::ofInt(lower.kind, iv));
    // Moved, so that the body's bindings hold the only references.
    blockArgs.append(std::make_move_iterator(carried.begin()),
                     std::make_move_iterator(carried.end()));
    FailureOr<SmallVector<RuntimeValue>> yielded =
        context.runRegion(op.getRegion(), blockArgs);
    if (failed(yielded))
      return failure();
    carried = std::move(*yielded);
  }
  bindResults(context, op, carried);
  return success();
}

static LogicalResult runWhile(ExecContext &context, Operation *raw) {
  auto op = cast<scf::WhileOp>(raw);
  SmallVector<RuntimeValue> carried = valuesOf(context, op.getInits());
  while (true) {
    FailureOr<SmallVector<RuntimeValue>> before =
        context.runRegion(op.getBefore(), carried);
    if (failed(before))
      return failure();
    // scf.condition(%cond) %args...: the first value decides.
    bool proceed = std::get<Scalar>((*before)[0]).i != 0;
    SmallVector<RuntimeValue> forwarded(before->begin() + 1, before->end());
    if (!proceed) {
      bindResults(context, op, forwarded);
      return success();
    }
    FailureOr<SmallVector<RuntimeValue>> after =
        context.runRegion(op.getAfter(), forwarded);
    if (failed(after))
      return failure();
    carried = std::move(*after);
  }
}

static LogicalResult runIf(ExecContext &context, Operation *raw) {
  auto op = cast<scf::IfOp>(raw);
  bool condition = context.scalar(op.getCondition()).i != 0;
  Region &region = condition ? op.getThenRegion() : op.getElseRegion();
  if (region.empty())
    return success(); // an if without else and without results
  FailureOr<SmallVector<RuntimeValue>> results = context.runRegion(region, {});
  if (failed(results))
    return failure();
  bindResults(context, op, *results);
  return success();
}

static LogicalResult runCall(ExecContext &context, Operation *raw) {
  auto op = cast<func::CallOp>(raw);
  Interpreter &interpreter = context.getInterpreter();
  FunctionOpInterface callee = interpreter.lookupFunction(op.getCallee());
  if (!callee)
    return op.emitOpError()
           << "calls '@" << op.getCallee() << "', which does not exist";
  SmallVector<RuntimeValue> args = valuesOf(context, op.getOperands());
  // Each launch of an in-core function or group is one work item.
  std::optional<pto::FunctionKind> kind = pto::getFunctionKind(callee);
  CoreState &state = context.getCoreState();
  std::optional<TracedWorkItem> item;
  if (kind == pto::FunctionKind::InCore || kind == pto::FunctionKind::Group)
    item.emplace(interpreter, state);
  if (ExternalCalls *external = interpreter.getOptions().external;
      external && external->handles(callee)) {
    FailureOr<SmallVector<RuntimeValue>> results = external->call(
        callee, args, state.blockIndex, state.blockCount, interpreter);
    if (failed(results))
      return reportFailedCall(op, callee);
    bindResults(context, op, *results);
    return success();
  }
  // Under --threads, an in-core call becomes a task when its footprint is
  // known; anything else waits for the tasks before it.
  if (TaskScheduler *scheduler = context.getScheduler()) {
    if (scheduler->hasFailed())
      return failure();
    if (kind == pto::FunctionKind::InCore)
      if (std::optional<SmallVector<RuntimeValue>> results =
              scheduler->trySubmit(op, callee, args, state)) {
        bindResults(context, op, *results);
        return success();
      }
    if (failed(scheduler->drain()))
      return failure();
  }
  if (std::optional<pto::GroupInfo> group = pto::resolveGroup(callee)) {
    SmallVector<RuntimeValue> results;
    if (failed(runGroupCall(context, op, callee, *group, args, results)))
      return failure();
    bindResults(context, op, results);
    return success();
  }
  FailureOr<SmallVector<RuntimeValue>> results =
      interpreter.call(callee, args, state);
  if (failed(results)) {
    // A cancelled group thread stops quietly; its group reports why.
    if (isGroupCancelled(state.core))
      return failure();
    return reportFailedCall(op, callee);
  }
  bindResults(context, op, *results);
  return success();
}

/// A launch runs its kernel once per block, each block a work item, in
/// block order: the blocks of a launch have no order between them, so any
/// order computes the same.
static LogicalResult runLaunch(ExecContext &context, Operation *raw) {
  auto op = cast<ascendc::LaunchOp>(raw);
  Interpreter &interpreter = context.getInterpreter();
  FunctionOpInterface kernel = interpreter.lookupFunction(op.getCallee());
  if (!kernel)
    return op.emitOpError()
           << "launches '@" << op.getCallee() << "', which does not exist";
  int64_t blocks = context.index(op.getBlocks());
  if (blocks <= 0 || blocks > std::numeric_limits<int32_t>::max())
    return op.emitOpError()
           << "launches " << blocks << " blocks; a launch has at least one";
  SmallVector<RuntimeValue> args = valuesOf(context, op.getArgs());
  ExternalCalls *external = interpreter.getOptions().external;
  if (TaskScheduler *scheduler = context.getScheduler())
    if (failed(scheduler->drain()))
      return failure();
  // Compiled, the whole launch may run at once, through its host code.
  if (external && external->handles(kernel)) {
    if (auto ran = external->launchAll(kernel, args, blocks, interpreter))
      return failed(*ran) ? reportFailedCall(op, kernel) : success();
  }
  for (int64_t block = 0; block < blocks; ++block) {
    CoreState state{static_cast<unsigned>(block), static_cast<unsigned>(blocks),
                    std::nullopt};
    // A compiled kernel's block: its own flags order it.
    TracedWorkItem item(interpreter, state,
                        CompiledBlock{static_cast<uint64_t>(blocks),
                                      ascendc::getKernelCores(kernel) ==
                                          ascendc::KernelCores::Vector});
    FailureOr<SmallVector<RuntimeValue>> results =
        external && external->handles(kernel)
            ? external->call(kernel, args, state.blockIndex, state.blockCount,
                             interpreter)
            : interpreter.call(kernel, args, state);
    if (failed(results))
      return reportFailedCall(op, kernel);
  }
  return success();
}

LogicalResult interp::reportFailedCall(Operation *call,
                                       FunctionOpInterface callee) {
  return call->emitOpError()
         << "failed in its call of '@" << callee.getName() << "'";
}

void interp::registerControlFlowHandlers(HandlerMap &map) {
  addHandler<scf::ForOp>(map, runFor);
  addHandler<scf::WhileOp>(map, runWhile);
  addHandler<scf::IfOp>(map, runIf);
  addHandler<func::CallOp>(map, runCall);
  addHandler<ascendc::LaunchOp>(map, runLaunch);
}
