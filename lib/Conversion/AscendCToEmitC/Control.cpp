//===- Control.cpp - Kernels, core groups, sync and queries to EmitC ------===//
//
//   func.func (a kernel)   -> extern "C" __global__ __aicore__ void f(GM_ADDR
//                             x, ..., scalars, dynamic extents, GM_ADDR
//                             workspace), each GM argument set into an
//                             AscendC::GlobalTensor<T> (SetGlobalBuffer)
//   ascendc.if_aic/if_aiv  -> if (g_coreType == AscendC::AIC) { ... } / AIV
//   set_flag / wait_flag   -> AscendC::SetFlag<HardEvent::SRC_DST>(event)
//   pipe_barrier           -> AscendC::PipeBarrier<PIPE_X>()
//   get_buf / rls_buf      -> AscendC::Mutex::Lock<PIPE_X>(id) / Unlock
//   cross_core_*_flag      -> AscendC::CrossCoreSetFlag<0x2, PIPE_X>(flag),
//                             AscendC::CrossCoreWaitFlag<0x2, PIPE_X>(flag)
//   get_block_idx / num, get_subblock_idx -> AscendC::GetBlockIdx() ...
//   subblock_guard         -> if (AscendC::GetSubBlockIdx() != 0) return;
//   printf / dump_tensor / assert / init_dump -> the Ascend C debug API
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "tilekit/Conversion/AscendCToEmitC.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::emit;

namespace {

/// On an emitted kernel: its lanes run on two vector cores per cube.
constexpr llvm::StringLiteral kOneToTwoAttr = "tilekit.one_to_two";

/// KERNEL_TASK_TYPE_DEFAULT's value for a kernel on `cores`.
std::string kernelTypeName(ascendc::KernelCores cores) {
  switch (cores) {
  case ascendc::KernelCores::Cube:
    return "KERNEL_TYPE_AIC_ONLY";
  case ascendc::KernelCores::Vector:
    return "KERNEL_TYPE_AIV_ONLY";
  case ascendc::KernelCores::Mixed:
    return "KERNEL_TYPE_MIX_AIC_1_1";
  case ascendc::KernelCores::MixedOneToTwo:
    return "KERNEL_TYPE_MIX_AIC_1_2";
  }
  llvm_unreachable("the four kinds of kernel");
}

/// The block `op`'s code runs in. GetBlockIdx counts the cores of the
/// core's kind, so on a 1:2 kernel's vector cores it is twice the block
/// plus the sub-block: divided by GetTaskRatio (2 there, 1 on the cube;
/// the GetTaskRatio page) both cores of a block name the same one.
Value blockIndex(OpBuilder &builder, Operation *op) {
  Location loc = op->getLoc();
  auto index = emitc::PtrDiffTType::get(builder.getContext());
  auto query = [&](StringRef name) {
    return emitc::CallOpaqueOp::create(builder, loc, index, name, ValueRange())
        .getResult(0);
  };
  Value block = query("AscendC::GetBlockIdx");
  auto kernel = op->getParentOfType<emitc::FuncOp>();
  if (!kernel || !kernel->hasAttr(kOneToTwoAttr))
    return block;
  return emitc::DivOp::create(builder, loc, index, block,
                              query("AscendC::GetTaskRatio"));
}

/// The attribute of an emitted kernel naming the argument that carries
/// extent `dim` of its GM argument `arg`.
std::string extentAttrName(unsigned arg, unsigned dim) {
  return "tilekit.extent." + std::to_string(arg) + "." + std::to_string(dim);
}

/// `loc` named after the source name `named` carries (a NameLoc from
/// KernelFile::nameLocations) plus `suffix`; `loc` itself without one.
Location withSourceName(Location loc, Location named, StringRef suffix) {
  auto name = named->findInstanceOf<NameLoc>();
  if (!name)
    return loc;
  return NameLoc::get(
      StringAttr::get(loc->getContext(), name.getName().getValue() + suffix),
      loc);
}

/// A kernel: GM tensors arrive as GM_ADDR and become GlobalTensor objects
/// first thing; each dynamic extent of a GM argument and the workspace (if
/// the kernel has regions of it) are extra trailing arguments, in that
/// order (`docs/emit-cpp.md`, the kernel ABI).
struct KernelLowering : OpConversionPattern<func::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = func.getContext();
    if (!func.getBody().hasOneBlock())
      return func.emitOpError() << "has several blocks; a kernel emits as "
                                   "one structured body";
    // A kernel returns nothing: what a PTO kernel returns are GM buffers
    // it was passed, which its caller already holds.
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    for (Value result : ret.getOperands())
      if (!isa<BlockArgument>(result) ||
          cast<BlockArgument>(result).getOwner() != &func.getBody().front())
        return func.emitOpError()
               << "returns a value that is not one of its arguments; an "
                  "Ascend C kernel returns nothing";
    Type gmAddr = opaqueType(context, "GM_ADDR");
    auto extentType = emitc::PtrDiffTType::get(context);
    SmallVector<Type> inputs;
    for (BlockArgument arg : func.getArguments()) {
      if (isa<ascendc::GlobalTensorType>(arg.getType())) {
        inputs.push_back(gmAddr);
        continue;
      }
      Type converted = getTypeConverter()->convertType(arg.getType());
      if (!converted)
        return func.emitOpError()
               << "has argument " << arg.getArgNumber() << " of type "
               << arg.getType() << ", which has no C++ form here";
      inputs.push_back(converted);
    }
    // The dynamic extents, argument by argument.
    SmallVector<std::pair<unsigned, unsigned>> extents;
    for (BlockArgument arg : func.getArguments())
      if (auto tensor = dyn_cast<ascendc::GlobalTensorType>(arg.getType()))
        for (auto [dim, size] : llvm::enumerate(tensor.getShape()))
          if (ShapedType::isDynamic(size)) {
            extents.push_back({arg.getArgNumber(), unsigned(dim)});
            inputs.push_back(extentType);
          }
    KernelWorkspace workspace = getKernelWorkspace(func);
    bool hasWorkspace = !workspace.empty();
    // The host sizes regions of run-time shape: it must be able to.
    if (workspace.runtimeRegions && failed(workspaceBytesInAbi(func, "blocks")))
      return failure();
    if (hasWorkspace)
      inputs.push_back(gmAddr);

    auto kernel = emitc::FuncOp::create(rewriter, func.getLoc(), func.getName(),
                                        FunctionType::get(context, inputs, {}));
    // A work item's kernel inside a launch kernel is a device function: the
    // launch kernel is the entry, and sets the core up.
    bool device = func->hasAttr(ascendc::AscendCDialect::kDeviceAttrName);
    kernel.setSpecifiersAttr(rewriter.getStrArrayAttr(
        {device ? "__aicore__ inline" : "extern \"C\" __global__ __aicore__"}));
    // Made through the rewriter, which undoes it if the conversion fails.
    // A parameter keeps its argument's source name, and an extent is named
    // after its tensor (`xDim0`), for the emitted C++ (markNames).
    SmallVector<Location> locations(inputs.size(), func.getLoc());
    for (BlockArgument arg : func.getArguments())
      locations[arg.getArgNumber()] =
          withSourceName(func.getLoc(), arg.getLoc(), "");
    for (auto [index, extent] : llvm::enumerate(extents))
      locations[func.getNumArguments() + index] =
          withSourceName(func.getLoc(), func.getArgument(extent.first).getLoc(),
                         "Dim" + std::to_string(extent.second));
    Block *entry =
        rewriter.createBlock(&kernel.getBody(), {}, inputs, locations);
    rewriter.setInsertionPointToStart(entry);
    // A kernel says which cores the launch starts (the kernel type page;
    // the compiler does not infer it): a mixed kernel whose lanes run on
    // both vector sub-blocks is 1:2, another one 1:1 (its lanes, if any,
    // on sub-block 0).
    ascendc::KernelCores cores = ascendc::getKernelCores(func);
    if (!device)
      emitc::VerbatimOp::create(rewriter, func.getLoc(),
                                "KERNEL_TASK_TYPE_DEFAULT(" +
                                    kernelTypeName(cores) + ");");
    // Static tensor programming leaves the core's global state (atomic
    // mode, masks) to the kernel: it sets it first (InitSocState's page).
    if (!device)
      emitc::CallOpaqueOp::create(rewriter, func.getLoc(), TypeRange(),
                                  "AscendC::InitSocState", ValueRange());
    SmallVector<Value> replacements;
    for (BlockArgument arg : func.getArguments()) {
      Value passed = entry->getArgument(arg.getArgNumber());
      auto tensor = dyn_cast<ascendc::GlobalTensorType>(arg.getType());
      if (!tensor) {
        replacements.push_back(passed);
        continue;
      }
      // Named as the samples name theirs: `xGm` for the GM_ADDR `x`.
      replacements.push_back(globalTensor(
          rewriter, withSourceName(arg.getLoc(), arg.getLoc(), "Gm"), tensor,
          passed, /*byteOffset=*/0));
    }
    // Where get_block_idx learns to count blocks, not vector cores.
    if (cores == ascendc::KernelCores::MixedOneToTwo)
      kernel->setAttr(kOneToTwoAttr, rewriter.getUnitAttr());
    // Where its return learns to leave the pipes running.
    if (func->hasAttr(ascendc::AscendCDialect::kOverlappedAttrName))
      kernel->setAttr(ascendc::AscendCDialect::kOverlappedAttrName,
                      rewriter.getUnitAttr());
    // Where ascendc.global_tensor.dim and ascendc.workspace find theirs.
    for (auto [index, extent] : llvm::enumerate(extents))
      kernel->setAttr(extentAttrName(extent.first, extent.second),
                      rewriter.getIndexAttr(func.getNumArguments() + index));
    if (hasWorkspace)
      kernel->setAttr("tilekit.workspace",
                      rewriter.getIndexAttr(inputs.size() - 1));
    // Where a work item's slice starts: after the launch's own regions.
    if (workspace.perBlock)
      kernel->setAttr("tilekit.item_workspace",
                      rewriter.getDenseI64ArrayAttr(
                          {workspace.shared, workspace.perBlock}));
    Block &body = func.getBody().front();
    rewriter.inlineBlockBefore(&body, entry, entry->end(), replacements);
    rewriter.eraseOp(func);
    return success();
  }

public:
  /// `AscendC::GlobalTensor<T> name; name.SetGlobalBuffer((__gm__ T *)
  /// (address + byteOffset));`
  static Value globalTensor(OpBuilder &builder, Location loc,
                            ascendc::GlobalTensorType tensor, Value address,
                            int64_t byteOffset) {
    MLIRContext *context = builder.getContext();
    std::string element = elementName(tensor.getElementType());
    auto type = opaqueType(context, "AscendC::GlobalTensor<" + element + ">");
    Value object = emitc::VariableOp::create(
        builder, loc, emitc::LValueType::get(type), opaque(context, ""));
    std::string offset =
        byteOffset ? " + " + std::to_string(byteOffset) : std::string();
    emitc::VerbatimOp::create(
        builder, loc,
        builder.getStringAttr("{}.SetGlobalBuffer((__gm__ " + element +
                              " *)({}" + offset + "));"),
        ValueRange{object, address});
    return emitc::LoadOp::create(builder, loc, type, object);
  }
};

/// A kernel ends with every pipe drained: no instruction of it is still in
/// flight when the core starts the next kernel. An overlapped work item's
/// function leaves its pipes running: its launch kernel orders them.
struct ReturnLowering : OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(func::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<emitc::FuncOp>();
    if (func && func->hasAttr(ascendc::AscendCDialect::kOverlappedAttrName)) {
      rewriter.replaceOpWithNewOp<emitc::ReturnOp>(op, Value());
      return success();
    }
    emitc::CallOpaqueOp::create(
        rewriter, op.getLoc(), TypeRange(), "AscendC::PipeBarrier",
        ValueRange(), ArrayAttr(),
        rewriter.getArrayAttr(
            {emitc::OpaqueAttr::get(getContext(), "PIPE_ALL")}));
    rewriter.replaceOpWithNewOp<emitc::ReturnOp>(op, Value());
    return success();
  }
};

/// The kernel argument an attribute of the emitted kernel names.
FailureOr<Value> kernelArgument(Operation *op, StringRef attr) {
  auto kernel = op->getParentOfType<emitc::FuncOp>();
  auto index = kernel ? kernel->getAttrOfType<IntegerAttr>(attr) : nullptr;
  if (!index)
    return failure();
  return kernel.getArgument(index.getInt());
}

/// The bytes a workspace region of run-time shape takes, rounded up to 32
/// as every region is, from its sizes as the kernel has them.
Value runtimeRegionBytes(ConversionPatternRewriter &rewriter, Location loc,
                         ascendc::WorkspaceOp region) {
  auto type = cast<ascendc::GlobalTensorType>(region.getType());
  int64_t fixed = type.getElementTypeBitWidth() / 8;
  for (int64_t size : type.getShape())
    if (!ShapedType::isDynamic(size))
      fixed *= size;
  Value bytes = indexConstant(rewriter, loc, fixed);
  for (Value size : region.getSizes())
    bytes =
        indexArith(rewriter, loc, '*', bytes, rewriter.getRemappedValue(size));
  Value up =
      indexArith(rewriter, loc, '+', bytes, indexConstant(rewriter, loc, 31));
  Value blocks =
      indexArith(rewriter, loc, '/', up, indexConstant(rewriter, loc, 32));
  return indexArith(rewriter, loc, '*', blocks,
                    indexConstant(rewriter, loc, 32));
}

/// Where `region` starts in its kernel's workspace, in bytes (the layout of
/// ascendc.workspace): a constant for a static region; for a run-time one,
/// past the static regions and the run-time regions before it.
Value regionOffset(ConversionPatternRewriter &rewriter, Location loc,
                   ascendc::WorkspaceOp region) {
  Value offset = indexConstant(rewriter, loc, region.getStaticOffset());
  if (region.isDynamic())
    for (Operation *before : region.getDynamicRegionsBefore())
      offset =
          indexArith(rewriter, loc, '+', offset,
                     runtimeRegionBytes(rewriter, loc,
                                        cast<ascendc::WorkspaceOp>(before)));
  return offset;
}

/// Whether the kernel `call` runs has workspace regions (it takes a
/// workspace argument): asked of the function, converted or not yet.
bool calleeKeepsScratch(func::CallOp call) {
  Operation *callee =
      SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
  if (auto converted = dyn_cast_or_null<emitc::FuncOp>(callee))
    return converted->hasAttr("tilekit.workspace");
  auto kernel = dyn_cast_or_null<func::FuncOp>(callee);
  return kernel && !getKernelWorkspace(kernel).empty();
}

/// A launch kernel's call of a work item's kernel: the callee's ABI, each GM
/// tensor the launch's own address of it and its extents
/// (`ascendc.launch_args` names which argument of the launch it is).
struct CallLowering : OpConversionPattern<func::CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto launchArgs = op->getAttrOfType<DenseI64ArrayAttr>(
        ascendc::AscendCDialect::kLaunchArgsAttrName);
    auto launch = op->getParentOfType<emitc::FuncOp>();
    if (!launchArgs || !launch ||
        launchArgs.size() != int64_t(op.getNumOperands()))
      return op.emitOpError() << "calls a kernel outside a launch kernel; "
                                 "only ascendc-form-launch makes such calls";
    SmallVector<Value> operands, extents;
    for (auto [index, operand] : llvm::enumerate(op.getOperands())) {
      int64_t arg = launchArgs[index];
      auto tensor = dyn_cast<ascendc::GlobalTensorType>(operand.getType());
      if (!tensor) {
        operands.push_back(adaptor.getOperands()[index]);
        continue;
      }
      if (arg <= -2) {
        // A region of the launch's own workspace (seen through reshapes,
        // whose sizes are then its extents) and its run-time extents.
        FailureOr<Value> workspace = kernelArgument(op, "tilekit.workspace");
        Value source = operand;
        while (auto reshape = source.getDefiningOp<ascendc::GlobalReshapeOp>())
          source = reshape.getSource();
        auto region = source.getDefiningOp<ascendc::WorkspaceOp>();
        if (failed(workspace) || !region)
          return op.emitOpError() << "passes a workspace region of a launch "
                                     "without a workspace";
        operands.push_back(emitc::AddOp::create(
            rewriter, op.getLoc(), workspace->getType(), *workspace,
            regionOffset(rewriter, op.getLoc(), region)));
        auto reshape = operand.getDefiningOp<ascendc::GlobalReshapeOp>();
        for (Value size : reshape ? reshape.getSizes() : region.getSizes())
          extents.push_back(rewriter.getRemappedValue(size));
        continue;
      }
      if (arg < 0 || arg >= int64_t(launch.getNumArguments()))
        return op.emitOpError() << "passes a GM tensor that is not an "
                                   "argument of the launch";
      operands.push_back(launch.getArgument(arg));
      // A reshape of the argument passes its own extents.
      auto reshape = operand.getDefiningOp<ascendc::GlobalReshapeOp>();
      if (reshape) {
        for (Value size : reshape.getSizes())
          extents.push_back(rewriter.getRemappedValue(size));
        continue;
      }
      for (auto [dim, size] : llvm::enumerate(tensor.getShape())) {
        if (!ShapedType::isDynamic(size))
          continue;
        FailureOr<Value> extent = kernelArgument(op, extentAttrName(arg, dim));
        if (failed(extent))
          return op.emitOpError() << "passes a tensor whose extent the "
                                     "launch does not receive";
        extents.push_back(*extent);
      }
    }
    operands.append(extents);
    // A kernel with scratch of its own gets its block's slice.
    if (calleeKeepsScratch(op)) {
      FailureOr<Value> workspace = kernelArgument(op, "tilekit.workspace");
      auto layout =
          launch->getAttrOfType<DenseI64ArrayAttr>("tilekit.item_workspace");
      if (failed(workspace) || !layout)
        return op.emitOpError() << "calls a kernel with a workspace from a "
                                   "launch that gives it none";
      Location loc = op.getLoc();
      auto index = emitc::PtrDiffTType::get(getContext());
      Value block = blockIndex(rewriter, op);
      Value slice = emitc::MulOp::create(
          rewriter, loc, index, block, indexConstant(rewriter, loc, layout[1]));
      // The slices follow the launch's regions, run-time ones included
      // (form-launch put those first in the launch).
      Value start = indexConstant(rewriter, loc, layout[0]);
      for (Operation &other : launch.getBody().front())
        if (auto region = dyn_cast<ascendc::WorkspaceOp>(&other);
            region && region.isDynamic())
          start = indexArith(rewriter, loc, '+', start,
                             runtimeRegionBytes(rewriter, loc, region));
      start = emitc::AddOp::create(rewriter, loc, index, start, slice);
      operands.push_back(emitc::AddOp::create(
          rewriter, loc, workspace->getType(), *workspace, start));
    }
    emitc::CallOpaqueOp::create(rewriter, op.getLoc(), TypeRange(),
                                op.getCallee(), operands);
    // What a kernel returns are GM arguments it was passed, which the launch
    // kernel uses directly (form-launch): the C++ call returns nothing.
    if (!op.use_empty())
      return op.emitOpError() << "uses what the kernel returns; a C++ kernel "
                                 "returns nothing";
    rewriter.eraseOp(op);
    return success();
  }
};

/// Each workspace op is a region of the kernel's workspace argument, at
/// the bytes of the regions before it in the kernel (each rounded to 32).
struct WorkspaceLowering : OpConversionPattern<ascendc::WorkspaceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::WorkspaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> workspace = kernelArgument(op, "tilekit.workspace");
    if (failed(workspace))
      return op.emitOpError() << "is outside a kernel";
    auto type = op.getType();
    if (!op.isDynamic()) {
      rewriter.replaceOp(
          op, KernelLowering::globalTensor(rewriter, op.getLoc(), type,
                                           *workspace, op.getStaticOffset()));
      return success();
    }
    Value address = emitc::AddOp::create(
        rewriter, op.getLoc(), workspace->getType(), *workspace,
        regionOffset(rewriter, op.getLoc(), op));
    rewriter.replaceOp(op, KernelLowering::globalTensor(rewriter, op.getLoc(),
                                                        type, address, 0));
    return success();
  }
};

/// An extent of a GM argument: a constant, the extent a reshape gives, or
/// the kernel argument that carries it.
struct GlobalDimLowering : OpConversionPattern<ascendc::GlobalDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::GlobalDimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getSource().getType();
    int64_t size = type.getShape()[op.getDim()];
    if (!ShapedType::isDynamic(size)) {
      rewriter.replaceOp(op, indexConstant(rewriter, op.getLoc(), size));
      return success();
    }
    // A reshape's or a region's sizes are its dynamic extents in order.
    if (Value given = op.getGivenExtent()) {
      rewriter.replaceOp(op, rewriter.getRemappedValue(given));
      return success();
    }
    auto arg = dyn_cast<BlockArgument>(op.getSource());
    FailureOr<Value> extent =
        arg ? kernelArgument(op,
                             extentAttrName(arg.getArgNumber(), op.getDim()))
            : FailureOr<Value>(failure());
    if (failed(extent))
      return op.emitOpError()
             << "reads a dynamic extent of a GM tensor that is not a kernel "
                "argument; only those reach the C++ kernel";
    rewriter.replaceOp(op, *extent);
    return success();
  }
};

/// if_aic / if_aiv / if_subblock: a branch on the core that runs the code
/// (`condition` of the op: the core type, the sub-block).
template <typename From> struct CoreGroupLowering : OpConversionPattern<From> {
  CoreGroupLowering(const TypeConverter &types, MLIRContext *context,
                    std::function<std::string(From)> condition)
      : OpConversionPattern<From>(types, context), condition(condition) {}
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value condition = emitc::LiteralOp::create(
        rewriter, op.getLoc(), rewriter.getI1Type(), this->condition(op));
    auto branch = emitc::IfOp::create(rewriter, op.getLoc(), condition,
                                      /*addThenBlock=*/false,
                                      /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getBody(), branch.getThenRegion(),
                                branch.getThenRegion().end());
    rewriter.eraseOp(op);
    return success();
  }
  std::function<std::string(From)> condition;
};

struct YieldLowering : OpConversionPattern<ascendc::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<emitc::YieldOp>(op, Value());
    return success();
  }
};

/// An op that becomes a call with no operands: a flag, a barrier, a query.
template <typename From> struct FixedCallLowering : OpConversionPattern<From> {
  using Describe =
      std::function<std::pair<std::string, SmallVector<std::string>>(From)>;
  FixedCallLowering(const TypeConverter &types, MLIRContext *context,
                    Describe describe,
                    std::function<SmallVector<int64_t>(From)> literals)
      : OpConversionPattern<From>(types, context), describe(describe),
        literals(literals) {}
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    auto [callee, templates] = describe(op);
    SmallVector<Attribute> templateArgs, args;
    for (const std::string &text : templates)
      templateArgs.push_back(opaque(context, text));
    for (int64_t value : literals(op))
      args.push_back(literal(context, value));
    SmallVector<Type> results;
    for (Type type : op->getResultTypes())
      results.push_back(this->getTypeConverter()->convertType(type));
    Value result = call(rewriter, op.getLoc(), callee, results, ValueRange(),
                        args, templateArgs);
    if (result)
      rewriter.replaceOp(op, result);
    else
      rewriter.eraseOp(op);
    return success();
  }
  Describe describe;
  std::function<SmallVector<int64_t>(From)> literals;
};

struct BlockIdxLowering : OpConversionPattern<ascendc::GetBlockIdxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::GetBlockIdxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, blockIndex(rewriter, op));
    return success();
  }
};

struct SubBlockGuardLowering : OpConversionPattern<ascendc::SubBlockGuardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::SubBlockGuardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<emitc::VerbatimOp>(
        op, rewriter.getStringAttr(
                "if (AscendC::GetSubBlockIdx() != 0) { return; }"));
    return success();
  }
};

/// get_value -> `T v = tensor.GetValue(index);`, set_value ->
/// `tensor.SetValue(index, value);`.
struct GetValueLowering : OpConversionPattern<ascendc::GetValueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::GetValueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Value element = emitc::VariableOp::create(rewriter, op.getLoc(),
                                              emitc::LValueType::get(type),
                                              opaque(op.getContext(), ""));
    emitc::VerbatimOp::create(
        rewriter, op.getLoc(), rewriter.getStringAttr("{} = {}.GetValue({});"),
        ValueRange{element, adaptor.getTensor(), adaptor.getIndex()});
    rewriter.replaceOpWithNewOp<emitc::LoadOp>(op, type, element);
    return success();
  }
};
struct SetValueLowering : OpConversionPattern<ascendc::SetValueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::SetValueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitc::VerbatimOp::create(
        rewriter, op.getLoc(), rewriter.getStringAttr("{}.SetValue({}, {});"),
        ValueRange{adaptor.getTensor(), adaptor.getIndex(),
                   adaptor.getValue()});
    rewriter.eraseOp(op);
    return success();
  }
};

struct PrintfLowering : OpConversionPattern<ascendc::PrintfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::PrintfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    SmallVector<Attribute> args{
        opaque(context, cppStringLiteral(op.getFormat()))};
    for (unsigned i = 0; i < adaptor.getArgs().size(); ++i)
      args.push_back(operandRef(context, i));
    call(rewriter, op.getLoc(), "AscendC::printf", {}, adaptor.getArgs(), args);
    rewriter.eraseOp(op);
    return success();
  }
};

struct DumpTensorLowering : OpConversionPattern<ascendc::DumpTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::DumpTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    call(rewriter, op.getLoc(), "AscendC::DumpTensor", {},
         {adaptor.getTensor(), adaptor.getCount()},
         {operandRef(context, 0), literal(context, op.getDesc()),
          operandRef(context, 1)});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertLowering : OpConversionPattern<ascendc::AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    call(rewriter, op.getLoc(), "assert", {}, adaptor.getCondition(),
         {operandRef(context, 0),
          opaque(context, cppStringLiteral(op.getMessage()))});
    rewriter.eraseOp(op);
    return success();
  }
};

struct InitDumpLowering : OpConversionPattern<ascendc::InitDumpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::InitDumpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<emitc::VerbatimOp>(
        op,
        rewriter.getStringAttr(std::string("AscendC::InitDump(") +
                               (op.getMixed() ? "true" : "false") +
                               ", (GM_ADDR){}.GetPhyAddr(), " +
                               std::to_string(op.getSize()) + ");"),
        ValueRange{adaptor.getDumpAddr()});
    return success();
  }
};

} // namespace

void emit::populateControlPatterns(AscendCToEmitCTypes &types,
                                   RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<KernelLowering, ReturnLowering, CallLowering, WorkspaceLowering,
               GlobalDimLowering, YieldLowering, SubBlockGuardLowering,
               BlockIdxLowering, PrintfLowering, DumpTensorLowering,
               GetValueLowering, SetValueLowering, AssertLowering,
               InitDumpLowering>(types, context);
  // C310's buffer ids are Mutex ids the kernel picks (the Mutex page):
  // Lock before the instruction, Unlock after, on its pipe.
  auto mutex = [&](auto op, StringRef call) {
    using Op = decltype(op);
    patterns.add<FixedCallLowering<Op>>(
        types, context,
        [call](Op op) {
          return std::make_pair(
              call.str(), SmallVector<std::string>{pipeName(op.getPipe())});
        },
        [](Op op) {
          return SmallVector<int64_t>{static_cast<int64_t>(op.getBufId())};
        });
  };
  mutex(ascendc::GetBufOp(), "AscendC::Mutex::Lock");
  mutex(ascendc::RlsBufOp(), "AscendC::Mutex::Unlock");
  // The core test in a form C++ takes as `if (...)`: on the device
  // ASCEND_IS_AIC is `constexpr(g_coreType == AscendC::AIC)`, whose only
  // form is `if ASCEND_IS_AIC {`, which emitc.if does not print.
  patterns.add<CoreGroupLowering<ascendc::IfAicOp>>(
      types, context,
      [](ascendc::IfAicOp) { return "g_coreType == AscendC::AIC"; });
  patterns.add<CoreGroupLowering<ascendc::IfAivOp>>(
      types, context,
      [](ascendc::IfAivOp) { return "g_coreType == AscendC::AIV"; });
  patterns.add<CoreGroupLowering<ascendc::IfSubBlockOp>>(
      types, context, [](ascendc::IfSubBlockOp op) {
        return "AscendC::GetSubBlockIdx() == " + std::to_string(op.getLane());
      });
  auto none = [](auto) { return SmallVector<int64_t>(); };
  patterns.add<FixedCallLowering<ascendc::SetFlagOp>>(
      types, context,
      [](ascendc::SetFlagOp op) {
        return std::make_pair(
            std::string("AscendC::SetFlag"),
            SmallVector<std::string>{hardEventName(op.getSrc(), op.getDst())});
      },
      [](ascendc::SetFlagOp op) {
        return SmallVector<int64_t>{static_cast<int64_t>(op.getEvent())};
      });
  patterns.add<FixedCallLowering<ascendc::WaitFlagOp>>(
      types, context,
      [](ascendc::WaitFlagOp op) {
        return std::make_pair(
            std::string("AscendC::WaitFlag"),
            SmallVector<std::string>{hardEventName(op.getSrc(), op.getDst())});
      },
      [](ascendc::WaitFlagOp op) {
        return SmallVector<int64_t>{static_cast<int64_t>(op.getEvent())};
      });
  patterns.add<FixedCallLowering<ascendc::PipeBarrierOp>>(
      types, context,
      [](ascendc::PipeBarrierOp op) {
        return std::make_pair(std::string("AscendC::PipeBarrier"),
                              SmallVector<std::string>{pipeName(op.getPipe())});
      },
      none);
  patterns.add<FixedCallLowering<ascendc::CrossCoreSetFlagOp>>(
      types, context,
      [](ascendc::CrossCoreSetFlagOp op) {
        // Mode 2: between the cube core and the vector cores of a group.
        return std::make_pair(
            std::string("AscendC::CrossCoreSetFlag"),
            SmallVector<std::string>{"0x2", pipeName(op.getPipe())});
      },
      [](ascendc::CrossCoreSetFlagOp op) {
        return SmallVector<int64_t>{static_cast<int64_t>(op.getFlag())};
      });
  patterns.add<FixedCallLowering<ascendc::CrossCoreWaitFlagOp>>(
      types, context,
      [](ascendc::CrossCoreWaitFlagOp op) {
        return std::make_pair(
            std::string("AscendC::CrossCoreWaitFlag"),
            SmallVector<std::string>{"0x2", pipeName(op.getPipe())});
      },
      [](ascendc::CrossCoreWaitFlagOp op) {
        return SmallVector<int64_t>{static_cast<int64_t>(op.getFlag())};
      });
  auto query = [&](auto tag, StringRef callee) {
    using Op = decltype(tag);
    std::string name = callee.str();
    patterns.add<FixedCallLowering<Op>>(
        types, context,
        [name](Op) { return std::make_pair(name, SmallVector<std::string>()); },
        none);
  };
  query(ascendc::GetBlockNumOp(), "AscendC::GetBlockNum");
  query(ascendc::GetSubBlockIdxOp(), "AscendC::GetSubBlockIdx");
}

KernelWorkspace tilekit::getKernelWorkspace(func::FuncOp kernel) {
  KernelWorkspace workspace;
  for (auto region : kernel.getOps<ascendc::WorkspaceOp>()) {
    workspace.shared += region.getRegionBytes();
    workspace.runtimeRegions += region.isDynamic();
  }
  if (auto perBlock = kernel->getAttrOfType<IntegerAttr>(
          ascendc::AscendCDialect::kItemWorkspaceAttrName))
    workspace.perBlock = perBlock.getInt();
  return workspace;
}

std::string emit::gmNames(func::FuncOp kernel) {
  std::string names;
  for (auto [index, arg] : llvm::enumerate(kernel.getArguments()))
    if (isa<ascendc::GlobalTensorType>(arg.getType())) {
      auto name = kernel.getArgAttrOfType<StringAttr>(index, "tilekit.name");
      names += "{args[" + std::to_string(index) + "], \"" +
               (name ? name.getValue().str() : "#" + std::to_string(index)) +
               "\", 0}, ";
    }
  KernelWorkspace workspace = getKernelWorkspace(kernel);
  if (workspace.empty())
    return names;
  // The workspace is the last argument of the ABI.
  unsigned slot = kernel.getNumArguments();
  for (Type type : kernel.getArgumentTypes())
    if (auto tensor = dyn_cast<ascendc::GlobalTensorType>(type))
      slot += llvm::count_if(tensor.getShape(), ShapedType::isDynamic);
  // KernelLowering has checked that the host code can size it.
  FailureOr<std::string> bytes = workspaceBytesInAbi(kernel, "blocks");
  return names + "{args[" + std::to_string(slot) + "], \"workspace\", " +
         "size_t(" + bytes.value_or("0") + ")}, ";
}

std::string tilekit::emitCpuEntry(func::FuncOp kernel) {
  // The arguments in the order KernelLowering gives them.
  SmallVector<std::string> args;
  unsigned next = 0;
  for (BlockArgument arg : kernel.getArguments()) {
    std::string slot = "args[" + std::to_string(next++) + "]";
    if (isa<ascendc::GlobalTensorType>(arg.getType())) {
      args.push_back("(GM_ADDR)" + slot);
      continue;
    }
    std::string type = arg.getType().isIndex() ? std::string("ptrdiff_t")
                                               : elementName(arg.getType());
    args.push_back("*(const " + type + " *)" + slot);
  }
  for (BlockArgument arg : kernel.getArguments())
    if (auto tensor = dyn_cast<ascendc::GlobalTensorType>(arg.getType()))
      for (int64_t size : tensor.getShape())
        if (ShapedType::isDynamic(size))
          args.push_back("*(const ptrdiff_t *)args[" + std::to_string(next++) +
                         "]");
  if (!getKernelWorkspace(kernel).empty())
    args.push_back("(GM_ADDR)args[" + std::to_string(next++) + "]");
  std::string call = emit::cppFunctionName(kernel) + "(";
  for (auto [index, arg] : llvm::enumerate(args))
    call += (index ? ", " : "") + arg;
  // The cores the kernel's groups ask for; without both, the one its
  // instructions need (as the executor chooses).
  ascendc::KernelCores kind = ascendc::getKernelCores(kernel);
  std::string cores = kind == ascendc::KernelCores::MixedOneToTwo
                          ? "MixedOneToTwo"
                      : kind == ascendc::KernelCores::Mixed ? "Mixed"
                      : kind == ascendc::KernelCores::Cube  ? "Cube"
                                                            : "Vector";
  // The ABI of include/tilekit/Driver/CpuEntryABI.h.
  std::string entry =
      "extern \"C\" int tilekit_entry(void **args, int64_t block, "
      "int64_t blocks, tilekit_cpu_limits *limits, char *error, size_t "
      "errorSize) {\n"
      "  return AscendC::cpu::runBlock(AscendC::cpu::Cores::" +
      cores + ", block, blocks, {" + gmNames(kernel) + "}, [&] { " + call +
      "); }, limits, error, errorSize) ? 0 : 1;\n}\n";
  // A workspace with regions of run-time size: the caller asks its bytes
  // (the workspace slot of `args` unread).
  if (getKernelWorkspace(kernel).runtimeRegions)
    entry += "extern \"C\" int64_t tilekit_workspace_bytes(void **args, "
             "int64_t blocks) {\n  __int128 bytes = " +
             workspaceBytesInAbi(kernel, "blocks").value_or("0") +
             ";\n  return bytes < 0 || bytes > INT64_MAX ? -1 : "
             "int64_t(bytes);\n}\n";
  return entry;
}
