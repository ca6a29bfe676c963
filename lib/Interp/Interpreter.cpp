//===- Interpreter.cpp - The PTO executor ---------------------------------===//
//
// A tree-walking interpreter: each op is dispatched through a table keyed by
// its TypeID to the handler of its family. Each function invocation gets its
// own values and byte pools.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "GroupRuntime.h"
#include "MixedKernel.h"
#include "TaskScheduler.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/IR/SymbolTable.h"

#include <atomic>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

Interpreter::Interpreter(ModuleOp module, InterpreterOptions options)
    : module(module), options(std::move(options)) {
  registerControlFlowHandlers(handlers);
  registerArithHandlers(handlers);
  registerTileDataHandlers(handlers);
  registerElementwiseHandlers(handlers);
  registerReductionHandlers(handlers);
  registerMatmulHandlers(handlers);
  registerTensorHandlers(handlers);
  registerCrossCoreHandlers(handlers);
  registerIndexHandlers(handlers);
  registerAscendCHandlers(handlers);
  registerMemRefHandlers(handlers);
  registerRegScopeHandlers(handlers);
}

Interpreter::~Interpreter() = default;

FunctionOpInterface Interpreter::lookupFunction(StringRef name) const {
  return dyn_cast_or_null<FunctionOpInterface>(
      SymbolTable::lookupSymbolIn(module, name));
}

OpHandler Interpreter::getHandler(Operation *op) const {
  return handlers.lookup(op->getName().getTypeID());
}

static bool isExecutableType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return getElementKind(type).has_value();
}

LogicalResult Interpreter::checkBlockTypes(Block &block) {
  std::lock_guard<std::mutex> lock(checkedBlocksMutex);
  if (checkedBlocks.contains(&block))
    return success();
  for (BlockArgument arg : block.getArguments())
    if (!isExecutableType(arg.getType()))
      return block.getParentOp()->emitOpError()
             << "has a block argument of type " << arg.getType()
             << ", which the executor does not support";
  for (Operation &op : block)
    for (Type type : op.getResultTypes())
      if (!isExecutableType(type))
        return op.emitOpError() << "produces a value of type " << type
                                << ", which the executor does not support";
  checkedBlocks.insert(&block);
  return success();
}

/// Checks that a runtime value fits the declared type of an argument.
static LogicalResult checkArgument(FunctionOpInterface func, unsigned index,
                                   Type type, const RuntimeValue &value) {
  auto fail = [&](const Twine &what) {
    return func->emitError()
           << "argument #" << index << " of @" << func.getName() << " has type "
           << type << ", but the value passed is " << what;
  };
  if (isa<pto::GMTensorType, ascendc::GlobalTensorType>(type)) {
    auto tensorType = cast<ShapedType>(type);
    auto *tensor = std::get_if<TensorValue>(&value);
    if (!tensor)
      return fail("not a GM tensor");
    if (tensor->kind() != kindOf(tensorType.getElementType()))
      return fail("a tensor of " + getKindName(tensor->kind()));
    if (failed(verifyCompatibleShape(tensorType.getShape(), tensor->shape)) ||
        tensorType.getRank() != static_cast<int64_t>(tensor->shape.size()))
      return fail("a tensor of shape " + formatShape(tensor->shape));
    return success();
  }
  if (isa<pto::TileType>(type)) {
    auto *tile = std::get_if<TileValue>(&value);
    if (!tile || Type(tile->type) != type)
      return fail("not a tile of that type");
    return success();
  }
  auto *scalar = std::get_if<Scalar>(&value);
  if (!scalar || scalar->kind != kindOf(type))
    return fail("not a scalar of that type");
  return success();
}

FailureOr<SmallVector<RuntimeValue>>
Interpreter::call(FunctionOpInterface func, ArrayRef<RuntimeValue> args,
                  const CoreState &state) {
  return invoke(func, args, state, nullptr);
}

FailureOr<SmallVector<RuntimeValue>>
Interpreter::invoke(FunctionOpInterface func, ArrayRef<RuntimeValue> args,
                    const CoreState &state, TaskScheduler *tasks) {
  if (func.isExternal())
    return func->emitError()
           << "cannot run @" << func.getName() << ": it has no body";
  ArrayRef<Type> argTypes = func.getArgumentTypes();
  if (args.size() != argTypes.size())
    return func->emitError()
           << "@" << func.getName() << " takes " << argTypes.size()
           << " arguments, got " << args.size();
  for (auto [index, type, value] : llvm::enumerate(argTypes, args))
    if (failed(checkArgument(func, index, type, value)))
      return failure();
  // A kernel with cube and vector groups runs on both cores at once.
  bool mixedCore = currentMixedCore().has_value();
  if (!mixedCore && isMixedKernel(func))
    return runMixedKernel(*this, func, args, state);
  ExecContext context(*this, state);
  context.setScheduler(tasks);
  // A group run as the entry launches its members, as a call of it does
  // (its own body only returns).
  if (pto::getFunctionKind(func) == pto::FunctionKind::Group)
    if (std::optional<pto::GroupInfo> group = pto::resolveGroup(func)) {
      SmallVector<RuntimeValue> results;
      if (failed(runGroupCall(context, func, func, *group, args, results)))
        return failure();
      return results;
    }
  SmallVector<RuntimeValue> bound(args.begin(), args.end());
  FailureOr<SmallVector<RuntimeValue>> results =
      context.runRegion(func.getFunctionBody(), bound);
  // An AscendC kernel ends with no flag still set (a mixed kernel's, once
  // both cores have returned).
  if (succeeded(results) && context.ascendc && !mixedCore &&
      failed(checkFlagsWaited(*context.ascendc, func)))
    return failure();
  return results;
}

/// A launched AscendC kernel's block (ordered by its own flags), or none
/// for a PTO function.
static std::optional<CompiledBlock> compiledBlock(FunctionOpInterface func,
                                                  unsigned blocks) {
  bool ascendc = func->walk([](Operation *op) {
                       return isa<ascendc::AscendCDialect>(op->getDialect())
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
  if (!ascendc)
    return std::nullopt;
  return CompiledBlock{blocks, ascendc::getKernelCores(func) ==
                                   ascendc::KernelCores::Vector};
}

FailureOr<SmallVector<RuntimeValue>>
Interpreter::launch(FunctionOpInterface func, ArrayRef<RuntimeValue> args,
                    unsigned blocks) {
  if (runsTasks())
    return launchTasks(func, args, blocks);
  FailureOr<SmallVector<RuntimeValue>> results = SmallVector<RuntimeValue>();
  for (unsigned block = 0; block < blocks; ++block) {
    CoreState state{block, blocks, std::nullopt};
    // A launch of an in-core function makes each block a work item; an
    // orchestration entry makes its own per call.
    std::optional<pto::FunctionKind> kind = pto::getFunctionKind(func);
    std::optional<TracedWorkItem> item;
    if (kind != pto::FunctionKind::Orchestration)
      item.emplace(*this, state, compiledBlock(func, blocks));
    results = call(func, args, state);
    if (failed(results))
      return failure();
  }
  return results;
}

bool Interpreter::runsTasks() const {
  return options.threads > 1 && !isTracing() && !options.maxSteps &&
         !options.observeOp;
}

FailureOr<SmallVector<RuntimeValue>>
Interpreter::launchTasks(FunctionOpInterface func, ArrayRef<RuntimeValue> args,
                         unsigned blocks) {
  TaskScheduler tasks(*this, module.getContext(), options.threads);
  bool orchestration =
      pto::getFunctionKind(func) == pto::FunctionKind::Orchestration;
  FailureOr<SmallVector<RuntimeValue>> results = SmallVector<RuntimeValue>();
  std::vector<Diagnostic> diagnostics;
  {
    CaptureScope capture(diagnostics);
    for (unsigned block = 0; block < blocks && !tasks.hasFailed(); ++block) {
      CoreState state{block, blocks, std::nullopt};
      if (orchestration) {
        results = invoke(func, args, state, &tasks);
      } else if (auto predicted = tasks.trySubmit(nullptr, func, args, state)) {
        results = std::move(*predicted);
      } else {
        if (failed(tasks.drain()))
          break;
        results = call(func, args, state);
      }
      if (failed(results))
        break;
    }
    (void)tasks.drain();
  }
  if (failed(tasks.report(diagnostics)))
    return failure();
  return results;
}

//===----------------------------------------------------------------------===//
// ExecContext
//===----------------------------------------------------------------------===//

SmallVector<int64_t, 4> ExecContext::indices(ValueRange range) const {
  SmallVector<int64_t, 4> result;
  result.reserve(range.size());
  for (Value value : range)
    result.push_back(index(value));
  return result;
}

TileValue ExecContext::tile(Value value) {
  const TileValue &stored = std::get<TileValue>(values.find(value)->second);
  if (!stored.type.getAddr())
    return stored;
  TileValue loaded =
      pools.load(stored.type, stored.kind(), stored.valid, stored.writeId);
  mergeUndefined(loaded.undefined, stored.undefined);
  loaded.buffer = stored.buffer;
  return loaded;
}

std::shared_ptr<ArrayData> ExecContext::dataForUpdate(Value value,
                                                      Operation *user) {
  const TileValue &stored = storedTile(value);
  Block *binder = isa<BlockArgument>(value)
                      ? cast<BlockArgument>(value).getOwner()
                      : value.getDefiningOp()->getBlock();
  if (!stored.type.getAddr() && stored.data.use_count() == 1 &&
      value.hasOneUse() && binder == user->getBlock())
    return stored.data;
  return std::make_shared<ArrayData>(*tile(value).data);
}

/// Names each write of an addressed tile for --undefined=check.
static uint64_t newWriteId() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

void ExecContext::set(Value value, RuntimeValue runtimeValue, bool writeBytes,
                      uint64_t writeId) {
  if (auto *tile = std::get_if<TileValue>(&runtimeValue)) {
    if (tile->buffer == 0)
      tile->buffer =
          interpreter.getStaticBuffer(value, getWorkItem(), state.core);
    if (tile->type.getAddr()) {
      if (interpreter.getOptions().undefined == UndefinedData::Check)
        tile->writeId = writeId ? writeId : newWriteId();
      if (writeBytes)
        pools.store(*tile);
    }
  }
  values.insert_or_assign(value, std::move(runtimeValue));
}

void ExecContext::setWrittenTogether(
    ArrayRef<std::pair<Value, TileValue>> tiles) {
  uint64_t writeId = newWriteId();
  for (const auto &[value, tile] : tiles)
    set(value, tile, /*writeBytes=*/true, writeId);
}

/// Whether `op` itself reads or writes GM data, so that the tasks before it
/// must have finished: ops on GM tensors other than control flow (whose
/// bodies are looked at op by op), calls (which decide for themselves) and
/// the ops that read only a tensor's shape.
static bool readsOrWritesGM(Operation &op) {
  if (op.getNumRegions() != 0 || isa<CallOpInterface>(op) ||
      isa<pto::TensorDimOp, pto::TensorViewOp>(op))
    return false;
  return llvm::any_of(op.getOperandTypes(),
                      [](Type type) { return isa<pto::GMTensorType>(type); });
}

FailureOr<SmallVector<RuntimeValue>>
ExecContext::runRegion(Region &region, MutableArrayRef<RuntimeValue> args) {
  if (!region.hasOneBlock())
    return region.getParentOp()->emitOpError()
           << "has a region with several blocks; the executor runs "
              "structured control flow (scf) only";
  Block &block = region.front();
  if (failed(interpreter.checkBlockTypes(block)))
    return failure();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    set(arg, std::move(value));
  const InterpreterOptions &options = interpreter.getOptions();
  // A cancelled group stops its threads at the next op or region entry
  // (loop iteration), quietly.
  if (isGroupCancelled(state.core))
    return failure();
  for (Operation &op : block.without_terminator()) {
    if (isGroupCancelled(state.core))
      return failure();
    if (failed(interpreter.countStep(&op)))
      return failure();
    if (scheduler && readsOrWritesGM(op) && failed(scheduler->drain()))
      return failure();
    OpHandler handler = interpreter.getHandler(&op);
    if (!handler)
      return op.emitOpError() << "is not supported by the executor";
    // Under --undefined=check, pto ops may not read undefined elements.
    SmallVector<TileOperand> tileOperands;
    bool checking = options.undefined == UndefinedData::Check &&
                    isa<pto::PTODialect>(op.getDialect());
    if (checking) {
      for (OpOperand &operand : op.getOpOperands())
        if (isa<pto::TileType>(operand.get().getType()))
          tileOperands.push_back(
              {operand.getOperandNumber(), tile(operand.get())});
      if (failed(checkUndefinedReads(*this, &op, tileOperands)))
        return failure();
    }
    if (failed(handler(*this, &op)))
      return failure();
    if (checking)
      propagateUndefined(*this, &op, tileOperands);
    if (interpreter.isTracing() && failed(emitTraceRecords(*this, &op)))
      return failure();
    if (options.observeOp) {
      SmallVector<RuntimeValue> results;
      for (Value result : op.getResults())
        results.push_back(get(result));
      options.observeOp(&op, results);
    }
  }
  // The terminator (return, yield, condition) hands its operands back.
  SmallVector<RuntimeValue> results;
  for (Value operand : block.getTerminator()->getOperands())
    results.push_back(std::get_if<TileValue>(&get(operand))
                          ? RuntimeValue(tile(operand))
                          : get(operand));
  // Values of the block are out of scope from here: unbinding them frees
  // their elements and leaves the results their only holders (a loop's
  // accumulator is then updated in place, see dataForUpdate).
  for (Operation &op : block.without_terminator())
    for (Value result : op.getResults())
      values.erase(result);
  return results;
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

LogicalResult interp::checkValidShape(Operation *op, ArrayRef<int64_t> valid,
                                      ArrayRef<int64_t> box) {
  for (auto [extent, dim] : llvm::zip(valid, box))
    if (extent < 0 || extent > dim)
      return op->emitOpError() << "valid shape " << formatShape(valid)
                               << " does not fit the box " << formatShape(box);
  return success();
}

void Interpreter::noteStalled(ArrayRef<StalledWait> waits) {
  std::lock_guard<std::mutex> lock(stalledWaitsMutex);
  stalled = true;
  stalledWaits.insert(stalledWaits.end(), waits.begin(), waits.end());
}

std::vector<StalledWait> Interpreter::getStalledWaits() const {
  std::lock_guard<std::mutex> lock(stalledWaitsMutex);
  return stalledWaits;
}

LogicalResult Interpreter::countStep(Operation *op) {
  if (options.opsRun)
    options.opsRun->fetch_add(1, std::memory_order_relaxed);
  if (!options.maxSteps && !options.timeout.count())
    return success(); // No shared counter without limits.
  uint64_t done = steps.fetch_add(1, std::memory_order_relaxed) + 1;
  if (options.maxSteps && done > options.maxSteps) {
    noteStalled();
    return op->emitOpError()
           << "was about to run when the kernel reached --max-steps "
           << options.maxSteps << "; stopped";
  }
  // The clock is read every 4096 ops: cheap, and prompt enough.
  if (options.timeout.count() && done % 4096 == 0 &&
      std::chrono::steady_clock::now() - started > options.timeout) {
    noteStalled();
    return op->emitOpError()
           << "was about to run when the kernel reached its --timeout of "
           << options.timeout.count() << " ms (" << done
           << " ops run); stopped";
  }
  return success();
}

WorkspaceRegion
Interpreter::sharedWorkspace(StringRef host, int64_t offset, Type type,
                             llvm::function_ref<WorkspaceRegion()> make) {
  std::lock_guard<std::mutex> lock(sharedWorkspacesMutex);
  auto [it, fresh] = sharedWorkspaces.try_emplace(
      std::tuple(host.str(), offset, type.getAsOpaquePointer()));
  if (fresh)
    it->second = make();
  return it->second;
}

std::shared_ptr<std::vector<uint8_t>>
Interpreter::sharedUnwritten(const TensorStorage *storage) {
  std::lock_guard<std::mutex> lock(sharedWorkspacesMutex);
  for (auto &[key, region] : sharedWorkspaces)
    if (region.tensor.storage.get() == storage)
      return region.unwritten;
  return nullptr;
}

uint64_t Interpreter::getStaticBuffer(Value value, uint32_t item,
                                      const CoreIdentity *core) {
  // The vector lanes of a group have buffers of their own.
  uint64_t owner =
      uint64_t(item) << 2 | (core && !core->isCube ? core->lane + 1 : 0);
  // An addressed tile is its storage: tiles that memory planning put at one
  // address are one buffer, as on the machine.
  auto tile = dyn_cast<pto::TileType>(value.getType());
  std::lock_guard<std::mutex> lock(staticBuffersMutex);
  uint64_t &buffer =
      tile && tile.getAddr()
          ? storageBuffers[{static_cast<unsigned>(tile.getMemorySpace()),
                            *tile.getAddr(), owner}]
          : staticBuffers[{value.getAsOpaquePointer(), owner}];
  if (!buffer)
    buffer = newBufferId();
  return buffer;
}

void Interpreter::emit(const trace::Record &record, const CoreIdentity *core) {
  if (core) {
    core->stream.records.push_back(record);
    return;
  }
  std::lock_guard<std::mutex> lock(traceMutex);
  options.trace->emit(record);
}

uint16_t Interpreter::intern(StringRef name, const CoreIdentity *core) {
  if (core)
    return core->stream.tables.intern(name);
  std::lock_guard<std::mutex> lock(traceMutex);
  return options.trace->getTables().intern(name);
}

uint32_t Interpreter::internLocation(Location loc, const CoreIdentity *core) {
  auto position = loc->findInstanceOf<FileLineColLoc>();
  if (!position)
    return 0;
  StringRef file = position.getFilename().getValue();
  if (core)
    return core->stream.tables.internLocation(file, position.getLine(),
                                              position.getColumn());
  std::lock_guard<std::mutex> lock(traceMutex);
  return options.trace->getTables().internLocation(file, position.getLine(),
                                                   position.getColumn());
}

void Interpreter::emitGroupStreams(ArrayRef<const CoreIdentity *> cores,
                                   uint64_t firstBuffer) {
  std::lock_guard<std::mutex> lock(traceMutex);
  trace::TraceTables &tables = options.trace->getTables();
  // Names and locations into the sink's tables, stream by stream.
  std::vector<std::vector<trace::Record>> streams;
  for (const CoreIdentity *core : cores) {
    const trace::TraceTables &local = core->stream.tables;
    std::vector<trace::Record> &records = core->stream.records;
    for (trace::Record &record : records) {
      if (record.dtype)
        record.dtype = tables.intern(local.name(record.dtype));
      if (record.getKind() == trace::RecordKind::Compute)
        record.op = tables.intern(local.name(record.op));
      if (const trace::SourceLocation *loc = local.location(record.loc))
        record.loc = tables.internLocation(local.name(loc->file), loc->line,
                                           loc->column);
    }
    streams.push_back(std::move(records));
    core->stream = trace::Trace();
  }
  DenseMap<uint64_t, uint64_t> renumbered;
  for (trace::Record &record : trace::mergeCoreStreams(streams)) {
    for (uint64_t &buffer :
         MutableArrayRef(record.buffers, record.num_reads + record.num_writes))
      if (buffer >= firstBuffer)
        buffer = renumbered.try_emplace(buffer, firstBuffer + renumbered.size())
                     .first->second;
    options.trace->emit(record);
  }
}

void interp::initializeProcess() {
#if defined(__GLIBC__)
  // Serve buffers up to 256 MiB from the heap and keep up to 512 MiB of
  // freed memory there for the next op.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}
