//===- TraceEmitter.cpp - Trace records of executed ops -------------------===//
//
// After each op runs, the executor describes what the machine would do as
// trace records (docs/trace-format.md): loads, stores and moves become DMAs
// on their paths, cube and vector ops become COMPUTE records, flags and
// barriers become sync records. Buffers are named by the tiles' buffer ids
// and the GM tensors' storage ids. The timing model reads only these.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;
using trace::DmaPath;
using trace::Record;
using trace::RecordKind;
using trace::Space;

TracedWorkItem::TracedWorkItem(Interpreter &interpreter, CoreState &state)
    : interpreter(interpreter), state(state) {
  if (!interpreter.isTracing() || state.workItem)
    return;
  began = true;
  state.workItem = interpreter.newWorkItem();
  Record begin;
  begin.kind = RecordKind::WorkBegin;
  begin.item = *state.workItem;
  interpreter.emit(begin);
}

TracedWorkItem::~TracedWorkItem() {
  if (!began)
    return;
  Record end;
  end.kind = RecordKind::WorkEnd;
  end.item = *state.workItem;
  interpreter.emit(end);
  state.workItem.reset();
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

/// A record of the current work item, with the written tile's buffer.
static Record makeRecord(ExecContext &context, RecordKind kind,
                         const TileValue *written) {
  Record record;
  record.kind = kind;
  record.item = context.getWorkItem();
  if (written) {
    record.writes.push_back(written->buffer);
    record.writeSpace = getBuffer(written->type.getMemorySpace());
    record.writeBytes = boxBytes(*written);
  }
  return record;
}

static void emitDma(ExecContext &context, DmaPath path, Record record,
                    uint64_t bytes, unsigned elementSize) {
  record.sub = static_cast<uint8_t>(path);
  record.amount = bytes;
  record.elementSize = elementSize;
  context.getInterpreter().emit(std::move(record));
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
  Record record = makeRecord(context, RecordKind::Dma, &tile);
  record.reads.push_back(src.storage->buffer);
  setShape(record, tile.valid);
  record.gmOffset =
      gmOffset(src.shape, context.indices(op.getOffsets()), record);
  unsigned size = getByteSize(tile.kind());
  emitDma(context, path, std::move(record), validElements(tile) * size, size);
}

static void emitStore(ExecContext &context, TileStoreOp op, DmaPath path) {
  TileValue tile = context.tile(op.getTile());
  TensorValue &dst = context.tensor(op.getDst());
  Record record = makeRecord(context, RecordKind::Dma, nullptr);
  record.reads.push_back(tile.buffer);
  record.writes.push_back(dst.storage->buffer);
  setShape(record, tile.valid);
  record.gmOffset =
      gmOffset(dst.shape, context.indices(op.getOffsets()), record);
  unsigned size = getByteSize(dst.kind());
  emitDma(context, path, std::move(record), validElements(tile) * size, size);
}

static void emitMove(ExecContext &context, TileMoveOp op, DmaPath path) {
  TileValue src = context.tile(op.getSrc());
  TileValue dst = context.tile(op.getResult());
  Record record = makeRecord(context, RecordKind::Dma, &dst);
  record.reads.push_back(src.buffer);
  setShape(record, dst.shape());
  unsigned size = getByteSize(dst.kind());
  emitDma(context, path, std::move(record), boxBytes(dst), size);
}

void interp::emitTransfer(ExecContext &context, Operation *op, uint64_t from,
                          const TileValue &to) {
  Record record = makeRecord(context, RecordKind::Dma, &to);
  record.reads.push_back(from);
  setShape(record, to.valid);
  unsigned size = getByteSize(to.kind());
  // The pop's path (PipeOpInterface): cube to vector leaves L0C through
  // the fixpipe, vector to cube enters L1.
  DmaPath path = *cast<PipeOpInterface>(op).getDataPath();
  emitDma(context, path, std::move(record), validElements(to) * size, size);
}

/// A cube op: M x K x N from the operand boxes (a batch folds into M).
static void emitMatmul(ExecContext &context, MatmulOpInterface mm) {
  Operation *op = mm.getOperation();
  TileValue a = context.tile(mm.getLeftOperand());
  TileValue b = context.tile(mm.getRightOperand());
  TileValue c = context.tile(op->getResult(0));
  Record record = makeRecord(context, RecordKind::Compute, &c);
  record.sub = static_cast<uint8_t>(trace::Unit::Cube);
  Interpreter &interpreter = context.getInterpreter();
  StringRef name = op->getName().stripDialect();
  name.consume_front("tile.");
  record.op = interpreter.intern(name);
  record.dtype = interpreter.intern(getKindName(a.kind()));
  record.elementSize = getByteSize(a.kind());
  ArrayRef<int64_t> as = a.shape(), bs = b.shape();
  size_t rank = as.size();
  int64_t batch = mm.getBatchCount();
  record.shape[0] = static_cast<uint32_t>(batch * as[rank - 2]);
  record.shape[1] = static_cast<uint32_t>(as[rank - 1]);
  record.shape[2] = static_cast<uint32_t>(bs[rank - 1]);
  record.amount = static_cast<uint64_t>(record.shape[0]) * record.shape[1] *
                  record.shape[2];
  record.reads = {a.buffer, b.buffer};
  if (Value bias = mm.getBiasOperand())
    record.reads.push_back(context.tile(bias).buffer);
  // Accumulating into L0C unless init_cond overwrites it.
  Value init = mm.getInitCondition();
  record.flag = mm.getAccumulator() && !(init && context.scalar(init).i);
  if (record.flag)
    record.reads.push_back(c.buffer);
  interpreter.emit(std::move(record));
}

/// A vector op over its tile operands into its tile result.
static void emitVector(ExecContext &context, Operation *op) {
  Value resultValue = op->getResult(0);
  TileValue result = context.tile(resultValue);
  Record record = makeRecord(context, RecordKind::Compute, &result);
  // Further tile results (argmax's and the sorts' indices) are written by
  // the same instruction.
  for (Value extra : op->getResults().drop_front()) {
    TileValue tile = context.tile(extra);
    record.writes.push_back(tile.buffer);
    record.writeBytes += boxBytes(tile);
  }
  record.sub = static_cast<uint8_t>(trace::Unit::Vector);
  Interpreter &interpreter = context.getInterpreter();
  StringRef name = op->getName().stripDialect();
  name.consume_front("tile.");
  record.op = interpreter.intern(name);
  int64_t elements = validElements(result);
  ElementKind kind = result.kind();
  for (Value operand : op->getOperands()) {
    if (!isa<TileType>(operand.getType()))
      continue;
    TileValue tile = context.tile(operand);
    record.reads.push_back(tile.buffer);
    if (validElements(tile) > elements || operand == op->getOperand(0)) {
      elements = std::max(elements, validElements(tile));
      kind = tile.kind();
    }
  }
  setShape(record, result.valid);
  record.dtype = interpreter.intern(getKindName(kind));
  record.elementSize = getByteSize(kind);
  record.amount = elements;
  interpreter.emit(std::move(record));
}

static void emitSync(ExecContext &context, RecordKind kind, Pipe set, Pipe wait,
                     int64_t event) {
  Record record = makeRecord(context, kind, nullptr);
  record.setPipe = static_cast<trace::Pipe>(set);
  record.waitPipe = static_cast<trace::Pipe>(wait);
  record.op = static_cast<uint16_t>(event);
  context.getInterpreter().emit(std::move(record));
}

static void emitBarrier(ExecContext &context, trace::Pipe pipe) {
  Record record = makeRecord(context, RecordKind::PipeBarrier, nullptr);
  record.sub = static_cast<uint8_t>(pipe);
  context.getInterpreter().emit(std::move(record));
}

LogicalResult interp::emitTraceRecords(ExecContext &context, Operation *op) {
  if (!isa_and_present<PTODialect>(op->getDialect()))
    return success();
  // Flags and barriers order pipes.
  if (auto sync = dyn_cast<SyncSrcOp>(op)) {
    emitSync(context, RecordKind::SetFlag, sync.getSetPipe(),
             sync.getWaitPipe(), sync.getEventIdAttr().getInt());
    return success();
  }
  if (auto sync = dyn_cast<SyncDstOp>(op)) {
    emitSync(context, RecordKind::WaitFlag, sync.getSetPipe(),
             sync.getWaitPipe(), sync.getEventIdAttr().getInt());
    return success();
  }
  if (isa<BarVOp>(op)) {
    emitBarrier(context, trace::Pipe::V);
    return success();
  }
  if (isa<BarMOp>(op)) {
    emitBarrier(context, trace::Pipe::M);
    return success();
  }
  if (isa<BarAllOp>(op)) {
    emitBarrier(context, trace::Pipe::All);
    return success();
  }
  // Everything else by the pipe that executes it.
  auto pipeOp = dyn_cast<PipeOpInterface>(op);
  if (!pipeOp)
    return op->emitOpError()
           << "declares no pipe (PipeOpInterface), so the trace cannot time it";
  // A pop records its transfer when it completes (emitTransfer); the push
  // records nothing.
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
