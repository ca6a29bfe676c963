//===- PTOToTraceProducer.cpp - PTO kernels as compiled trace producers ---===//
//
// The kernel's functions become C++ functions through EmitC: `scf`,
// `arith` and `func` by MLIR's conversions, each PTO op by a call of
// include/tilekit/Trace/TraceProducer.h. What the IR fixes about a record
// (kind, core, path or unit, sizes, names, location) goes into a table of
// prototype records at the top of the file; the calls add what the run
// decides (valid shapes, offsets, buffers, the work item).
//
// The records are those of lib/Interp/TraceEmitter.cpp, op for op: a tile
// value keeps one buffer per work item (a slot of the file), a transfer
// clamps its box as the executor's load does, a vector op counts the
// elements of its largest operand. A kernel whose control flow or indices
// would need tile data, or an op the producer has no rule for, is refused
// at the op before anything is written.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/PTOToTraceProducer.h"

#include "ProducerEmission.h"
#include "ProducerRules.h"
#include "tilekit/Conversion/PTOToAscendC.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Dialect/PTO/IR/PTOTraits.h"
#include "tilekit/Interfaces/PipeOpInterface.h"
#include "tilekit/Interp/ElementKind.h"
#include "tilekit/Interp/Values.h"
#include "tilekit/Trace/Trace.h"
#include "tilekit/Trace/TraceProducerCallFormats.inc"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/FuncToEmitC/FuncToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;
using trace::Record;
using trace::RecordKind;

using namespace tilekit::producer;
/// Kernel functions' C++ names: the prefix keeps them apart from C++'s
/// (a kernel may be called `main`).
static constexpr llvm::StringLiteral kKernelPrefix = "kernel_";

//===----------------------------------------------------------------------===//
// The file's tables
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Prototype records
//===----------------------------------------------------------------------===//

static interp::ElementKind kindOfTile(Type type) {
  return interp::kindOf(cast<ShapedType>(type).getElementType());
}

static unsigned elementBytes(Type type) {
  return interp::getByteSize(kindOfTile(type));
}

static uint64_t boxBytes(TileType type) {
  uint64_t elements = 1;
  for (int64_t extent : type.getShape())
    elements *= extent;
  return elements * elementBytes(type);
}

/// A record of `op` with what its written tile fixes (space, bytes).
static Record makeProto(ProducerTables &tables, Operation *op, RecordKind kind,
                        TileType written) {
  Record record(kind);
  record.loc = tables.location(op);
  if (written) {
    record.setSpace(getBuffer(written.getMemorySpace()));
    record.write_bytes = boxBytes(written);
  }
  return record;
}

/// The op's record name: its mnemonic without `tile.`.
static StringRef recordName(Operation *op) {
  StringRef name = op->getName().stripDialect();
  name.consume_front("tile.");
  return name;
}

static std::string finish(ProducerTables &tables, Record record) {
  record.setCore(trace::defaultCore(record));
  return tables.proto(record);
}

//===----------------------------------------------------------------------===//
// What the producer refuses
//===----------------------------------------------------------------------===//

namespace {
/// How a vector op's results get their valid shape and buffer
/// (tilekit_producer::ValidRule): the rule, the tile operand it reads, how
/// many results (two: argmax's and the sorts' values and indices), and the
/// tile operand whose buffer the result is (-1: its own).
struct VectorRule {
  StringRef rule;
  int from = 0;
  int results = 1;
  int inPlace = -1;
};
} // namespace

/// The rule of a vector op, or none when the producer has none; each as
/// the executor's handler computes the result (lib/Interp).
static std::optional<VectorRule> vectorRule(Operation *op) {
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op)) {
    switch (elementwise.getFamily()) {
    case ElementwiseFamily::RowReduce:
      return VectorRule{"RowReduce"};
    case ElementwiseFamily::ColReduce:
      return VectorRule{"ColReduce"};
    default:
      return VectorRule{"Operand"};
    }
  }
  if (isa<TileCastOp, TileCmpOp, TileCmpSOp, TileRowCumsumOp, TileColCumsumOp>(
          op))
    return VectorRule{"Operand"};
  if (isa<TileSelOp, TileSelSOp>(op)) // after the mask
    return VectorRule{"Operand", 1};
  if (isa<TileSort32Op, TileMrgSortOp>(op))
    return VectorRule{"Operand", 0, 2};
  if (isa<TileRowArgmaxOp, TileRowArgminOp>(op))
    return VectorRule{"RowReduce", 0, 2};
  if (isa<TileGatherOp>(op)) // the indices' shape
    return VectorRule{"Operand", 1};
  if (isa<TileScatterOp>(op)) // the destination's shape, a new buffer
    return VectorRule{"Operand", 2};
  if (isa<TileAssembleOp>(op)) // the destination, updated in place
    return VectorRule{"Operand", 1, 1, 1};
  if (isa<TileRowExpandOp>(op))
    return VectorRule{"RowBroadcast"};
  if (isa<TileColExpandOp>(op))
    return VectorRule{"ColBroadcast"};
  if (isa<TileTransposeOp>(op))
    return VectorRule{"Transpose"};
  if (isa<TileFillPadOp, TileIotaOp>(op))
    return VectorRule{"Box"};
  if (isa<TileFullOp>(op))
    return VectorRule{"Given"};
  return std::nullopt;
}

/// Whether `op` is a vector op the executor traces (TraceEmitter.cpp: on
/// V, writing a tile as its first result).
static bool isVectorOp(Operation *op) {
  auto pipeOp = dyn_cast<PipeOpInterface>(op);
  std::optional<machine::Pipe> pipe =
      pipeOp ? pipeOp.getExecutionPipe() : std::nullopt;
  return pipe == machine::Pipe::V && op->getNumResults() >= 1 &&
         isa<TileType>(op->getResult(0).getType());
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

namespace {

/// A rule of the PTO producer, reading the file's tables.
template <typename... Ops> using PTORule = OpRule<ProducerTables, Ops...>;

/// GM -> on-chip: a DMA of the valid region the offsets leave.
struct LoadRule : PTORule<TileLoadOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto load = cast<TileLoadOp>(l.op);
    auto type = cast<TileType>(load.getResult().getType());
    Record proto = makeProto(env, l.op, RecordKind::Dma, type);
    proto.sub =
        static_cast<uint8_t>(*cast<PipeOpInterface>(l.op).getDataPath());
    proto.elem_size = elementBytes(type);
    l.call.literal(finish(env, proto))
        .literal(Twine(env.slot(load.getResult())) + "u")
        .value(l.converted(load.getSrc()))
        .ints(type.getShape())
        .literal(Twine(type.getRank()))
        .ints(l.converted(load.getOffsets()))
        .ints(l.converted(load.getValidShape()))
        .literal(Twine(load.getValidShape().size()));
    return l.replaceByCall("tilekit_trace_dma_load");
  }
};

/// On-chip -> GM: a DMA of the tile's valid region.
struct StoreRule : PTORule<TileStoreOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto store = cast<TileStoreOp>(l.op);
    auto type = cast<TileType>(store.getTile().getType());
    Record proto = makeProto(env, l.op, RecordKind::Dma, nullptr);
    proto.sub =
        static_cast<uint8_t>(*cast<PipeOpInterface>(l.op).getDataPath());
    proto.elem_size = elementBytes(store.getDst().getType());
    l.call.literal(finish(env, proto))
        .value(l.converted(store.getTile()))
        .literal(Twine(type.getRank()))
        .value(l.converted(store.getDst()))
        .ints(l.converted(store.getOffsets()));
    return l.replaceByCall("tilekit_trace_dma_store");
  }
};

/// On-chip -> on-chip: a DMA of the whole box.
struct MoveRule : PTORule<TileMoveOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto move = cast<TileMoveOp>(l.op);
    auto type = cast<TileType>(move.getResult().getType());
    Record proto = makeProto(env, l.op, RecordKind::Dma, type);
    proto.sub =
        static_cast<uint8_t>(*cast<PipeOpInterface>(l.op).getDataPath());
    proto.elem_size = elementBytes(type);
    ArrayRef<int64_t> box = type.getShape();
    size_t first = box.size() > 3 ? box.size() - 3 : 0;
    for (size_t i = first; i < box.size(); ++i)
      proto.shape[i - first] = static_cast<uint32_t>(box[i]);
    proto.amount = boxBytes(type);
    l.call.literal(finish(env, proto))
        .literal(Twine(env.slot(move.getResult())) + "u")
        .value(l.converted(move.getSrc()));
    return l.replaceByCall("tilekit_trace_dma_move");
  }
};

/// A cube op of M x K x N (the batch folded into M).
struct MatmulRule : PTORule<MatmulOpInterface> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto mm = cast<MatmulOpInterface>(l.op);
    auto lhs = cast<TileType>(mm.getLeftOperand().getType());
    auto rhs = cast<TileType>(mm.getRightOperand().getType());
    auto result = cast<TileType>(l.op->getResult(0).getType());
    Record proto = makeProto(env, l.op, RecordKind::Compute, result);
    proto.sub = static_cast<uint8_t>(trace::Unit::Cube);
    proto.op = env.name(recordName(l.op));
    proto.dtype = env.name(interp::getKindName(kindOfTile(lhs)));
    proto.elem_size = elementBytes(lhs);
    ArrayRef<int64_t> as = lhs.getShape(), bs = rhs.getShape();
    size_t rank = as.size();
    proto.shape[0] = static_cast<uint32_t>(mm.getBatchCount() * as[rank - 2]);
    proto.shape[1] = static_cast<uint32_t>(as[rank - 1]);
    proto.shape[2] = static_cast<uint32_t>(bs[rank - 1]);
    proto.amount = uint64_t(proto.shape[0]) * proto.shape[1] * proto.shape[2];
    std::string none = (kNs + "Tile{}").str();
    l.call.literal(finish(env, proto))
        .literal(Twine(env.slot(l.op->getResult(0))) + "u")
        .literal(Twine(rank))
        .value(l.converted(mm.getLeftOperand()))
        .value(l.converted(mm.getRightOperand()));
    Value bias = mm.getBiasOperand();
    bias ? l.call.value(l.converted(bias)).literal("true")
         : l.call.literal(none).literal("false");
    Value acc = mm.getAccumulator();
    acc ? l.call.value(l.converted(acc)).literal("true")
        : l.call.literal(none).literal("false");
    Value init = mm.getInitCondition();
    init ? l.call.value(l.converted(init)) : l.call.literal("false");
    return l.replaceByCall("tilekit_trace_compute_matmul");
  }
};

/// A new tile: a buffer of the slot, no record.
struct CreateRule : PTORule<TileCreateOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto create = cast<TileCreateOp>(l.op);
    auto type = cast<TileType>(create.getResult().getType());
    Record proto = makeProto(env, l.op, RecordKind::WorkBegin, nullptr);
    l.call.literal(env.proto(proto))
        .literal(Twine(env.slot(create.getResult())) + "u")
        .ints(type.getShape())
        .literal(Twine(type.getRank()))
        .ints(l.converted(create.getValidShape()))
        .literal(Twine(create.getValidShape().size()));
    return l.replaceByCall("tilekit_trace_tile");
  }
};

struct SetValidShapeRule : PTORule<TileSetValidShapeOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto set = cast<TileSetValidShapeOp>(l.op);
    auto type = cast<TileType>(set.getResult().getType());
    Record proto = makeProto(env, l.op, RecordKind::WorkBegin, nullptr);
    l.call.literal(env.proto(proto))
        .value(l.converted(set.getSrc()))
        .ints(type.getShape())
        .literal(Twine(type.getRank()))
        .ints(l.converted(set.getValidShape()));
    return l.replaceByCall("tilekit_trace_set_valid");
  }
};

/// A scalar written into a tile, or by a kernel into GM: the same buffer
/// (and valid shape), no record (scalar work is not timed per op, as the
/// interpreter's trace has it).
struct WriteRule : PTORule<TileWriteOp, TensorWriteOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    // The value, then the tile or tensor written.
    return l.replace(l.converted(l.op->getOperand(1)));
  }
};

struct ReshapeRule : PTORule<TileReshapeOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto reshape = cast<TileReshapeOp>(l.op);
    auto from = cast<TileType>(reshape.getSrc().getType());
    auto type = cast<TileType>(reshape.getResult().getType());
    Record proto = makeProto(env, l.op, RecordKind::WorkBegin, nullptr);
    l.call.literal(env.proto(proto))
        .value(l.converted(reshape.getSrc()))
        .ints(from.getShape())
        .literal(Twine(from.getRank()))
        .ints(type.getShape())
        .literal(Twine(type.getRank()));
    return l.replaceByCall("tilekit_trace_reshape");
  }
};

/// A query of a tile's or a tensor's extent: a plain accessor call.
struct DimRule : PTORule<TileValidDimOp, TensorDimOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    CallBuilder query{l.rewriter, l.op->getLoc(), {}, {}};
    if (auto dim = dyn_cast<TileValidDimOp>(l.op)) {
      query.value(l.converted(dim.getSrc())).literal(Twine(dim.getDim()));
      return l.replace(query.call("valid_dim", l.resultType));
    }
    auto dim = cast<TensorDimOp>(l.op);
    query.value(l.converted(dim.getSrc())).literal(Twine(dim.getDim()));
    return l.replace(query.call("dim", l.resultType));
  }
};

struct InitializePipeRule : PTORule<AicInitializePipeOp, AivInitializePipeOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    bool cube = isa<AicInitializePipeOp>(l.op);
    Record proto = makeProto(env, l.op, RecordKind::WorkBegin, nullptr);
    auto lower = [&](auto init) {
      l.call.literal(env.proto(proto))
          .literal(cube ? "true" : "false")
          .literal(Twine(init.getPipeIdAttr().getInt()))
          .literal(Twine(static_cast<unsigned>(init.getDir())) + "u")
          .literal(Twine(init.getSlotNum()))
          .literal(Twine(init.getSlotSize()));
    };
    cube ? lower(cast<AicInitializePipeOp>(l.op))
         : lower(cast<AivInitializePipeOp>(l.op));
    return l.replaceByVoidCall("tilekit_trace_initialize_pipe");
  }
};

/// The block, block count and vector lane running the code.
struct IndexQueryRule
    : PTORule<GetBlockIdxOp, GetBlockNumOp, GetSubblockIdxOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    return l.replaceByCall(isa<GetBlockIdxOp>(l.op) ? "block_index"
                           : isa<GetBlockNumOp>(l.op)
                               ? "block_count"
                               : "tilekit_trace_subblock_index");
  }
};

/// A push or pop on a cross-core pipe: a push reads its tile, a pop writes
/// the tile it returns.
struct CrossCoreTransferRule
    : PTORule<TPushToAivOp, TPushToAicOp, TPopFromAicOp, TPopFromAivOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    Operation *op = l.op;
    bool push = isa<TPushToAivOp, TPushToAicOp>(op);
    Value tileValue = push ? op->getOperand(0) : op->getResult(0);
    auto type = cast<TileType>(tileValue.getType());
    Record proto = makeProto(env, op, push ? RecordKind::Push : RecordKind::Pop,
                             push ? TileType() : type);
    proto.sub = static_cast<uint8_t>(*cast<PipeOpInterface>(op).getDataPath());
    proto.elem_size = elementBytes(type);
    int64_t pipe = op->getAttrOfType<IntegerAttr>("pipe_id").getInt();
    proto.op = static_cast<uint16_t>(pipe);
    int64_t split = op->getAttrOfType<IntegerAttr>("split").getInt();
    l.call.literal(finish(env, proto));
    if (push)
      l.call.value(l.converted(tileValue));
    else
      l.call.literal(Twine(env.slot(tileValue)) + "u");
    l.call.ints(type.getShape()).literal(Twine(type.getRank()));
    l.call.literal(Twine(split));
    if (auto pushToAiv = dyn_cast<TPushToAivOp>(op))
      l.call.literal(
          Twine(pushToAiv.getLaneStride()
                    ? static_cast<int64_t>(*pushToAiv.getLaneStride())
                    : int64_t(-1)));
    l.call.literal(Twine(pipe));
    StringRef callee = isa<TPushToAivOp>(op)    ? "tilekit_trace_push_to_aiv"
                       : isa<TPushToAicOp>(op)  ? "tilekit_trace_push_to_aic"
                       : isa<TPopFromAicOp>(op) ? "tilekit_trace_pop_from_aic"
                                                : "tilekit_trace_pop_from_aiv";
    return push ? l.replaceByVoidCall(callee) : l.replaceByCall(callee);
  }
};

/// The extents of a GM tensor `type`: static ones from the type, dynamic
/// ones from `sizes` in order.
SmallVector<Value> extentsOf(Lowering &l, GMTensorType type, ValueRange sizes) {
  SmallVector<Value> extents;
  auto dynamic = sizes.begin();
  for (int64_t extent : type.getShape())
    extents.push_back(
        ShapedType::isDynamic(extent)
            ? l.converted(*dynamic++)
            : emitc::ConstantOp::create(
                  l.rewriter, l.op->getLoc(),
                  emitc::PtrDiffTType::get(l.op->getContext()),
                  emitc::OpaqueAttr::get(l.op->getContext(),
                                         std::to_string(extent))));
  return extents;
}

/// A GM tensor of its own storage (tensor.create), or the same storage
/// with other extents (tensor.view).
struct GMTensorRule : PTORule<TensorCreateOp, TensorViewOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto type = cast<GMTensorType>(l.op->getResult(0).getType());
    if (auto view = dyn_cast<TensorViewOp>(l.op)) {
      l.call.value(l.converted(view.getSrc()))
          .ints(extentsOf(l, type, view.getSizes()))
          .literal(Twine(type.getRank()));
      return l.replaceByCall("tilekit_trace_view");
    }
    auto create = cast<TensorCreateOp>(l.op);
    l.call.ints(extentsOf(l, type, create.getSizes()))
        .literal(Twine(type.getRank()));
    return l.replaceByCall("tilekit_trace_tensor");
  }
};

/// A flag's set or wait: everything in the record.
struct SyncRule : PTORule<SyncSrcOp, SyncDstOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    bool set = isa<SyncSrcOp>(l.op);
    Record proto = makeProto(
        env, l.op, set ? RecordKind::SetFlag : RecordKind::WaitFlag, {});
    auto pipes = [&](auto sync) {
      proto.set_pipe = static_cast<uint8_t>(sync.getSetPipe());
      proto.wait_pipe = static_cast<uint8_t>(sync.getWaitPipe());
      proto.op = static_cast<uint16_t>(sync.getEventIdAttr().getInt());
    };
    set ? pipes(cast<SyncSrcOp>(l.op)) : pipes(cast<SyncDstOp>(l.op));
    l.call.literal(finish(env, proto));
    return l.replaceByVoidCall("tilekit_trace_sync");
  }
};

struct BarrierRule : PTORule<BarVOp, BarMOp, BarAllOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    Record proto = makeProto(env, l.op, RecordKind::PipeBarrier, {});
    trace::Pipe pipe = isa<BarVOp>(l.op)   ? trace::Pipe::V
                       : isa<BarMOp>(l.op) ? trace::Pipe::M
                                           : trace::Pipe::All;
    proto.sub = static_cast<uint8_t>(pipe);
    l.call.literal(finish(env, proto));
    return l.replaceByVoidCall("tilekit_trace_sync");
  }
};

struct SliceRule : PTORule<TileSliceOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto slice = cast<TileSliceOp>(l.op);
    auto type = cast<TileType>(slice.getResult().getType());
    auto from = cast<TileType>(slice.getSrc().getType());
    Record proto = makeProto(env, l.op, RecordKind::Compute, type);
    proto.sub = static_cast<uint8_t>(trace::Unit::Vector);
    proto.op = env.name(recordName(l.op));
    proto.dtype = env.name(interp::getKindName(kindOfTile(type)));
    proto.elem_size = elementBytes(type);
    l.call.literal(finish(env, proto))
        .literal(Twine(env.slot(slice.getResult())) + "u")
        .ints(type.getShape())
        .literal(Twine(type.getRank()))
        .value(l.converted(slice.getSrc()))
        .ints(from.getShape())
        .ints(l.converted(slice.getOffsets()))
        .ints(l.converted(slice.getValidShape()))
        .literal(Twine(slice.getValidShape().size()))
        .literal(env.operandTable({from}));
    return l.replaceByCall("tilekit_trace_slice");
  }
};

/// Every other vector op (on V, writing a tile as its first result) with a
/// VectorRule for its results: elements of its largest operand.
struct VectorOpRule : ProducerRule<ProducerTables> {
  VectorOpRule(const TypeConverter &types, MLIRContext *context,
               ProducerTables &tables)
      : ProducerRule(types, context, tables, /*benefit=*/1) {}

  bool takes(Operation *op) const override {
    std::optional<VectorRule> rule =
        isVectorOp(op) ? vectorRule(op) : std::nullopt;
    return rule && static_cast<int>(op->getNumResults()) == rule->results;
  }

  LogicalResult lower(Lowering &l) const override {
    Operation *op = l.op;
    auto type = cast<TileType>(op->getResult(0).getType());
    Record proto = makeProto(env, op, RecordKind::Compute, type);
    proto.sub = static_cast<uint8_t>(trace::Unit::Vector);
    proto.op = env.name(recordName(op));
    proto.dtype = env.name(interp::getKindName(kindOfTile(type)));
    proto.elem_size = elementBytes(type);
    // Each tile operand's rank, element size and type name.
    SmallVector<Value> tiles;
    SmallVector<TileType> tileTypes;
    for (OpOperand &operand : op->getOpOperands())
      if (auto tile = dyn_cast<TileType>(operand.get().getType())) {
        tiles.push_back(l.converted(operand.get()));
        tileTypes.push_back(tile);
      }
    std::string infos = env.operandTable(tileTypes);
    VectorRule rule = *vectorRule(op);
    bool pair = rule.results == 2;
    if (pair)
      proto.write_bytes += boxBytes(cast<TileType>(op->getResult(1).getType()));
    auto full = dyn_cast<TileFullOp>(op);
    l.call.literal(finish(env, proto))
        .literal(Twine(env.slot(op->getResult(0))) + "u");
    if (pair)
      l.call.literal(Twine(env.slot(op->getResult(1))) + "u");
    l.call.literal(kNs + "ValidRule::" + rule.rule)
        .literal(Twine(rule.from))
        .literal(Twine(rule.inPlace))
        .ints(type.getShape())
        .literal(Twine(type.getRank()));
    if (full && !full.getValidShape().empty())
      l.call.ints(l.converted(full.getValidShape()));
    else
      l.call.literal("nullptr");
    l.call.literal(infos);
    for (Value tile : tiles)
      l.call.value(tile);
    if (!pair)
      return l.replaceByCall("tilekit_trace_compute_vector");
    Value both = l.call.call(
        "tilekit_trace_compute_vector2",
        emitc::OpaqueType::get(op->getContext(), (kNs + "TilePair").str()));
    SmallVector<Value> results;
    for (StringRef part : {"first", "second"}) {
      CallBuilder get{l.rewriter, op->getLoc(), {}, {}};
      results.push_back(get.value(both).call(part, l.resultType));
    }
    l.rewriter.replaceOp(op, results);
    return success();
  }
};

using PTORules = RuleSet<ProducerTables>;

/// The PTO producer's rules.
void addRules(PTORules &rules) {
  rules.add<LoadRule, StoreRule, MoveRule, MatmulRule, CreateRule,
            SetValidShapeRule, WriteRule, ReshapeRule, DimRule,
            InitializePipeRule, IndexQueryRule, CrossCoreTransferRule,
            GMTensorRule, SyncRule, BarrierRule, SliceRule, VectorOpRule>();
}

} // namespace

/// `file:line:col` of `loc`.
static std::string describe(Location loc) {
  auto position = loc->findInstanceOf<FileLineColLoc>();
  if (!position)
    return "an unknown location";
  return (position.getFilename().getValue() + ":" + Twine(position.getLine()) +
          ":" + Twine(position.getColumn()))
      .str();
}

/// Whether `op` computes a scalar from tile data (tile.read, say).
static bool readsTileData(Operation *op) {
  bool readsTiles = llvm::any_of(op->getOperandTypes(),
                                 [](Type type) { return isa<TileType>(type); });
  bool scalarResult = llvm::any_of(op->getResultTypes(), [](Type type) {
    return !isa<TileType, GMTensorType>(type);
  });
  return isa<PTODialect>(op->getDialect()) && readsTiles && scalarResult &&
         !isa<TileValidDimOp>(op);
}

/// A producer runs without tile data: a value computed from it that only
/// feeds tile data (the scalar of a tile.adds, say, through arithmetic) is
/// not needed and becomes a zero; one that reaches control flow, an index,
/// a matmul's init condition or a call is refused at the op that uses it.
static LogicalResult dropTileData(ArrayRef<func::FuncOp> funcs) {
  SmallVector<Operation *> sources;
  for (func::FuncOp func : funcs)
    func.walk([&](Operation *op) {
      if (readsTileData(op))
        sources.push_back(op);
    });
  bool ok = true;
  for (Operation *source : sources) {
    SmallVector<Value> work(source->getResults());
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Value value = work.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (isa<arith::ArithDialect>(user->getDialect())) {
          llvm::append_range(work, user->getResults());
          continue;
        }
        if (isa<PTODialect>(user->getDialect()) &&
            !isa<IndexType>(value.getType()) && !isa<MatmulOpInterface>(user))
          continue; // a tile op's data operand
        user->emitError()
            << "'" << user->getName()
            << "' depends on a value computed from tile data (by '"
            << source->getName() << "' at " << describe(source->getLoc())
            << "); a trace producer runs the kernel's control flow and "
               "indices without data, so loops, branches, offsets and "
               "calls cannot depend on it: use --producer=interp";
        ok = false;
      }
    }
  }
  if (!ok)
    return failure();
  for (Operation *source : sources) {
    OpBuilder builder(source);
    for (Value result : source->getResults())
      result.replaceAllUsesWith(arith::ConstantOp::create(
          builder, source->getLoc(),
          cast<TypedAttr>(builder.getZeroAttr(result.getType()))));
    source->erase();
  }
  return success();
}

/// Reports each op of `funcs` that no rule of `rules` takes.
static LogicalResult checkProducible(ArrayRef<func::FuncOp> funcs,
                                     const PTORules &rules) {
  bool ok = true;
  auto refuse = [&](Operation *op, const Twine &why) {
    op->emitError() << "'" << op->getName() << "' " << why;
    ok = false;
  };
  for (func::FuncOp func : funcs) {
    if (func.getNumResults() > 1)
      refuse(func, "returns several values; a trace producer's functions "
                   "return at most one");
    if (getFunctionKind(func) == FunctionKind::Group) {
      std::optional<GroupInfo> group = resolveGroup(func);
      if (!group || !isa<func::FuncOp>(group->aic) ||
          !isa<func::FuncOp>(group->aiv))
        refuse(func, "is a group whose aic and aiv functions cannot be "
                     "found");
      continue; // its members run, not its body
    }
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<func::FuncOp, func::ReturnOp, func::CallOp>(op) ||
          isa<arith::ArithDialect, scf::SCFDialect>(op->getDialect()))
        return WalkResult::advance();
      if (isa<RegScopeOp>(op)) {
        refuse(op, "has no trace-producer rule (use --producer=interp, "
                   "which times the scope)");
        return WalkResult::skip();
      }
      if (!isa<PTODialect>(op->getDialect())) {
        refuse(op, "has no trace-producer rule");
        return WalkResult::advance();
      }
      if (readsTileData(op))
        return WalkResult::advance(); // dropTileData decides
      if (!rules.takes(op))
        refuse(op, "has no trace-producer rule (use --producer=interp)");
      return WalkResult::advance();
    });
  }
  return success(ok && succeeded(dropTileData(funcs)));
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

class ProducerTypes : public SignedIndexTypes {
public:
  ProducerTypes() {
    addConversion([](Type type) { return type; });
    addConversion([](TileType type) -> Type {
      return emitc::OpaqueType::get(type.getContext(), (kNs + "Tile").str());
    });
    addConversion([](GMTensorType type) -> Type {
      return emitc::OpaqueType::get(type.getContext(), (kNs + "Tensor").str());
    });
  }
};

/// How a call of a group launches it: `kGroups[i]` and `&aic`, `&aiv`.
struct GroupLaunch {
  std::string spec, aic, aiv;
};

/// A call of an in-core function or group is a work item (nested calls
/// belong to the outer one, as in the executor); a group runs its members.
struct WorkItemCallLowering : OpConversionPattern<func::CallOp> {
  /// `inCore`: the in-core functions (looked up before the conversion
  /// turns them into emitc.func).
  /// `groups`: how to launch each group (its GroupSpec table entry and
  /// members).
  WorkItemCallLowering(const TypeConverter &types, MLIRContext *context,
                       const llvm::StringSet<> &inCore,
                       const llvm::StringMap<GroupLaunch> &groups)
      : OpConversionPattern(types, context, /*benefit=*/2), inCore(inCore),
        groups(groups) {}
  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto group = groups.find(op.getCallee());
    bool item = inCore.contains(op.getCallee()) || group != groups.end();
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), results)))
      return failure();
    Location loc = op.getLoc();
    auto mark = [&](StringRef callee) {
      emitc::CallOpaqueOp::create(
          rewriter, loc, TypeRange(), (kNs + callee).str(), ValueRange(),
          rewriter.getArrayAttr(
              {emitc::OpaqueAttr::get(getContext(), kContextArg)}));
    };
    if (item)
      mark("tilekit_trace_work_begin");
    Operation *call;
    if (group != groups.end()) {
      // The members on their cores: tilekit_trace_group(ctx, spec, &aic,
      // &aiv, args...).
      SmallVector<Attribute> args;
      for (StringRef text :
           {StringRef(kContextArg), StringRef(group->second.spec),
            StringRef(group->second.aic), StringRef(group->second.aiv)})
        args.push_back(emitc::OpaqueAttr::get(getContext(), text));
      for (unsigned i = 0; i < adaptor.getOperands().size(); ++i)
        args.push_back(rewriter.getIndexAttr(i));
      call = emitc::CallOpaqueOp::create(
          rewriter, loc, results, (kNs + "tilekit_trace_group").str(),
          adaptor.getOperands(), rewriter.getArrayAttr(args));
    } else {
      call = emitc::CallOp::create(rewriter, loc, op.getCalleeAttr(), results,
                                   adaptor.getOperands());
    }
    if (item)
      mark("tilekit_trace_work_end");
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
  const llvm::StringSet<> &inCore;
  const llvm::StringMap<GroupLaunch> &groups;
};

} // namespace

//===----------------------------------------------------------------------===//
// The file
//===----------------------------------------------------------------------===//

/// The functions `entry` reaches, callees before callers.
static SmallVector<func::FuncOp> reachable(ModuleOp module,
                                           func::FuncOp entry) {
  SmallVector<func::FuncOp> order;
  llvm::SmallPtrSet<Operation *, 8> seen;
  std::function<void(func::FuncOp)> visit = [&](func::FuncOp func) {
    if (!seen.insert(func).second)
      return;
    // A group runs its members, which are not called.
    if (getFunctionKind(func) == FunctionKind::Group)
      if (std::optional<GroupInfo> group = resolveGroup(func))
        for (Operation *member : {group->aic, group->aiv})
          if (auto memberFunc = dyn_cast<func::FuncOp>(member))
            visit(memberFunc);
    func.walk([&](func::CallOp call) {
      if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee()))
        visit(callee);
    });
    order.push_back(func);
  };
  visit(entry);
  return order;
}

/// The exported entry points: the ABI version, the parameters, and the
/// run of `entry` over its blocks.
static void printEntryPoints(raw_ostream &os, func::FuncOp entry) {
  std::string params, binds, callArgs;
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    std::string name = "arg" + std::to_string(i);
    if (auto source = entry.getArgAttrOfType<StringAttr>(i, "tilekit.name"))
      name = source.str();
    std::string var = "p" + std::to_string(i);
    if (auto tensor = dyn_cast<GMTensorType>(arg.getType())) {
      params += "tensor " + name + " ";
      std::string shape;
      for (int64_t d = 0; d < tensor.getRank(); ++d) {
        shape += d ? "x" : "";
        shape += tensor.isDynamicDim(d) ? std::string("?")
                                        : std::to_string(tensor.getDimSize(d));
      }
      params += shape + "\\n";
      binds += "    " + kNs.str() + "Tensor " + var + " = " + kNs.str() +
               "bindTensor(ctx, args, num_args, at, " + cppStringLiteral(name) +
               ", " + cppStringLiteral(shape) + ");\n";
    } else {
      std::string kind;
      std::string value = scalarParameter(
          arg.getType(), kNs.str() + "bindScalar(args, num_args, at)", kind);
      params += kind + " " + name + "\\n";
      binds += "    auto " + var + " = " + value + ";\n";
    }
    callArgs += (i ? ", " : "") + var;
  }
  bool itemPerBlock = getFunctionKind(entry) != FunctionKind::Orchestration;
  std::string run = "    for (int64_t block = 0; block < blocks; ++block) {\n"
                    "      ctx.blockIndex = block;\n";
  if (itemPerBlock)
    run += "      tilekit_producer::tilekit_trace_work_begin(ctx);\n";
  run += "      " + entry.getName().str() + "(" + callArgs + ");\n";
  if (itemPerBlock)
    run += "      tilekit_producer::tilekit_trace_work_end(ctx);\n";
  run += "    }\n";
  producer::printEntryPoints(os, params, binds, run);
}

std::string tilekit::getTraceProducerCallFormats() {
  // The declarations of the section between the markers: each function's
  // head up to its body, on one line.
  StringRef section = kTraceProducerCallFormats;
  std::string formats;
  while (!section.empty()) {
    size_t start = section.find("inline ");
    if (start == StringRef::npos)
      break;
    section = section.drop_front(start + StringRef("inline ").size());
    size_t body = section.find(") {");
    if (body == StringRef::npos)
      break;
    StringRef head = section.take_front(body + 1);
    SmallVector<StringRef> words;
    head.split(words, ' ', -1, /*KeepEmpty=*/false);
    std::string line;
    for (StringRef word : words) {
      word = word.trim();
      if (word.empty())
        continue;
      if (!line.empty() && line.back() != '(')
        line += ' ';
      line += word;
    }
    formats += line + ";\n";
    section = section.drop_front(body);
  }
  return formats;
}

LogicalResult tilekit::translatePTOToTraceProducer(ModuleOp module,
                                                   StringRef entryName,
                                                   StringRef source,
                                                   raw_ostream &os) {
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  // Helpers that take tiles run inline, as in the compiled kernel.
  if (failed(inlineTileCalls(*copy)))
    return failure();
  auto entry = copy->lookupSymbol<func::FuncOp>(entryName);
  if (!entry)
    return module.emitError()
           << "no function @" << entryName << " to produce a trace for";
  if (getFunctionKind(entry) == FunctionKind::Group)
    return entry.emitError()
           << "'func.func' is a group: a trace producer's entry is an "
              "orchestration or in-core function (call the group from one)";
  SmallVector<func::FuncOp> funcs = reachable(*copy, entry);
  MLIRContext *context = module.getContext();
  ProducerTables tables;
  ProducerTypes types;
  PTORules rules(context, types, tables);
  addRules(rules);
  if (failed(checkProducible(funcs, rules)))
    return failure();
  // The functions the entry reaches, callees first (C++ declares before
  // use); nothing else.
  for (auto func : llvm::make_early_inc_range(copy->getOps<func::FuncOp>()))
    if (!llvm::is_contained(funcs, func))
      func.erase();
  for (func::FuncOp func : funcs)
    func->moveBefore(copy->getBody(), copy->getBody()->end());
  for (func::FuncOp func : funcs) {
    func.setPrivate(); // `static`: only the entry points are exported
    auto name =
        StringAttr::get(func.getContext(), kKernelPrefix + func.getName());
    if (failed(SymbolTable::replaceAllSymbolUses(func, name, *copy)))
      return func.emitError() << "cannot be renamed for C++";
    func.setName(name);
  }
  // Group functions launch their members: a GroupSpec each, no body.
  llvm::StringMap<GroupLaunch> groups;
  for (func::FuncOp func : llvm::make_early_inc_range(funcs)) {
    if (getFunctionKind(func) != FunctionKind::Group)
      continue;
    GroupInfo info = *resolveGroup(func);
    std::string spec = "kGroups[" + std::to_string(tables.groups.size()) + "]";
    tables.groups.push_back(
        "{\"" + func.getName().drop_front(kKernelPrefix.size()).str() + "\", " +
        std::to_string(info.numLanes()) + ", " +
        (info.split == 0 && info.dualAivDispatch ? "true" : "false") + "}");
    groups[func.getName()] = {
        spec, "&" + cast<func::FuncOp>(info.aic).getName().str(),
        "&" + cast<func::FuncOp>(info.aiv).getName().str()};
    func.erase();
  }

  std::string entryPoints;
  llvm::raw_string_ostream entryOs(entryPoints);
  printEntryPoints(entryOs, entry);

  // Stage one: the PTO ops become calls, and the tiles and tensors that
  // control flow and calls carry take their C++ types.
  if (failed(lowerOpsToCalls<PTODialect>(*copy, types, rules.takePatterns())))
    return failure();
  // Stage two: arith, scf and func through MLIR's conversions to EmitC; a
  // call of an in-core function marks a work item.
  {
    RewritePatternSet patterns(context);
    llvm::StringSet<> inCore;
    for (func::FuncOp func : copy->getOps<func::FuncOp>())
      if (getFunctionKind(func) == FunctionKind::InCore)
        inCore.insert(func.getName());
    patterns.add<WorkItemCallLowering>(types, context, inCore, groups);
    populateArithGapsToEmitCPatterns(types, patterns);
    populateArithFloatGapsToEmitCPatterns(types, patterns);
    populateArithToEmitCPatterns(types, patterns);
    populateSCFToEmitCConversionPatterns(patterns, types);
    populateFuncToEmitCPatterns(types, patterns);
    types.useSignedIndex();
    ConversionTarget target(*context);
    target.addLegalDialect<emitc::EmitCDialect>();
    target.addLegalOp<ModuleOp>();
    target.addIllegalDialect<arith::ArithDialect, scf::SCFDialect,
                             func::FuncDialect>();
    if (failed(applyFullConversion(*copy, target, std::move(patterns))))
      return failure();
  }
  // The banner, the runtime header, the tables, the functions, the entry
  // points.
  std::string body;
  if (failed(printFunctions(*copy, body)))
    return failure();
  os << "// GENERATED by tilekit compile --emit=trace-producer from " << source
     << " -- DO NOT EDIT\n"
     << "//\n"
     << "// The trace producer of @" << entryName
     << ": the kernel's control flow and index arithmetic, each traced op a\n"
     << "// call writing the executor's record for it. Trace ABI version "
     << TILEKIT_TRACE_ABI_VERSION << ";\n// the calls it makes:\n";
  std::string formats = getTraceProducerCallFormats();
  for (StringRef line : llvm::split(formats, '\n'))
    if (!line.empty())
      os << "//   " << line << "\n";
  os << "\n#include \"tilekit/Trace/TraceProducer.h\"\n\n";
  tables.print(os);
  os << "\n" << body << "\n" << entryPoints;
  return success();
}

bool tilekit::hasPTOTraceRule(Operation *op) {
  ProducerTables tables;
  ProducerTypes types;
  PTORules rules(op->getContext(), types, tables);
  addRules(rules);
  return rules.takes(op);
}
