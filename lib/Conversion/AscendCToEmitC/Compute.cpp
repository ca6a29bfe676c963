//===- Compute.cpp - The cube and the vector unit to EmitC ----------------===//
//
//   mmad              -> AscendC::Mmad(c, a, b[, bias], MmadParams{m, n, k,
//                        cmatrixInitVal, isBias})
//   <op>_l2           -> AscendC::<Op>(dst, srcs..., [scalar,] [mode,] count)
//   <op>_l0           -> AscendC::<Op>(dst, srcs..., [scalar,] [mode,] mask,
//                        repeat, {Unary,Binary}RepeatParams(strides...)),
//                        the mask a count or `uint64_t mask[2] = {low, high}`
//   broadcast         -> AscendC::Broadcast<T, 2, axis>(dst, src, dstShape,
//                        srcShape)
//   reduce_<op>       -> AscendC::Reduce<Op><T, Pattern::Reduce::AR|RA>(dst,
//                        src, srcShape, true)
//   sort32 / mrg_sort / extract
//                     -> AscendC::Sort32 / MrgSort / Extract
//                     (CallStatementLowering)
//
// The Ascend C name of a vector op is its own with the level dropped, in
// camel case (add_l2 -> Add, shift_left_l0 -> ShiftLeft).
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "llvm/ADT/StringExtras.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::emit;

namespace {

/// `AscendC::ShiftLeft` for `ascendc.shift_left_l2` / `_l0`, or the name the
/// op gives (VectorL2OpInterface::getApiName).
std::string apiName(Operation *op) {
  if (auto vector = dyn_cast<ascendc::VectorL2OpInterface>(op))
    if (StringRef given = vector.getApiName(); !given.empty())
      return given.str();
  StringRef name = op->getName().stripDialect();
  name.consume_back("_l2");
  name.consume_back("_l0");
  return "AscendC::" +
         llvm::convertToCamelFromSnakeCase(name, /*capitalizeFirst=*/true);
}

/// The enum argument of a cast (its rounding), a compare (its mode) or a
/// select (the mode the op fixes).
std::optional<std::string> modeArgument(Operation *op) {
  if (auto vector = dyn_cast<ascendc::VectorL2OpInterface>(op))
    if (StringRef mode = vector.getApiMode(); !mode.empty())
      return mode.str();
  if (auto round = op->getAttrOfType<ascendc::RoundModeAttr>("round"))
    return "AscendC::RoundMode::CAST_" +
           llvm::StringRef(ascendc::stringifyRoundMode(round.getValue()))
               .upper();
  if (auto mode = op->getAttrOfType<ascendc::CmpModeAttr>("mode"))
    return "AscendC::CMPMODE::" +
           llvm::StringRef(ascendc::stringifyCmpMode(mode.getValue())).upper();
  return std::nullopt;
}

/// The leading arguments of a vector op's call: its tensors and scalar in
/// order (not the count, mask or repeat), then its mode.
void leadingArguments(Operation *op, ValueRange operands, ArrayRef<Value> skip,
                      SmallVectorImpl<Value> &values,
                      SmallVectorImpl<Attribute> &args) {
  MLIRContext *context = op->getContext();
  for (auto [original, converted] : llvm::zip(op->getOperands(), operands)) {
    if (llvm::is_contained(skip, original))
      continue;
    args.push_back(operandRef(context, values.size()));
    values.push_back(converted);
  }
  if (std::optional<std::string> mode = modeArgument(op))
    args.push_back(opaque(context, *mode));
}

/// The converted form of `original`, an operand of `op` (null for null).
Value convertedOperand(Operation *op, ArrayRef<Value> operands,
                       Value original) {
  if (!original)
    return {};
  return operands[llvm::find(op->getOperands(), original) -
                  op->getOperands().begin()];
}

/// Vector ops at the simple level: a count of elements (all of the
/// destination when absent).
struct VectorL2Lowering
    : OpInterfaceConversionPattern<ascendc::VectorL2OpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::VectorL2OpInterface vector, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *op = vector.getOperation();
    Location loc = op->getLoc();
    SmallVector<Value> values;
    SmallVector<Attribute> args;
    Value count = vector.getCount();
    leadingArguments(op, operands, {count}, values, args);
    Value converted = convertedOperand(op, operands, count);
    if (!converted) {
      auto dst = cast<ShapedType>(op->getOperand(0).getType());
      converted = indexConstant(rewriter, loc, dst.getNumElements());
    }
    args.push_back(operandRef(op->getContext(), values.size()));
    values.push_back(converted);
    call(rewriter, loc, apiName(op), {}, values, args);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Vector ops at the low level: mask, repeat and strides as Ascend C's
/// level-0 interface takes them.
struct VectorL0Lowering
    : OpInterfaceConversionPattern<ascendc::VectorL0OpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::VectorL0OpInterface vector, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *op = vector.getOperation();
    Location loc = op->getLoc();
    MLIRContext *context = op->getContext();
    auto convertedOf = [&](Value original) {
      return convertedOperand(op, operands, original);
    };
    Value mask = vector.getMask(), high = vector.getMaskHigh(),
          low = vector.getMaskLow(), repeat = vector.getRepeat();
    SmallVector<Value> values;
    SmallVector<Attribute> args;
    leadingArguments(op, operands, {mask, high, low, repeat}, values, args);
    auto dst = cast<ShapedType>(op->getOperand(0).getType());
    int64_t lanes = 256 / ascendc::getElementBytes(dst.getElementType());
    // The mask: a lane count, or the lane bits in two words.
    Value maskValue;
    if (high) {
      auto words =
          emitc::ArrayType::get({2}, rewriter.getIntegerType(64, false));
      Value array =
          emitc::VariableOp::create(rewriter, loc, words, opaque(context, ""));
      for (auto [index, word] : llvm::enumerate(
               SmallVector<Value>{convertedOf(low), convertedOf(high)})) {
        Value element = emitc::SubscriptOp::create(
            rewriter, loc,
            emitc::LValueType::get(rewriter.getIntegerType(64, false)), array,
            ValueRange{indexConstant(rewriter, loc, index)});
        Value unsignedWord = emitc::CastOp::create(
            rewriter, loc, rewriter.getIntegerType(64, false), word);
        emitc::AssignOp::create(rewriter, loc, element, unsignedWord);
      }
      maskValue = array;
    } else {
      maskValue =
          mask ? convertedOf(mask) : indexConstant(rewriter, loc, lanes);
    }
    args.push_back(operandRef(context, values.size()));
    values.push_back(maskValue);
    args.push_back(operandRef(context, values.size()));
    values.push_back(repeat ? convertedOf(repeat)
                            : indexConstant(rewriter, loc, 1));
    // The strides: [dst block, src block(s), dst repeat, src repeat(s)].
    unsigned sources = 0;
    for (Value operand : op->getOperands().drop_front())
      if (isa<ascendc::LocalTensorType>(operand.getType()))
        ++sources;
    SmallVector<int64_t> strides;
    if (DenseI64ArrayAttr given = vector.getStridesAttr())
      strides.assign(given.asArrayRef().begin(), given.asArrayRef().end());
    else {
      strides.assign(1 + sources, 1);
      strides.append(1 + sources, 8);
    }
    if (sources == 0) {
      // Duplicate: the destination's block and repeat strides, as plain
      // arguments.
      for (int64_t stride : strides)
        args.push_back(literal(context, stride));
    } else {
      SmallVector<Attribute> fields;
      for (int64_t stride : strides)
        fields.push_back(literal(context, stride));
      Value params =
          call(rewriter, loc,
               sources == 2 ? "AscendC::BinaryRepeatParams"
                            : "AscendC::UnaryRepeatParams",
               opaqueType(context, sources == 2 ? "AscendC::BinaryRepeatParams"
                                                : "AscendC::UnaryRepeatParams"),
               ValueRange(), fields);
      args.push_back(operandRef(context, values.size()));
      values.push_back(params);
    }
    call(rewriter, loc, apiName(op), {}, values, args);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MmadLowering : OpConversionPattern<ascendc::MmadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::MmadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value init = adaptor.getInit();
    if (!init)
      init = emitc::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                       rewriter.getBoolAttr(true));
    Value hasBias = emitc::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(),
        rewriter.getBoolAttr(static_cast<bool>(op.getBias())));
    Value params = paramStruct(rewriter, loc, "AscendC::MmadParams",
                               {{"m", adaptor.getM()},
                                {"n", adaptor.getN()},
                                {"k", adaptor.getK()},
                                {"cmatrixInitVal", init},
                                {"isBias", hasBias}});
    SmallVector<Value> values{adaptor.getDst(), adaptor.getA(), adaptor.getB()};
    if (adaptor.getBias())
      values.push_back(adaptor.getBias());
    values.push_back(params);
    call(rewriter, loc, "AscendC::Mmad", {}, values);
    rewriter.eraseOp(op);
    return success();
  }
};

/// `uint32_t name[2] = {rows, cols}` of a 2-d tensor type.
Value shapeArray(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
                 Value rows = {}, Value cols = {}) {
  auto u32 = builder.getIntegerType(32, false);
  auto array = emitc::ArrayType::get({int64_t(shape.size())}, u32);
  Value object = emitc::VariableOp::create(builder, loc, array,
                                           opaque(builder.getContext(), ""));
  for (auto [index, extent] : llvm::enumerate(shape)) {
    Value element = emitc::SubscriptOp::create(
        builder, loc, emitc::LValueType::get(u32), object,
        ValueRange{indexConstant(builder, loc, index)});
    Value given = index == 0 ? rows : index == 1 ? cols : Value();
    Value value =
        given ? emitc::CastOp::create(builder, loc, u32, given).getResult()
              : emitc::ConstantOp::create(builder, loc, u32,
                                          builder.getIntegerAttr(u32, extent))
                    .getResult();
    emitc::AssignOp::create(builder, loc, element, value);
  }
  return object;
}

/// The advanced API's forms without a `sharedTmpBuffer` take scratch from
/// a TPipe, which the emitted kernels do not create: every call needs the
/// buffer ascendc-dispatch-alloc plans.
LogicalResult requireScratch(ascendc::ScratchOpInterface op) {
  if (!op.getTmpMutable().empty())
    return success();
  return op->emitOpError("has no planned scratch (sharedTmpBuffer); run "
                         "ascendc-dispatch-alloc first");
}

struct BroadcastLowering : OpConversionPattern<ascendc::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireScratch(op)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto dst = op.getDst().getType(), src = op.getSrc().getType();
    Value dstShape = shapeArray(rewriter, loc, dst.getShape());
    Value srcShape = shapeArray(rewriter, loc, src.getShape());
    call(rewriter, loc, "AscendC::Broadcast", {},
         {adaptor.getDst(), adaptor.getSrc(), dstShape, srcShape,
          adaptor.getTmp()},
         {},
         {opaque(context, elementName(dst.getElementType())),
          literal(context, dst.getRank()), literal(context, op.getAxis())});
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename From> struct ReduceLowering : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireScratch(op)))
      return failure();
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto src = op.getSrc().getType();
    // A row fold's count of values per row, when its rows are padded.
    Value shape = shapeArray(rewriter, loc, src.getShape(), adaptor.getRows(),
                             adaptor.getCols());
    call(rewriter, loc, ("AscendC::" + From::kApiName).str(), {},
         {adaptor.getDst(), adaptor.getSrc(), adaptor.getTmp(), shape},
         {operandRef(context, 0), operandRef(context, 1),
          operandRef(context, 2), operandRef(context, 3),
          opaque(context, "true")},
         {opaque(context, elementName(src.getElementType())),
          opaque(context, op.getAxis() == 1 ? "AscendC::Pattern::Reduce::AR"
                                            : "AscendC::Pattern::Reduce::RA")});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Calls the generic rules do not write, as statements: Ascend C takes
/// indices and offsets as uint32_t (the IR's are i32), MrgSort its counts
/// in arrays, Transpose no count.
///   transpose -> AscendC::Transpose(dst, src)
///   gather   -> AscendC::Gather(dst, src, offsets<u32>, 0, count)
///   sort32   -> AscendC::Sort32(dst, scores, indices<u32>, repeat)
///   mrg_sort -> AscendC::MrgSort<T, false>(dst, MrgSortSrcList<T>(a, b, a,
///               b), {count, count, 0, 0}, sortedNum, 0b11, 1)
///   extract  -> AscendC::Extract(values, indices<u32>, sorted, repeat)
template <typename From>
struct CallStatementLowering : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string text;
    SmallVector<Value> operands;
    if constexpr (std::is_same_v<From, ascendc::Sort32Op>) {
      text = "AscendC::Sort32({}, {}, {}.ReinterpretCast<uint32_t>(), " +
             std::to_string(op.getRepeat()) + ");";
      operands = {adaptor.getDst(), adaptor.getScores(), adaptor.getIndices()};
    } else if constexpr (std::is_same_v<From, ascendc::TransposeOp>) {
      text = "AscendC::Transpose({}, {});";
      operands = {adaptor.getDst(), adaptor.getSrc()};
    } else if constexpr (std::is_same_v<From, ascendc::GatherOp>) {
      text = "AscendC::Gather({}, {}, {}.ReinterpretCast<uint32_t>(), 0, {});";
      operands = {adaptor.getDst(), adaptor.getSrc(), adaptor.getOffsets(),
                  adaptor.getCount()};
    } else if constexpr (std::is_same_v<From, ascendc::ExtractOp>) {
      text = "AscendC::Extract({}, {}.ReinterpretCast<uint32_t>(), {}, " +
             std::to_string(op.getRepeat()) + ");";
      operands = {adaptor.getValues(), adaptor.getIndices(),
                  adaptor.getSorted()};
    } else {
      std::string type =
          elementName(cast<ShapedType>(op.getDst().getType()).getElementType());
      std::string count = std::to_string(op.getCount());
      // (`{{` is the format's escaped brace.)
      text = "{{ uint16_t counts[4] = {{" + count + ", " + count +
             ", 0, 0}; uint32_t sortedNum[4]; AscendC::MrgSort<" + type +
             ", false>({}, AscendC::MrgSortSrcList<" + type +
             ">({}, {}, {}, {}), counts, sortedNum, 3, 1); }";
      operands = {adaptor.getDst(), adaptor.getFirst(), adaptor.getSecond(),
                  adaptor.getFirst(), adaptor.getSecond()};
    }
    emitc::VerbatimOp::create(rewriter, op.getLoc(),
                              rewriter.getStringAttr(text), operands);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void emit::populateComputePatterns(AscendCToEmitCTypes &types,
                                   RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<VectorL2Lowering, VectorL0Lowering>(types, context);
  patterns.add<MmadLowering, BroadcastLowering,
               ReduceLowering<ascendc::ReduceSumOp>,
               ReduceLowering<ascendc::ReduceMaxOp>,
               ReduceLowering<ascendc::ReduceMinOp>,
               ReduceLowering<ascendc::ReduceProdOp>,
               CallStatementLowering<ascendc::Sort32Op>,
               CallStatementLowering<ascendc::MrgSortOp>,
               CallStatementLowering<ascendc::ExtractOp>,
               CallStatementLowering<ascendc::GatherOp>,
               CallStatementLowering<ascendc::TransposeOp>>(types, context);
}
