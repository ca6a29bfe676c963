//===- AscendCTrace.cpp - Trace records of a compiled kernel's ops --------===//
//
// What the machine does for each AscendC instruction, as trace records
// (docs/trace-format.md): data_copy, load_data and fixpipe become DMAs on
// their paths, mmad a cube op, vector instructions vector ops, and every
// set_flag / wait_flag, barrier, buffer-id get/release and cross-core flag
// a sync record. The timing model then times the compiled kernel by its own
// synchronization (the work item is marked explicitly synchronized).
//
// A record names the core it runs on: the cube or a vector core. In a 1:2
// kernel, a lane's ops (`if_subblock`) run on that lane's vector core and
// everything else of the vector side (flags, barriers, scalar code) on both.
//
//===----------------------------------------------------------------------===//

#include "AscendCMachine.h"
#include "ExecContext.h"
#include "MixedKernel.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/InstructionRecords.h"
#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::ascendc;
using trace::CoreKind;
using trace::DmaPath;
using trace::Record;
using trace::RecordKind;

namespace {

/// Whether the kernel holding `op` runs its lanes on two vector cores.
bool runsTwoVectorCores(AscendCMachine &machine, Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  auto [it, fresh] = machine.twoVectorCores.try_emplace(func, false);
  if (fresh)
    it->second = getKernelCores(func) == KernelCores::MixedOneToTwo;
  return it->second;
}

/// Sends `record` from the core that runs `op`: the cube, the lane's vector
/// core, or (vector-side code outside the lanes of a 1:2 kernel) both
/// vector cores. With `crossCoreLanes`, a cross-core flag's lanes are
/// filled in: the vector lanes a cube flag signals, a vector core's own.
void emitFromCore(ExecContext &context, Operation *op, Record record,
                  bool crossCoreLanes = false) {
  AscendCMachine &machine = machineOf(context);
  Interpreter &interpreter = context.getInterpreter();
  record.item = context.getWorkItem();
  record.loc = context.locationOf(op);
  bool twoVector = runsTwoVectorCores(machine, op);
  // A mixed kernel's cores keep their records until it returns.
  bool mixed = currentMixedCore().has_value();
  auto send = [&](const Record &r, unsigned stream) {
    if (mixed)
      machine.traceStreams[stream].push_back(r);
    else
      interpreter.emit(r, nullptr);
  };
  if (coreOf(machine, op) == 0) {
    record.setCore(CoreKind::Cube);
    if (crossCoreLanes)
      record.tag_id = twoVector ? 3 : 1;
    send(record, 0);
    return;
  }
  SmallVector<unsigned, 2> lanes;
  if (auto lane = op->getParentOfType<IfSubBlockOp>())
    lanes.push_back(static_cast<unsigned>(lane.getLane()));
  else if (twoVector)
    lanes = {0, 1};
  else
    lanes.push_back(0);
  for (unsigned lane : lanes) {
    record.setCore(CoreKind::Vector, lane);
    if (crossCoreLanes)
      record.tag_id = 1u << lane;
    send(record, 1 + lane);
  }
}

Record syncRecord(RecordKind kind, Pipe set, Pipe wait, int64_t event,
                  uint8_t flags = 0) {
  Record record(kind);
  record.set_pipe = static_cast<uint8_t>(set);
  record.wait_pipe = static_cast<uint8_t>(wait);
  record.op = static_cast<uint16_t>(event);
  record.flags = flags;
  return record;
}

/// One side of a transfer: its buffer, the id naming it in the trace, its
/// element size, and for GM the tensor's element offset.
struct Side {
  Buffer buffer;
  uint64_t id;
  int64_t elementBytes;
  int64_t offset = 0;
};

Side sideOf(ExecContext &context, Value tensor) {
  if (isa<LocalTensorType>(tensor.getType())) {
    Local local = localOf(context, tensor);
    // Local ids sit above every GM storage id (the buffer is above bit 40).
    return {local.buffer,
            static_cast<uint64_t>(local.pool()) << kBufferShift |
                static_cast<uint64_t>(local.address),
            local.elementBytes};
  }
  TensorValue &gm = context.tensor(tensor);
  return {Buffer::GM, gm.storage->buffer, getByteSize(gm.kind()), gm.offset};
}

/// A DMA of `rows` x `cols` elements from `src` to `dst`; `gmStride` is
/// the GM side's row stride (0: the rows are contiguous).
LogicalResult emitTransfer(ExecContext &context, Operation *op, Value dst,
                           Value src, int64_t rows, int64_t cols,
                           int64_t gmStride) {
  Side from = sideOf(context, src), to = sideOf(context, dst);
  std::optional<DmaPath> path = machine::findPath(from.buffer, to.buffer);
  if (!path)
    return op->emitOpError()
           << "moves data from " << machine::getName(from.buffer) << " to "
           << machine::getName(to.buffer)
           << ", a path the machine description does not have, so the "
              "trace cannot time it";
  Record record(RecordKind::Dma);
  record.sub = static_cast<uint8_t>(*path);
  const Side &gm = from.buffer == Buffer::GM ? from : to;
  bool touchesGm = from.buffer == Buffer::GM || to.buffer == Buffer::GM;
  int64_t elementBytes = touchesGm ? gm.elementBytes : to.elementBytes;
  record.elem_size = static_cast<uint8_t>(elementBytes);
  tilekit_trace_set_transfer(&record, rows, cols, gmStride);
  if (touchesGm)
    record.gm_offset = static_cast<uint64_t>(gm.offset);
  record.addRead(from.id);
  record.addWrite(to.id);
  if (to.buffer != Buffer::GM) {
    record.setSpace(to.buffer);
    record.write_bytes = record.amount;
  }
  emitFromCore(context, op, record);
  return success();
}

/// The elements a vector instruction computes: an L2 op's count, an L0
/// op's active lanes times its repeats, else what the IR fixes.
int64_t vectorElements(ExecContext &context, Operation *op) {
  if (auto l2 = dyn_cast<VectorL2OpInterface>(op))
    if (Value count = l2.getCount())
      return context.index(count);
  if (auto l0 = dyn_cast<VectorL0OpInterface>(op)) {
    L0Operands defaults = getDefaultL0Operands(op);
    int64_t repeat =
        l0.getRepeat() ? context.index(l0.getRepeat()) : defaults.repeat;
    int64_t mask = l0.getMask() ? context.index(l0.getMask()) : defaults.mask;
    if (l0.getMaskHigh())
      mask = llvm::popcount(
                 static_cast<uint64_t>(context.index(l0.getMaskLow()))) +
             llvm::popcount(
                 static_cast<uint64_t>(context.index(l0.getMaskHigh())));
    return mask * repeat;
  }
  return getLargestOperandElements(op);
}

void emitVector(ExecContext &context, Operation *op) {
  Record record(RecordKind::Compute);
  record.sub = static_cast<uint8_t>(trace::Unit::Vector);
  record.op = context.intern(getRecordOpName(op));
  SmallVector<TensorAccess> accesses = getTensorAccesses(op);
  Value typed = getRecordTypedTensor(op);
  for (const TensorAccess &access : accesses) {
    if (!isa<LocalTensorType>(access.tensor.getType()))
      continue;
    uint64_t id = sideOf(context, access.tensor).id;
    if (access.reads)
      record.addRead(id);
    if (access.writes)
      record.addWrite(id);
  }
  int64_t elements = vectorElements(context, op);
  if (typed) {
    ElementKind kind =
        kindOf(cast<LocalTensorType>(typed.getType()).getElementType());
    record.dtype = context.intern(getKindName(kind));
    record.elem_size = static_cast<uint8_t>(getByteSize(kind));
  }
  // The elements as rows of the widest operand's rows (as the compiled
  // producer's ascendc_vector gives them).
  int64_t columns = getRecordColumns(op);
  record.shape[1] = static_cast<uint32_t>(columns);
  record.shape[0] = static_cast<uint32_t>(
      columns > 0 ? (elements + columns - 1) / columns : elements);
  record.amount = static_cast<uint64_t>(elements);
  record.setSpace(Buffer::UB);
  record.write_bytes = record.amount * record.elem_size;
  emitFromCore(context, op, record);
}

void emitMatmul(ExecContext &context, MmadOp mmad) {
  Record record(RecordKind::Compute);
  record.sub = static_cast<uint8_t>(trace::Unit::Cube);
  record.op = context.intern("matmul");
  ElementKind kind =
      kindOf(cast<LocalTensorType>(mmad.getA().getType()).getElementType());
  record.dtype = context.intern(getKindName(kind));
  record.elem_size = static_cast<uint8_t>(getByteSize(kind));
  int64_t m = context.index(mmad.getM()), k = context.index(mmad.getK()),
          n = context.index(mmad.getN());
  record.shape[0] = static_cast<uint32_t>(m);
  record.shape[1] = static_cast<uint32_t>(k);
  record.shape[2] = static_cast<uint32_t>(n);
  record.amount = static_cast<uint64_t>(m * k * n);
  record.addRead(sideOf(context, mmad.getA()).id);
  record.addRead(sideOf(context, mmad.getB()).id);
  uint64_t acc = sideOf(context, mmad.getDst()).id;
  bool init = !mmad.getInit() || context.scalar(mmad.getInit()).i != 0;
  record.setFlag(!init);
  if (!init)
    record.addRead(acc);
  record.addWrite(acc);
  record.setSpace(Buffer::L0C);
  emitFromCore(context, mmad, record);
}

} // namespace

void interp::flushAscendCTraceStreams(Interpreter &interpreter,
                                      AscendCMachine &machine) {
  if (!interpreter.isTracing())
    return;
  for (const Record &record : trace::mergeCoreStreams(machine.traceStreams))
    interpreter.emit(record, nullptr);
  for (std::vector<Record> &stream : machine.traceStreams)
    stream.clear();
}

LogicalResult interp::emitAscendCTraceRecords(ExecContext &context,
                                              Operation *op) {
  if (auto set = dyn_cast<SetFlagOp>(op)) {
    emitFromCore(context, op,
                 syncRecord(RecordKind::SetFlag, set.getSrc(), set.getDst(),
                            set.getEvent()));
    return success();
  }
  if (auto wait = dyn_cast<WaitFlagOp>(op)) {
    emitFromCore(context, op,
                 syncRecord(RecordKind::WaitFlag, wait.getSrc(), wait.getDst(),
                            wait.getEvent()));
    return success();
  }
  if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
    Record record(RecordKind::PipeBarrier);
    record.sub = static_cast<uint8_t>(barrier.getPipe());
    emitFromCore(context, op, record);
    return success();
  }
  if (auto get = dyn_cast<GetBufOp>(op)) {
    emitFromCore(context, op,
                 syncRecord(RecordKind::WaitFlag, get.getPipe(), get.getPipe(),
                            get.getBufId(), TILEKIT_TRACE_BUFFER_ID));
    return success();
  }
  if (auto release = dyn_cast<RlsBufOp>(op)) {
    emitFromCore(context, op,
                 syncRecord(RecordKind::SetFlag, release.getPipe(),
                            release.getPipe(), release.getBufId(),
                            TILEKIT_TRACE_BUFFER_ID));
    return success();
  }
  if (auto set = dyn_cast<CrossCoreSetFlagOp>(op)) {
    emitFromCore(context, op,
                 syncRecord(RecordKind::SetFlag, set.getPipe(), set.getPipe(),
                            set.getFlag(), TILEKIT_TRACE_CROSS_CORE),
                 /*crossCoreLanes=*/true);
    return success();
  }
  if (auto wait = dyn_cast<CrossCoreWaitFlagOp>(op)) {
    emitFromCore(context, op,
                 syncRecord(RecordKind::WaitFlag, wait.getPipe(),
                            wait.getPipe(), wait.getFlag(),
                            TILEKIT_TRACE_CROSS_CORE),
                 /*crossCoreLanes=*/true);
    return success();
  }
  std::optional<Pipe> pipe = getOpPipe(op);
  // Scalar work and ops no pipe runs are not timed per op.
  if (!pipe || *pipe == Pipe::S)
    return success();
  if (auto copy = dyn_cast<DataCopyOp>(op)) {
    if (!copy.getWindow().empty()) {
      bool fromGm = isa<GlobalTensorType>(copy.getSrc().getType());
      return emitTransfer(context, op, copy.getDst(), copy.getSrc(),
                          context.index(copy.getWindow()[0]),
                          context.index(copy.getWindow()[1]),
                          context.index(copy.getStrides()[fromGm ? 0 : 1]));
    }
    int64_t count = copy.getCount()
                        ? context.index(copy.getCount())
                        : cast<LocalTensorType>(
                              (isa<LocalTensorType>(copy.getDst().getType())
                                   ? copy.getDst()
                                   : copy.getSrc())
                                  .getType())
                              .getNumElements();
    return emitTransfer(context, op, copy.getDst(), copy.getSrc(), 1, count, 0);
  }
  if (auto load = dyn_cast<LoadDataOp>(op)) {
    int64_t count = std::min(
        cast<LocalTensorType>(load.getDst().getType()).getNumElements(),
        cast<LocalTensorType>(load.getSrc().getType()).getNumElements());
    return emitTransfer(context, op, load.getDst(), load.getSrc(), 1, count, 0);
  }
  if (auto fixpipe = dyn_cast<FixpipeOp>(op)) {
    if (!fixpipe.getWindow().empty())
      return emitTransfer(context, op, fixpipe.getDst(), fixpipe.getSrc(),
                          context.index(fixpipe.getWindow()[0]),
                          context.index(fixpipe.getWindow()[1]),
                          context.index(fixpipe.getStrides()[1]));
    int64_t count =
        cast<LocalTensorType>(fixpipe.getSrc().getType()).getNumElements();
    if (auto dst = dyn_cast<LocalTensorType>(fixpipe.getDst().getType()))
      count = std::min(count, dst.getNumElements());
    return emitTransfer(context, op, fixpipe.getDst(), fixpipe.getSrc(), 1,
                        count, 0);
  }
  if (auto mmad = dyn_cast<MmadOp>(op)) {
    emitMatmul(context, mmad);
    return success();
  }
  if (*pipe == Pipe::V) {
    emitVector(context, op);
    return success();
  }
  return op->emitOpError() << "runs on pipe '" << stringifyPipe(*pipe)
                           << "', but the trace has no record for it";
}
