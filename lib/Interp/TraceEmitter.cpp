//===- TraceEmitter.cpp - Trace records of executed ops -------------------===//
//
// After each op runs, the executor describes what the machine would do as
// trace records (docs/trace-format.md): loads, stores and moves become DMAs
// on their paths, cube and vector ops become COMPUTE records, flags and
// barriers become sync records, cross-core pipes push and pop records. Each
// record names the core it runs on and its source location. Buffers are
// named by the tiles' buffer ids and the GM tensors' storage ids. The
// timing model reads only these.
//
//===----------------------------------------------------------------------===//

#include "AscendCMachine.h"
#include "ExecContext.h"
#include "GroupRuntime.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;
using trace::DmaPath;
using trace::Record;
using trace::RecordKind;
using trace::Space;

using trace::CoreKind;

TracedWorkItem::TracedWorkItem(Interpreter &interpreter, CoreState &state,
                               std::optional<CompiledBlock> block)
    : interpreter(interpreter), state(state) {
  if (!interpreter.isTracing() || state.workItem)
    return;
  began = true;
  state.workItem = interpreter.newWorkItem();
  Record begin(RecordKind::WorkBegin);
  begin.setCore(block && block->oneVectorCore ? CoreKind::Vector
                                              : CoreKind::AiCore);
  if (block) {
    begin.flags = TILEKIT_TRACE_EXPLICIT_SYNC;
    begin.amount = block->blocks;
  }
  begin.item = *state.workItem;
  interpreter.emit(begin, state.core);
}

TracedWorkItem::~TracedWorkItem() {
  if (!began)
    return;
  Record end(RecordKind::WorkEnd);
  end.setCore(CoreKind::AiCore);
  end.item = *state.workItem;
  interpreter.emit(end, state.core);
  state.workItem.reset();
}

void ExecContext::emit(Record record) {
  if (const CoreIdentity *core = state.core)
    record.setCore(core->isCube ? CoreKind::Cube : CoreKind::Vector,
                   core->isCube ? 0 : core->lane);
  else
    record.setCore(trace::defaultCore(record));
  interpreter.emit(record, state.core);
}

uint16_t ExecContext::intern(StringRef name) {
  return interpreter.intern(name, state.core);
}

uint32_t ExecContext::locationOf(Operation *op) {
  return interpreter.internLocation(op->getLoc(), state.core);
}

static int64_t validElements(const TileValue &tile) {
  return product(tile.valid);
}

static uint64_t boxBytes(const TileValue &tile) {
  return product(tile.shape()) * getByteSize(tile.kind());
}

/// Fills the shape fields from the last (up to three) extents.
static void setShape(Record &record, ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  for (size_t i = 0; i < std::min<size_t>(rank, 3); ++i)
    record.shape[i] =
        static_cast<uint32_t>(shape[rank - std::min<size_t>(rank, 3) + i]);
}

/// A record of `op` in the current work item, with the written tile's
/// buffer.
static Record makeRecord(ExecContext &context, Operation *op, RecordKind kind,
                         const TileValue *written) {
  Record record(kind);
  record.item = context.getWorkItem();
  record.loc = context.locationOf(op);
  if (written) {
    record.addWrite(written->buffer);
    record.setSpace(getBuffer(written->type.getMemorySpace()));
    record.write_bytes = boxBytes(*written);
  }
  return record;
}

static void emitDma(ExecContext &context, DmaPath path, Record record,
                    uint64_t bytes, unsigned elementSize) {
  record.sub = static_cast<uint8_t>(path);
  record.amount = bytes;
  record.elem_size = elementSize;
  context.emit(record);
}

/// The linear element offset of `offsets` in a row-major `shape`, and the
/// strides of its two innermost dimensions.
static uint64_t gmOffset(ArrayRef<int64_t> shape, ArrayRef<int64_t> offsets,
                         Record &record) {
  uint64_t linear = 0;
  for (auto [dim, offset] : llvm::zip(shape, offsets))
    linear = linear * dim + offset;
  record.strides[0] = shape.size() >= 2 ? shape.back() : 1;
  record.strides[1] = 1;
  return linear;
}

static void emitLoad(ExecContext &context, TileLoadOp op, DmaPath path) {
  TileValue tile = context.tile(op.getResult());
  TensorValue &src = context.tensor(op.getSrc());
  Record record = makeRecord(context, op, RecordKind::Dma, &tile);
  record.addRead(src.storage->buffer);
  setShape(record, tile.valid);
  record.gm_offset =
      gmOffset(src.shape, context.indices(op.getOffsets()), record);
  unsigned size = getByteSize(tile.kind());
  emitDma(context, path, std::move(record), validElements(tile) * size, size);
}

static void emitStore(ExecContext &context, TileStoreOp op, DmaPath path) {
  TileValue tile = context.tile(op.getTile());
  TensorValue &dst = context.tensor(op.getDst());
  Record record = makeRecord(context, op, RecordKind::Dma, nullptr);
  record.addRead(tile.buffer);
  record.addWrite(dst.storage->buffer);
  setShape(record, tile.valid);
  record.gm_offset =
      gmOffset(dst.shape, context.indices(op.getOffsets()), record);
  unsigned size = getByteSize(dst.kind());
  emitDma(context, path, std::move(record), validElements(tile) * size, size);
}

static void emitMove(ExecContext &context, TileMoveOp op, DmaPath path) {
  TileValue src = context.tile(op.getSrc());
  TileValue dst = context.tile(op.getResult());
  Record record = makeRecord(context, op, RecordKind::Dma, &dst);
  record.addRead(src.buffer);
  setShape(record, dst.shape());
  unsigned size = getByteSize(dst.kind());
  emitDma(context, path, std::move(record), boxBytes(dst), size);
}

/// A cross-core record on the op's path (PipeOpInterface): cube to vector
/// leaves L0C through the fixpipe, vector to cube enters L1. `tile` is the
/// pushed tile or the popped one.
static Record makeTransfer(ExecContext &context, Operation *op, RecordKind kind,
                           const TileValue &tile, unsigned laneMask) {
  Record record =
      makeRecord(context, op, kind, kind == RecordKind::Pop ? &tile : nullptr);
  if (kind == RecordKind::Push)
    record.addRead(tile.buffer);
  setShape(record, tile.valid);
  unsigned size = getByteSize(tile.kind());
  record.sub = static_cast<uint8_t>(*cast<PipeOpInterface>(op).getDataPath());
  record.amount = validElements(tile) * size;
  record.elem_size = size;
  record.op =
      static_cast<uint16_t>(op->getAttrOfType<IntegerAttr>("pipe_id").getInt());
  record.tag_id = laneMask;
  return record;
}

void interp::emitPush(ExecContext &context, Operation *op,
                      const TileValue &tile, unsigned laneMask, int64_t slots) {
  Record record = makeTransfer(context, op, RecordKind::Push, tile, laneMask);
  record.tag_slot = static_cast<uint32_t>(slots);
  context.emit(record);
}

void interp::emitPop(ExecContext &context, Operation *op, const TileValue &tile,
                     unsigned laneMask) {
  context.emit(makeTransfer(context, op, RecordKind::Pop, tile, laneMask));
}

/// A cube op: M x K x N from the operand boxes (a batch folds into M).
static void emitMatmul(ExecContext &context, MatmulOpInterface mm) {
  Operation *op = mm.getOperation();
  TileValue a = context.tile(mm.getLeftOperand());
  TileValue b = context.tile(mm.getRightOperand());
  TileValue c = context.tile(op->getResult(0));
  Record record = makeRecord(context, op, RecordKind::Compute, &c);
  record.sub = static_cast<uint8_t>(trace::Unit::Cube);
  StringRef name = op->getName().stripDialect();
  name.consume_front("tile.");
  record.op = context.intern(name);
  record.dtype = context.intern(getKindName(a.kind()));
  record.elem_size = getByteSize(a.kind());
  ArrayRef<int64_t> as = a.shape(), bs = b.shape();
  size_t rank = as.size();
  int64_t batch = mm.getBatchCount();
  record.shape[0] = static_cast<uint32_t>(batch * as[rank - 2]);
  record.shape[1] = static_cast<uint32_t>(as[rank - 1]);
  record.shape[2] = static_cast<uint32_t>(bs[rank - 1]);
  record.amount = static_cast<uint64_t>(record.shape[0]) * record.shape[1] *
                  record.shape[2];
  record.addRead(a.buffer);
  record.addRead(b.buffer);
  if (Value bias = mm.getBiasOperand())
    record.addRead(context.tile(bias).buffer);
  // Accumulating into L0C unless init_cond overwrites it.
  Value init = mm.getInitCondition();
  record.setFlag(mm.getAccumulator() && !(init && context.scalar(init).i));
  if (record.hasFlag())
    record.addRead(c.buffer);
  context.emit(record);
}

/// A vector op over its tile operands into its tile result.
static void emitVector(ExecContext &context, Operation *op) {
  Value resultValue = op->getResult(0);
  TileValue result = context.tile(resultValue);
  Record record = makeRecord(context, op, RecordKind::Compute, &result);
  // Further tile results (argmax's and the sorts' indices) are written by
  // the same instruction.
  for (Value extra : op->getResults().drop_front()) {
    TileValue tile = context.tile(extra);
    record.addWrite(tile.buffer);
    record.write_bytes += boxBytes(tile);
  }
  record.sub = static_cast<uint8_t>(trace::Unit::Vector);
  StringRef name = op->getName().stripDialect();
  name.consume_front("tile.");
  record.op = context.intern(name);
  int64_t elements = validElements(result);
  ElementKind kind = result.kind();
  for (Value operand : op->getOperands()) {
    if (!isa<TileType>(operand.getType()))
      continue;
    TileValue tile = context.tile(operand);
    record.addRead(tile.buffer);
    if (validElements(tile) > elements || operand == op->getOperand(0)) {
      elements = std::max(elements, validElements(tile));
      kind = tile.kind();
    }
  }
  setShape(record, result.valid);
  record.dtype = context.intern(getKindName(kind));
  record.elem_size = getByteSize(kind);
  record.amount = elements;
  context.emit(record);
}

static void emitSync(ExecContext &context, Operation *op, RecordKind kind,
                     Pipe set, Pipe wait, int64_t event) {
  Record record = makeRecord(context, op, kind, nullptr);
  record.set_pipe = static_cast<uint8_t>(set);
  record.wait_pipe = static_cast<uint8_t>(wait);
  record.op = static_cast<uint16_t>(event);
  context.emit(record);
}

static void emitBarrier(ExecContext &context, Operation *op, trace::Pipe pipe) {
  Record record = makeRecord(context, op, RecordKind::PipeBarrier, nullptr);
  record.sub = static_cast<uint8_t>(pipe);
  context.emit(record);
}

LogicalResult interp::emitTraceRecords(ExecContext &context, Operation *op) {
  if (isa_and_present<ascendc::AscendCDialect>(op->getDialect()))
    return emitAscendCTraceRecords(context, op);
  if (!isa_and_present<PTODialect>(op->getDialect()))
    return success();
  // Flags and barriers order pipes.
  if (auto sync = dyn_cast<SyncSrcOp>(op)) {
    emitSync(context, op, RecordKind::SetFlag, sync.getSetPipe(),
             sync.getWaitPipe(), sync.getEventIdAttr().getInt());
    return success();
  }
  if (auto sync = dyn_cast<SyncDstOp>(op)) {
    emitSync(context, op, RecordKind::WaitFlag, sync.getSetPipe(),
             sync.getWaitPipe(), sync.getEventIdAttr().getInt());
    return success();
  }
  if (isa<BarVOp>(op)) {
    emitBarrier(context, op, trace::Pipe::V);
    return success();
  }
  if (isa<BarMOp>(op)) {
    emitBarrier(context, op, trace::Pipe::M);
    return success();
  }
  if (isa<BarAllOp>(op)) {
    emitBarrier(context, op, trace::Pipe::All);
    return success();
  }
  // Everything else by the pipe that executes it.
  auto pipeOp = dyn_cast<PipeOpInterface>(op);
  if (!pipeOp)
    return op->emitOpError()
           << "declares no pipe (PipeOpInterface), so the trace cannot time it";
  // Pushes and pops record themselves (emitPush, emitPop): only the
  // runtime knows their lanes and slots.
  if (op->hasTrait<pto::OpTrait::CrossCoreTransfer>())
    return success();
  std::optional<machine::Pipe> pipe = pipeOp.getExecutionPipe();
  // Metadata and scalar work are not timed per op.
  if (!pipe || *pipe == machine::Pipe::S)
    return success();
  if (std::optional<DmaPath> path = pipeOp.getDataPath()) {
    if (auto load = dyn_cast<TileLoadOp>(op)) {
      emitLoad(context, load, *path);
      return success();
    }
    if (auto store = dyn_cast<TileStoreOp>(op)) {
      emitStore(context, store, *path);
      return success();
    }
    if (auto move = dyn_cast<TileMoveOp>(op)) {
      emitMove(context, move, *path);
      return success();
    }
  }
  if (*pipe == machine::Pipe::M) {
    if (auto mm = dyn_cast<MatmulOpInterface>(op)) {
      emitMatmul(context, mm);
      return success();
    }
  } else if (*pipe == machine::Pipe::V && op->getNumResults() >= 1 &&
             isa<TileType>(op->getResult(0).getType())) {
    // A vector op writes its first result (argmax and the sorts also write
    // an index tile alongside, in the same instruction).
    {
      emitVector(context, op);
      return success();
    }
  }
  return op->emitOpError() << "runs on pipe '" << machine::getName(*pipe)
                           << "', but the trace emitter has no record for it";
}
