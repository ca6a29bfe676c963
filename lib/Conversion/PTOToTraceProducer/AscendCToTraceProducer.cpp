//===- AscendCToTraceProducer.cpp - Compiled kernels as trace producers ---===//
//
// A compiled AscendC module (what `tilekit compile --arch` writes) as C++
// that writes the trace the executor writes for it (lib/Interp/
// AscendCTrace.cpp), without data: its control flow and index arithmetic
// through EmitC, each instruction a call of include/tilekit/Trace/
// AscendCTraceProducer.h. What the IR fixes about a record (kind, path,
// element size, names, location) goes into the prototype table; the calls
// add what the run decides (counts, windows, offsets, tensors).
//
// The structure first becomes control flow: a launch a loop over its
// blocks, each running the kernel through ascendc_run_kernel (a mixed one
// as each of its cores at once, on threads); `if_aic` / `if_aiv` a branch
// on the core a thread runs; `if_subblock` a lane scope around its ops.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/AscendCToTraceProducer.h"

#include "ProducerEmission.h"
#include "ProducerRules.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/InstructionRecords.h"
#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/FuncToEmitC/FuncToEmitC.h"
#include "mlir/Conversion/MemRefToEmitC/MemRefToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::ascendc;
using namespace tilekit::producer;
using trace::RecordKind;

static constexpr llvm::StringLiteral kPrefix = "kernel_";

/// The functions `entry` reaches through calls and launches, callees
/// first.
static SmallVector<func::FuncOp> reachable(ModuleOp module,
                                           func::FuncOp entry) {
  SmallVector<func::FuncOp> order;
  llvm::SmallPtrSet<Operation *, 8> seen;
  std::function<void(func::FuncOp)> visit = [&](func::FuncOp func) {
    if (!seen.insert(func).second)
      return;
    func.walk([&](Operation *op) {
      StringRef callee;
      if (auto call = dyn_cast<func::CallOp>(op))
        callee = call.getCallee();
      else if (auto launch = dyn_cast<LaunchOp>(op))
        callee = launch.getCallee();
      if (auto target = module.lookupSymbol<func::FuncOp>(callee))
        visit(target);
    });
    order.push_back(func);
  };
  visit(entry);
  return order;
}

//===----------------------------------------------------------------------===//
// Structure as control flow
//===----------------------------------------------------------------------===//

/// An opaque call taking the context first, then `operands`.
static Value callRuntime(OpBuilder &builder, Location loc, StringRef callee,
                         Type result, ValueRange operands,
                         ArrayRef<std::string> literalsAfter = {}) {
  MLIRContext *context = builder.getContext();
  SmallVector<Attribute> args{emitc::OpaqueAttr::get(context, kContextArg)};
  for (unsigned i = 0; i < operands.size(); ++i)
    args.push_back(builder.getIndexAttr(i));
  for (const std::string &text : literalsAfter)
    args.push_back(emitc::OpaqueAttr::get(context, text));
  auto call = emitc::CallOpaqueOp::create(
      builder, loc, result ? TypeRange(result) : TypeRange(),
      (kNs + callee).str(), operands, builder.getArrayAttr(args));
  return result ? call.getResult(0) : Value();
}

/// Moves the ops of `region`'s block but its terminator before `before`.
static void inlineBody(Region &region, Operation *before) {
  Block &body = region.front();
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    op.moveBefore(before);
}

/// The structure lowerStructure turns into control flow before the rules
/// run: launches, core groups and lanes.
static bool isStructure(Operation *op) {
  return isa<LaunchOp, IfAicOp, IfAivOp, IfSubBlockOp>(op);
}

/// Launches, core groups and lanes as calls and control flow; the file has
/// `workspaceOps` workspace ops.
static void lowerStructure(ModuleOp module,
                           const llvm::StringMap<std::string> &kinds,
                           size_t workspaceOps) {
  SmallVector<Operation *> structured;
  module.walk([&](Operation *op) {
    if (isStructure(op))
      structured.push_back(op);
  });
  // Inner ops first: an if_subblock inside an if_aiv moves with its body.
  for (Operation *op : llvm::reverse(structured)) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    if (auto lane = dyn_cast<IfSubBlockOp>(op)) {
      std::string which = std::to_string(lane.getLane());
      callRuntime(builder, loc, "ascendc_lane_begin", Type(), {}, {which});
      inlineBody(lane.getBody(), op);
      callRuntime(builder, loc, "ascendc_lane_end", Type(), {});
      op->erase();
      continue;
    }
    if (isa<IfAicOp, IfAivOp>(op)) {
      Value cube =
          callRuntime(builder, loc, "ascendc_on_cube", builder.getI1Type(), {});
      if (isa<IfAivOp>(op))
        cube = arith::XOrIOp::create(
            builder, loc, cube,
            arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true)));
      auto branch = scf::IfOp::create(builder, loc, cube, /*withElse=*/false);
      inlineBody(op->getRegion(0), branch.thenBlock()->getTerminator());
      op->erase();
      continue;
    }
    auto launch = cast<LaunchOp>(op);
    auto kernel = module.lookupSymbol<func::FuncOp>(launch.getCallee());
    std::string kind = kinds.lookup(launch.getCallee());
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    auto blocks =
        scf::ForOp::create(builder, loc, zero, launch.getBlocks(), one);
    builder.setInsertionPoint(blocks.getBody()->getTerminator());
    callRuntime(builder, loc, "ascendc_block_begin", Type(),
                {blocks.getInductionVar(), launch.getBlocks()},
                {kind, std::to_string(workspaceOps) + "u"});
    // The kernel runs through ascendc_run_kernel (RunKernelLowering), which
    // runs a mixed one as each of its cores at once.
    func::CallOp::create(builder, loc, kernel, launch.getArgs());
    callRuntime(builder, loc, "ascendc_block_end", Type(), {});
    op->erase();
  }
}

//===----------------------------------------------------------------------===//
// Instructions as calls
//===----------------------------------------------------------------------===//

namespace {

class ProducerTypes : public SignedIndexTypes {
public:
  ProducerTypes() {
    addConversion([](Type type) { return type; });
    addConversion([](LocalTensorType type) -> Type {
      return emitc::OpaqueType::get(type.getContext(), (kNs + "Local").str());
    });
    addConversion([](GlobalTensorType type) -> Type {
      return emitc::OpaqueType::get(type.getContext(), (kNs + "GmView").str());
    });
    populateMemRefToEmitCTypeConversion(*this);
  }
};

/// The buffer a tensor of `type` lives in.
Buffer bufferOf(Type type, Value tensor) {
  if (isa<GlobalTensorType>(type))
    return Buffer::GM;
  std::optional<Position> position = getPosition(tensor);
  return position ? getBuffer(*position) : Buffer::UB;
}

int64_t elementBytesOf(Type type) {
  return getElementBytes(cast<ShapedType>(type).getElementType());
}

/// What decides the core of a function's records (kTwoVectorCores and
/// kCubeFunction of AscendCTraceProducer.h), read before anything changes:
/// whether it runs its lanes on two vector cores (1:2), whether it runs on
/// the cube outside a mixed kernel.
std::string whereOf(func::FuncOp func) {
  int where = (getKernelCores(func) == KernelCores::MixedOneToTwo ? 1 : 0) |
              (isCubeKernel(func) ? 2 : 0);
  return std::to_string(where);
}

/// What the lowering reads of the module before it changes it.
struct ModuleFacts {
  llvm::DenseMap<Operation *, std::string> where;
  /// Each launched kernel's cores: "0" vector, "1" cube, "2" both.
  llvm::StringMap<std::string> kinds;
  /// A number per workspace op (a block's storage for it).
  llvm::DenseMap<Operation *, unsigned> workspaces;
};

/// What the AscendC producer's rules read: the file's tables and the facts
/// read off the module before the structure went.
struct AscendCEnv {
  ProducerTables &tables;
  const ModuleFacts &facts;

  /// A record of `op` of kind `kind`, located.
  Record proto(Operation *op, RecordKind kind) {
    Record record(kind);
    record.loc = tables.location(op);
    return record;
  }
  /// What decides the core of `op`'s records (whereOf of its function).
  std::string where(Operation *op) const {
    return facts.where.lookup(op->getParentOfType<func::FuncOp>());
  }
};

template <typename... Ops> using AscendCRule = OpRule<AscendCEnv, Ops...>;

/// Markers the executor runs as no-ops, and the scalar unit's debugging
/// ops and element writes, which it does not time, become nothing.
struct MarkerRule : AscendCRule<SubBlockGuardOp, InitDumpOp, PrintfOp,
                                DumpTensorOp, AssertOp, SetValueOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override { return l.replace(Value()); }
};

/// An element the scalar unit reads (untimed): a producer has no data, so
/// it is a zero, which is right only while the value stays data
/// (checkProducible refuses the others, steeredBy).
struct GetValueRule : AscendCRule<GetValueOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    Attribute zero =
        isa<IntegerType, FloatType>(l.resultType)
            ? Attribute(l.rewriter.getZeroAttr(l.resultType))
            : Attribute(emitc::OpaqueAttr::get(l.op->getContext(), "0"));
    return l.replace(emitc::ConstantOp::create(l.rewriter, l.op->getLoc(),
                                               l.resultType, zero));
  }
};

/// A local tensor: its pool (its buffer; a lane's UB per lane, as the
/// executor keeps them) and address.
struct LocalTensorRule : AscendCRule<LocalTensorOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto local = cast<LocalTensorOp>(l.op);
    unsigned pool = getStoragePool(getBuffer(local.getPosition()),
                                   getTensorOwner(local.getResult()));
    l.call.literal(Twine(pool)).literal(Twine(local.getAddr()) + "LL");
    return l.replaceByCall("ascendc_local");
  }
};

/// Views of a tensor: a local tensor at an element offset, a GM tensor
/// from an element on.
struct ViewRule : AscendCRule<ReinterpretCastOp, GlobalSubIndexOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    if (auto view = dyn_cast<GlobalSubIndexOp>(l.op)) {
      l.call.value(l.converted(view.getSource()))
          .value(l.converted(view.getOffset()));
      return l.replaceByCall("ascendc_subindex");
    }
    auto view = cast<ReinterpretCastOp>(l.op);
    if (!view.getOffset())
      return l.replace(l.converted(view.getSource()));
    l.call.value(l.converted(view.getSource()))
        .value(l.converted(view.getOffset()))
        .literal(Twine(elementBytesOf(view.getSource().getType())));
    return l.replaceByCall("ascendc_local_view");
  }
};

/// A GM tensor seen with other extents: the rank, then each extent.
struct GlobalReshapeRule : AscendCRule<GlobalReshapeOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto reshape = cast<GlobalReshapeOp>(l.op);
    auto type = cast<GlobalTensorType>(reshape.getResult().getType());
    l.call.value(l.converted(reshape.getSource()))
        .literal(Twine(type.getRank()));
    auto sizes = reshape.getSizes().begin();
    for (int64_t extent : type.getShape()) {
      if (ShapedType::isDynamic(extent))
        l.call.value(l.converted(*sizes++));
      else
        l.call.literal(Twine(extent));
    }
    return l.replaceByCall("ascendc_reshape");
  }
};

struct GlobalDimRule : AscendCRule<GlobalDimOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto dim = cast<GlobalDimOp>(l.op);
    l.call.value(l.converted(dim.getSource())).literal(Twine(dim.getDim()));
    return l.replaceByCall("ascendc_dim");
  }
};

/// The host's read of a GM element: a producer has no data to read.
struct GlobalReadRule : AscendCRule<GlobalReadOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    return l.op->emitOpError()
           << "reads an element of GM on the host, whose value a trace "
              "producer does not have (time the kernel with "
              "--producer=interp)";
  }
};

/// A block's GM workspace: numbered, of its elements (of its extents, for
/// a region of run-time shape).
struct WorkspaceRule : AscendCRule<WorkspaceOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto region = cast<WorkspaceOp>(l.op);
    auto type = cast<GlobalTensorType>(region.getType());
    l.call.literal(Twine(env.facts.workspaces.lookup(l.op)) + "u");
    if (!region.isDynamic()) {
      l.call.literal(Twine(type.getNumElements()) + "LL");
      return l.replaceByCall("ascendc_workspace");
    }
    l.call.literal(Twine(type.getRank()));
    auto sizes = region.getSizes().begin();
    for (int64_t extent : type.getShape()) {
      if (ShapedType::isDynamic(extent))
        l.call.value(l.converted(*sizes++));
      else
        l.call.literal(Twine(extent) + "LL");
    }
    return l.replaceByCall("ascendc_workspace_of");
  }
};

/// The block, block count and vector sub-block running the code.
struct IndexQueryRule
    : AscendCRule<GetBlockIdxOp, GetBlockNumOp, GetSubBlockIdxOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    return l.replaceByCall(isa<GetBlockIdxOp>(l.op) ? "ascendc_block_index"
                           : isa<GetBlockNumOp>(l.op)
                               ? "ascendc_block_count"
                               : "ascendc_subblock_index");
  }
};

/// Synchronization: static records. Buffer ids and cross-core flags are
/// sets and waits with their flag.
struct SyncRule
    : AscendCRule<SetFlagOp, WaitFlagOp, GetBufOp, RlsBufOp, CrossCoreSetFlagOp,
                  CrossCoreWaitFlagOp, PipeBarrierOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    Operation *op = l.op;
    if (auto barrier = dyn_cast<PipeBarrierOp>(op)) {
      Record record = env.proto(op, RecordKind::PipeBarrier);
      record.sub = static_cast<uint8_t>(barrier.getPipe());
      l.call.literal(env.tables.proto(record)).literal(env.where(op));
      return l.replaceByVoidCall("ascendc_sync");
    }
    auto sync = [&](RecordKind kind, Pipe set, Pipe wait, int64_t event,
                    uint8_t flags) {
      Record record = env.proto(op, kind);
      record.set_pipe = static_cast<uint8_t>(set);
      record.wait_pipe = static_cast<uint8_t>(wait);
      record.op = static_cast<uint16_t>(event);
      record.flags = flags;
      l.call.literal(env.tables.proto(record)).literal(env.where(op));
      return l.replaceByVoidCall("ascendc_sync");
    };
    if (auto set = dyn_cast<SetFlagOp>(op))
      return sync(RecordKind::SetFlag, set.getSrc(), set.getDst(),
                  set.getEvent(), 0);
    if (auto wait = dyn_cast<WaitFlagOp>(op))
      return sync(RecordKind::WaitFlag, wait.getSrc(), wait.getDst(),
                  wait.getEvent(), 0);
    if (auto get = dyn_cast<GetBufOp>(op))
      return sync(RecordKind::WaitFlag, get.getPipe(), get.getPipe(),
                  get.getBufId(), TILEKIT_TRACE_BUFFER_ID);
    if (auto release = dyn_cast<RlsBufOp>(op))
      return sync(RecordKind::SetFlag, release.getPipe(), release.getPipe(),
                  release.getBufId(), TILEKIT_TRACE_BUFFER_ID);
    if (auto set = dyn_cast<CrossCoreSetFlagOp>(op))
      return sync(RecordKind::SetFlag, set.getPipe(), set.getPipe(),
                  set.getFlag(), TILEKIT_TRACE_CROSS_CORE);
    auto wait = cast<CrossCoreWaitFlagOp>(op);
    return sync(RecordKind::WaitFlag, wait.getPipe(), wait.getPipe(),
                wait.getFlag(), TILEKIT_TRACE_CROSS_CORE);
  }
};

/// Data moves: rows x cols elements, rows `gmStride` apart in GM.
struct TransferRule : AscendCRule<DataCopyOp, LoadDataOp, FixpipeOp> {
  using OpRule::OpRule;

  LogicalResult lower(Lowering &l) const override {
    if (auto copy = dyn_cast<DataCopyOp>(l.op)) {
      if (!copy.getWindow().empty()) {
        bool fromGm = isa<GlobalTensorType>(copy.getSrc().getType());
        return transfer(l, copy.getDst(), copy.getSrc(),
                        l.converted(copy.getWindow()[0]),
                        l.converted(copy.getWindow()[1]),
                        l.converted(copy.getStrides()[fromGm ? 0 : 1]), 0);
      }
      Value local = isa<LocalTensorType>(copy.getDst().getType())
                        ? copy.getDst()
                        : copy.getSrc();
      return transfer(l, copy.getDst(), copy.getSrc(), Value(),
                      copy.getCount() ? l.converted(copy.getCount()) : Value(),
                      Value(), localElements(local));
    }
    if (auto load = dyn_cast<LoadDataOp>(l.op))
      return transfer(
          l, load.getDst(), load.getSrc(), Value(), Value(), Value(),
          std::min(localElements(load.getDst()), localElements(load.getSrc())));
    auto fixpipe = cast<FixpipeOp>(l.op);
    if (!fixpipe.getWindow().empty())
      return transfer(l, fixpipe.getDst(), fixpipe.getSrc(),
                      l.converted(fixpipe.getWindow()[0]),
                      l.converted(fixpipe.getWindow()[1]),
                      l.converted(fixpipe.getStrides()[1]), 0);
    int64_t count = localElements(fixpipe.getSrc());
    if (isa<LocalTensorType>(fixpipe.getDst().getType()))
      count = std::min(count, localElements(fixpipe.getDst()));
    return transfer(l, fixpipe.getDst(), fixpipe.getSrc(), Value(), Value(),
                    Value(), count);
  }

private:
  static int64_t localElements(Value tensor) {
    auto type = dyn_cast<LocalTensorType>(tensor.getType());
    return type ? type.getNumElements() : int64_t(0);
  }

  LogicalResult transfer(Lowering &l, Value dst, Value src, Value rows,
                         Value cols, Value gmStride, int64_t staticCols) const {
    Buffer from = bufferOf(src.getType(), src),
           to = bufferOf(dst.getType(), dst);
    std::optional<trace::DmaPath> path = machine::findPath(from, to);
    if (!path)
      return l.op->emitOpError()
             << "moves data from " << machine::getName(from) << " to "
             << machine::getName(to) << ", which no data path connects";
    Record record = env.proto(l.op, RecordKind::Dma);
    record.sub = static_cast<uint8_t>(*path);
    bool gm = from == Buffer::GM || to == Buffer::GM;
    Type gmType = from == Buffer::GM ? src.getType() : dst.getType();
    record.elem_size =
        static_cast<uint8_t>(elementBytesOf(gm ? gmType : dst.getType()));
    if (to != Buffer::GM)
      record.setSpace(to);
    l.call.literal(env.tables.proto(record))
        .literal(env.where(l.op))
        .value(l.converted(src))
        .value(l.converted(dst));
    rows ? l.call.value(rows) : l.call.literal("1");
    cols ? l.call.value(cols) : l.call.literal(Twine(staticCols) + "LL");
    gmStride ? l.call.value(gmStride) : l.call.literal("0");
    return l.replaceByVoidCall("ascendc_transfer");
  }
};

/// A matmul: a cube op of M x K x N, accumulating unless it initializes.
struct MmadRule : AscendCRule<MmadOp> {
  using OpRule::OpRule;
  LogicalResult lower(Lowering &l) const override {
    auto mmad = cast<MmadOp>(l.op);
    Record record = env.proto(l.op, RecordKind::Compute);
    record.sub = static_cast<uint8_t>(trace::Unit::Cube);
    record.op = env.tables.name("matmul");
    Type element =
        cast<LocalTensorType>(mmad.getA().getType()).getElementType();
    record.dtype =
        env.tables.name(interp::getKindName(interp::kindOf(element)));
    record.elem_size = static_cast<uint8_t>(getElementBytes(element));
    record.setSpace(Buffer::L0C);
    l.call.literal(env.tables.proto(record))
        .literal(env.where(l.op))
        .value(l.converted(mmad.getA()))
        .value(l.converted(mmad.getB()))
        .value(l.converted(mmad.getDst()))
        .value(l.converted(mmad.getM()))
        .value(l.converted(mmad.getK()))
        .value(l.converted(mmad.getN()));
    mmad.getInit() ? l.call.value(l.converted(mmad.getInit()))
                   : l.call.literal("true");
    return l.replaceByVoidCall("ascendc_mmad");
  }
};

/// A vector instruction: its elements and the tensors it reads and
/// writes, as AscendCTrace.cpp counts and lists them.
struct VectorInstructionRule : ProducerRule<AscendCEnv> {
  VectorInstructionRule(const TypeConverter &types, MLIRContext *context,
                        AscendCEnv &env)
      : ProducerRule(types, context, env, /*benefit=*/1) {}

  bool takes(Operation *op) const override {
    return isa<AscendCDialect>(op->getDialect()) && getOpPipe(op) == Pipe::V;
  }

  LogicalResult lower(Lowering &l) const override {
    Operation *op = l.op;
    Record record = env.proto(op, RecordKind::Compute);
    record.sub = static_cast<uint8_t>(trace::Unit::Vector);
    record.op = env.tables.name(getRecordOpName(op));
    SmallVector<TensorAccess> accesses = getTensorAccesses(op);
    if (Value typed = getRecordTypedTensor(op)) {
      Type element = cast<LocalTensorType>(typed.getType()).getElementType();
      record.dtype =
          env.tables.name(interp::getKindName(interp::kindOf(element)));
      record.elem_size = static_cast<uint8_t>(getElementBytes(element));
    }
    record.setSpace(Buffer::UB);
    record.shape[1] = static_cast<uint32_t>(getRecordColumns(op));
    l.call.literal(env.tables.proto(record)).literal(env.where(op));
    // The elements.
    int64_t largest = getLargestOperandElements(op);
    if (auto l2 = dyn_cast<VectorL2OpInterface>(op)) {
      l2.getCount() ? l.call.value(l.converted(l2.getCount()))
                    : l.call.literal(Twine(largest) + "LL");
    } else if (auto l0 = dyn_cast<VectorL0OpInterface>(op)) {
      L0Operands defaults = getDefaultL0Operands(op);
      CallBuilder count{l.rewriter, op->getLoc(), {}, {}};
      count.literal(kContextArg);
      l0.getMask() ? count.value(l.converted(l0.getMask()))
                   : count.literal(Twine(defaults.mask) + "LL");
      l0.getRepeat() ? count.value(l.converted(l0.getRepeat()))
                     : count.literal(Twine(defaults.repeat) + "LL");
      if (l0.getMaskHigh())
        count.literal("true")
            .value(l.converted(l0.getMaskLow()))
            .value(l.converted(l0.getMaskHigh()));
      else
        count.literal("false").literal("0").literal("0");
      l.call.value(count.call("ascendc_l0_elements",
                              emitc::PtrDiffTType::get(op->getContext())));
    } else {
      l.call.literal(Twine(largest) + "LL");
    }
    // The tensors, a digit per access: 1 reads, 2 writes, 3 both.
    std::string digits;
    SmallVector<Value> tensors;
    for (const TensorAccess &access : accesses) {
      if (!isa<LocalTensorType>(access.tensor.getType()))
        continue;
      digits += char('0' + (access.reads ? 1 : 0) + (access.writes ? 2 : 0));
      tensors.push_back(l.converted(access.tensor));
    }
    l.call.literal("\"" + digits + "\"");
    for (Value tensor : tensors)
      l.call.value(tensor);
    return l.replaceByVoidCall("ascendc_vector");
  }
};

using AscendCRules = RuleSet<AscendCEnv>;

/// The AscendC producer's rules.
void addRules(AscendCRules &rules) {
  rules.add<MarkerRule, GetValueRule, LocalTensorRule, ViewRule,
            GlobalReshapeRule, GlobalDimRule, GlobalReadRule, WorkspaceRule,
            IndexQueryRule, SyncRule, TransferRule, MmadRule,
            VectorInstructionRule>();
}

/// A launched kernel's call (a kernel is called by its launches alone):
/// `ascendc_run_kernel(ctx, &kernel, args...)`.
struct RunKernelLowering : OpConversionPattern<func::CallOp> {
  /// `kernels`: the launched kernels' C++ names.
  RunKernelLowering(const TypeConverter &types, MLIRContext *context,
                    const llvm::StringSet<> &kernels)
      : OpConversionPattern(types, context, /*benefit=*/2), kernels(kernels) {}
  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!kernels.contains(op.getCallee()))
      return failure();
    SmallVector<Attribute> args{
        emitc::OpaqueAttr::get(getContext(), kContextArg),
        emitc::OpaqueAttr::get(getContext(), ("&" + op.getCallee()).str())};
    for (unsigned i = 0; i < adaptor.getOperands().size(); ++i)
      args.push_back(rewriter.getIndexAttr(i));
    emitc::CallOpaqueOp::create(
        rewriter, op.getLoc(), TypeRange(), (kNs + "ascendc_run_kernel").str(),
        adaptor.getOperands(), rewriter.getArrayAttr(args));
    rewriter.eraseOp(op);
    return success();
  }
  const llvm::StringSet<> &kernels;
};

} // namespace

/// Whether the producer traces `op`: structure, the upstream ops its second
/// stage converts, or an op a rule of `rules` takes.
static bool isProducible(Operation *op, const AscendCRules &rules) {
  // The accumulators' first-step flags live in memrefs
  // (ascendc-fixup-mmad-acc-params).
  return isa<func::FuncOp, func::ReturnOp, func::CallOp>(op) ||
         isa_and_nonnull<arith::ArithDialect, scf::SCFDialect,
                         memref::MemRefDialect>(op->getDialect()) ||
         isStructure(op) || isa<YieldOp>(op) || rules.takes(op);
}

/// The first op the element `get` reads steers (control flow, a call, an
/// index of a timed instruction), or null while it stays data: an
/// instruction's scalar, or an element the scalar unit reads or writes.
static Operation *steeredBy(GetValueOp get) {
  SmallVector<Value> work{get.getResult()};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<arith::ArithDialect>(user->getDialect())) {
        llvm::append_range(work, user->getResults());
        continue;
      }
      if (isa<GetValueOp, SetValueOp>(user) ||
          (isa<AscendCDialect>(user->getDialect()) &&
           !isa<IndexType>(value.getType())))
        continue;
      return user;
    }
  }
  return nullptr;
}

/// Reports each op of `funcs` that the producer does not trace.
static LogicalResult checkProducible(ArrayRef<func::FuncOp> funcs,
                                     const AscendCRules &rules) {
  bool ok = true;
  for (func::FuncOp func : funcs)
    func.walk([&](Operation *op) {
      if (auto get = dyn_cast<GetValueOp>(op))
        if (Operation *user = steeredBy(get)) {
          get.emitOpError()
              << "reads an element whose value steers '" << user->getName()
              << "' at " << user->getLoc()
              << "; a trace producer has no data (time the kernel with "
                 "--producer=interp)";
          ok = false;
          return;
        }
      if (isProducible(op, rules))
        return;
      op->emitError() << "'" << op->getName()
                      << "' has no trace-producer rule (time the kernel "
                         "with --producer=interp)";
      ok = false;
    });
  return success(ok);
}

/// The exported entry points: the ABI version, the parameters, and one
/// run of the host function `entry`.
static void printEntryPoints(raw_ostream &os, func::FuncOp entry,
                             StringRef cppName, bool passBlocks) {
  std::string params, binds, callArgs;
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    std::string name = "arg" + std::to_string(i);
    if (auto source = entry.getArgAttrOfType<StringAttr>(i, "tilekit.name"))
      name = source.str();
    std::string var = "p" + std::to_string(i);
    if (auto tensor = dyn_cast<GlobalTensorType>(arg.getType())) {
      std::string shape;
      for (int64_t d = 0; d < tensor.getRank(); ++d) {
        shape += d ? "x" : "";
        shape += tensor.isDynamicDim(d) ? std::string("?")
                                        : std::to_string(tensor.getDimSize(d));
      }
      params += "tensor " + name + " " + shape + "\\n";
      binds += "    " + kNs.str() + "GmView " + var + " = " + kNs.str() +
               "gmView(" + kNs.str() + "bindTensor(ctx, args, num_args, at, " +
               cppStringLiteral(name) + ", " + cppStringLiteral(shape) +
               "));\n";
    } else {
      std::string kind;
      std::string value = scalarParameter(
          arg.getType(), kNs.str() + "bindScalar(args, num_args, at)", kind);
      params += kind + " " + name + "\\n";
      binds += "    auto " + var + " = " + value + ";\n";
    }
    callArgs += (i ? ", " : "") + var;
  }
  // A kernel entry runs as a launch of the run's `blocks`.
  if (passBlocks)
    callArgs += std::string(callArgs.empty() ? "" : ", ") +
                "static_cast<ptrdiff_t>(blocks)";
  producer::printEntryPoints(os, params, binds,
                             "    " + cppName.str() + "(" + callArgs + ");\n");
}

/// A kernel named as the entry (no host function launches it) runs as a
/// launch of the run's blocks, as the executor launches it: a host function
/// `@<kernel>_launch(args..., blocks)` made for it.
static func::FuncOp wrapInLaunch(ModuleOp module, func::FuncOp kernel) {
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.push_back(builder.getIndexType());
  auto host = func::FuncOp::create(builder, kernel.getLoc(),
                                   (kernel.getName() + "_launch").str(),
                                   builder.getFunctionType(inputs, {}));
  Block *body = host.addEntryBlock();
  builder.setInsertionPointToStart(body);
  LaunchOp::create(builder, kernel.getLoc(), kernel.getName(),
                   body->getArguments().drop_back(),
                   body->getArguments().back());
  func::ReturnOp::create(builder, kernel.getLoc());
  return host;
}

LogicalResult tilekit::translateAscendCToTraceProducer(ModuleOp module,
                                                       StringRef entryName,
                                                       StringRef source,
                                                       raw_ostream &os) {
  OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
  auto entry = copy->lookupSymbol<func::FuncOp>(entryName);
  if (!entry)
    return module.emitError()
           << "no function @" << entryName << " to produce a trace for";
  // The entry points, from the entry's signature.
  bool launches = entry->hasAttr(AscendCDialect::kHostAttrName) ||
                  entry.walk([](LaunchOp) { return WalkResult::interrupt(); })
                      .wasInterrupted();
  func::FuncOp run = launches ? entry : wrapInLaunch(*copy, entry);
  std::string entryPoints;
  llvm::raw_string_ostream entryOs(entryPoints);
  printEntryPoints(entryOs, entry, (kPrefix + run.getName()).str(), !launches);
  SmallVector<func::FuncOp> funcs = reachable(*copy, run);
  MLIRContext *context = module.getContext();
  ProducerTables tables;
  ProducerTypes types;
  ModuleFacts facts;
  AscendCEnv env{tables, facts};
  AscendCRules rules(context, types, env);
  addRules(rules);
  if (failed(checkProducible(funcs, rules)))
    return failure();
  for (auto func : llvm::make_early_inc_range(copy->getOps<func::FuncOp>()))
    if (!llvm::is_contained(funcs, func))
      func.erase();
  // What decides each record's core is read before the structure goes.
  for (func::FuncOp func : funcs) {
    facts.where[func] = whereOf(func);
    func.walk([&](Operation *op) {
      if (auto launch = dyn_cast<LaunchOp>(op)) {
        auto kernel = copy->lookupSymbol<func::FuncOp>(launch.getCallee());
        KernelCores cores = getKernelCores(kernel);
        facts.kinds[launch.getCallee()] = isMixed(cores)               ? "2"
                                          : cores == KernelCores::Cube ? "1"
                                                                       : "0";
      }
      if (isa<WorkspaceOp>(op))
        facts.workspaces.try_emplace(op, facts.workspaces.size());
    });
  }
  lowerStructure(*copy, facts.kinds, facts.workspaces.size());
  if (failed(
          lowerOpsToCalls<AscendCDialect>(*copy, types, rules.takePatterns())))
    return failure();
  // C++ names: the functions in callee-first order, prefixed, static.
  for (func::FuncOp func : funcs) {
    func->moveBefore(copy->getBody(), copy->getBody()->end());
    func.setPrivate();
    auto name = StringAttr::get(context, kPrefix + func.getName());
    if (failed(SymbolTable::replaceAllSymbolUses(func, name, *copy)))
      return func.emitError() << "cannot be renamed for C++";
    func.setName(name);
  }
  {
    RewritePatternSet patterns(context);
    llvm::StringSet<> kernels;
    for (const auto &launched : facts.kinds)
      kernels.insert((kPrefix + launched.getKey()).str());
    patterns.add<RunKernelLowering>(types, context, kernels);
    populateArithGapsToEmitCPatterns(types, patterns);
    populateArithFloatGapsToEmitCPatterns(types, patterns);
    populateArithToEmitCPatterns(types, patterns);
    populateSCFToEmitCConversionPatterns(patterns, types);
    populateFuncToEmitCPatterns(types, patterns);
    populateMemRefToEmitCConversionPatterns(patterns, types);
    types.useSignedIndex();
    ConversionTarget target(*context);
    target.addLegalDialect<emitc::EmitCDialect>();
    target.addLegalOp<ModuleOp>();
    target.addIllegalDialect<arith::ArithDialect, scf::SCFDialect,
                             func::FuncDialect, memref::MemRefDialect>();
    if (failed(applyFullConversion(*copy, target, std::move(patterns))))
      return failure();
  }
  std::string body;
  if (failed(printFunctions(*copy, body)))
    return failure();
  os << "// GENERATED by tilekit compile --emit=trace-producer from " << source
     << " -- DO NOT EDIT\n"
     << "//\n"
     << "// The trace producer of the compiled kernel @" << entryName
     << ": its control flow and index\n// arithmetic, each instruction a "
        "call of tilekit/Trace/AscendCTraceProducer.h\n// writing the "
        "executor's record for it. Trace ABI version "
     << TILEKIT_TRACE_ABI_VERSION << ".\n"
     << "\n#include \"tilekit/Trace/AscendCTraceProducer.h\"\n\n";
  tables.print(os);
  os << "\n" << body << "\n" << entryPoints;
  return success();
}

bool tilekit::hasAscendCTraceRule(Operation *op) {
  ProducerTables tables;
  ProducerTypes types;
  ModuleFacts facts;
  AscendCEnv env{tables, facts};
  AscendCRules rules(op->getContext(), types, env);
  addRules(rules);
  return isProducible(op, rules);
}
