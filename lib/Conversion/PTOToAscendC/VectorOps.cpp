//===- VectorOps.cpp - Vector tile ops to AscendC vector ops --------------===//
//
//   pto.tile.<binary>      -> ascendc.<binary>_l2 (add sub mul div max min)
//   pto.tile.<binary>s     -> ascendc.<binary>s_l2 (adds muls maxs mins)
//   pto.tile.<unary>       -> ascendc.<unary>_l2 (exp log sqrt rsqrt recip
//                             abs relu; tanh sigmoid erf: the advanced
//                             API's math functions, half and float)
//   pto.tile.subs divs     -> adds of -s; duplicate_l2 of s, then div_l2
//   pto.tile.cmp[s], sel[s]
//                          -> compare_l2 into a bit mask (cmps: against a
//                             filled tensor), select_l2 / select_scalar_l2
//   pto.tile.cast          -> ascendc.cast_l2 (the same round mode)
//   pto.tile.full          -> ascendc.duplicate_l2
//   pto.tile.row_expand[_<op>], col_expand[_<op>]
//                          -> ascendc.broadcast (axis 1 or 0), then the
//                             binary op (expdif: sub, then exp; f32 only)
//   pto.tile.row_<fold>, col_<fold>
//                          -> ascendc.reduce_<fold> (axis 1 or 0; the
//                             valid rows of a ragged tile)
//   pto.tile.fillpad       -> ascendc.data_copy of the valid rows, with
//                             duplicate_l2 below them and duplicate_l0
//                             (lane bits) right of the valid columns
//
// Each writes a fresh VECCALC placeholder. The ops run on whole tensors
// (no count): what lies past a partial tile's rows is never stored, and a
// column fold folds the valid rows only.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

Value lowering::asElement(OpBuilder &builder, Location loc, Value scalar,
                          Type element) {
  Type type = scalar.getType();
  if (type == element)
    return scalar;
  auto toFloat = dyn_cast<FloatType>(element);
  auto fromFloat = dyn_cast<FloatType>(type);
  if (toFloat && fromFloat) {
    if (std::optional<APFloat> value = [&]() -> std::optional<APFloat> {
          if (auto constant = scalar.getDefiningOp<arith::ConstantOp>())
            if (auto attr = dyn_cast<FloatAttr>(constant.getValue()))
              return attr.getValue();
          return std::nullopt;
        }()) {
      bool lost;
      value->convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                     &lost);
      return arith::ConstantOp::create(builder, loc,
                                       FloatAttr::get(element, *value));
    }
    if (toFloat.getWidth() < fromFloat.getWidth())
      return arith::TruncFOp::create(builder, loc, element, scalar);
    return arith::ExtFOp::create(builder, loc, element, scalar);
  }
  auto toInt = dyn_cast<IntegerType>(element);
  if (toInt && (isa<IntegerType>(type) || type.isIndex())) {
    Type signless = builder.getIntegerType(toInt.getWidth());
    Value wrapped =
        type.isIndex()
            ? arith::IndexCastOp::create(builder, loc, signless, scalar)
                  .getResult()
        : type.getIntOrFloatBitWidth() > toInt.getWidth()
            ? arith::TruncIOp::create(builder, loc, signless, scalar)
                  .getResult()
        : type.getIntOrFloatBitWidth() < toInt.getWidth()
            ? arith::ExtSIOp::create(builder, loc, signless, scalar).getResult()
            : scalar;
    return wrapped;
  }
  return scalar;
}

Value lowering::freshTensor(OpBuilder &builder, Location loc,
                            ArrayRef<int64_t> shape, Type element,
                            Operation *laneOf) {
  Value fresh = ascendc::LocalTensorAutoOp::create(
      builder, loc,
      ascendc::LocalTensorType::get(builder.getContext(), shape, element),
      ascendc::Position::VecCalc, false, false);
  markLane(fresh, laneOf);
  return fresh;
}

Value lowering::viewOf(OpBuilder &builder, Location loc, Value tensor,
                       int64_t offset, int64_t count) {
  auto type = cast<ascendc::LocalTensorType>(tensor.getType());
  if (offset == 0 && count == type.getNumElements())
    return tensor;
  auto view = ascendc::LocalTensorType::get(builder.getContext(), {count},
                                            type.getElementType());
  return ascendc::ReinterpretCastOp::create(
      builder, loc, view, tensor,
      arith::ConstantIndexOp::create(builder, loc, offset));
}

bool lowering::usedAfter(Value value, Operation *op) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    if (user == op)
      return false;
    if (user->getBlock() != op->getBlock())
      return true;
    return op->isBeforeInBlock(user);
  });
}

Value lowering::freshLike(OpBuilder &builder, Location loc, Value like,
                          Operation *laneOf) {
  auto type = cast<ascendc::LocalTensorType>(like.getType());
  return freshTensor(builder, loc, type.getShape(), type.getElementType(),
                     laneOf);
}

Value lowering::filledLike(OpBuilder &builder, Location loc, Value like,
                           Value scalar, Operation *laneOf) {
  auto type = cast<ascendc::LocalTensorType>(like.getType());
  Value filled = freshLike(builder, loc, like, laneOf);
  ascendc::DuplicateL2Op::create(
      builder, loc, filled,
      asElement(builder, loc, scalar, type.getElementType()), Value());
  return filled;
}

FailureOr<Value> lowering::integerDivisionCount(Operation *op, Value dividend,
                                                const ValidShapes &valid,
                                                OpBuilder &builder) {
  auto tile = cast<pto::TileType>(dividend.getType());
  if (!isa<IntegerType>(tile.getElementType()))
    return Value();
  FailureOr<ValidShape> shape = valid.require(op, dividend);
  if (failed(shape))
    return failure();
  Location loc = op->getLoc();
  int64_t boxRows = tile.getShape()[0];
  int64_t rowElements = tile.getNumElements() / boxRows;
  if (!shape->cols && !shape->rows)
    return Value();
  if (!shape->cols)
    return builder.createOrFold<arith::MulIOp>(
        loc, shape->rows,
        arith::ConstantIndexOp::create(builder, loc, rowElements));
  if (boxRows == 1)
    return shape->cols;
  return op->emitOpError()
         << "divides integers of a tile whose valid columns are fewer than "
            "its box's: the padding lanes right of them would be divided "
            "too, and a zero there faults; the lowering counts valid rows "
            "or one row's columns (fillpad the dividend, or divide whole "
            "rows)";
}

TypedAttr lowering::padAttr(Type type, pto::PadValue pad) {
  bool isMin = pad == pto::PadValue::Min;
  if (pad == pto::PadValue::Zero || pad == pto::PadValue::Null)
    return cast<TypedAttr>(OpBuilder(type.getContext()).getZeroAttr(type));
  if (auto real = dyn_cast<FloatType>(type))
    return FloatAttr::get(type,
                          APFloat::getLargest(real.getFloatSemantics(), isMin));
  auto integer = cast<IntegerType>(type);
  unsigned width = integer.getWidth();
  if (integer.isUnsigned() || width == 1)
    return IntegerAttr::get(type, isMin ? APInt::getZero(width)
                                        : APInt::getMaxValue(width));
  return IntegerAttr::get(type, isMin ? APInt::getSignedMinValue(width)
                                      : APInt::getSignedMaxValue(width));
}

namespace {

/// A tile op whose operands map one to one onto an AscendC L2 op that
/// writes a fresh local tensor.
template <typename From, typename To>
struct ElementwiseLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The advanced API's math functions take half and float only.
    constexpr bool isMath = std::is_same_v<To, ascendc::TanhL2Op> ||
                            std::is_same_v<To, ascendc::SigmoidL2Op> ||
                            std::is_same_v<To, ascendc::ErfL2Op>;
    Type element = cast<pto::TileType>(op.getType()).getElementType();
    if (isMath && !element.isF16() && !element.isF32()) {
      std::string api = op->getName().stripDialect().drop_front(5).str();
      api[0] = llvm::toUpper(api[0]);
      return op.emitOpError()
             << "computes on " << element << ", which Ascend C's " << api
             << " takes only as half or float; cast the tile to f32 first";
    }
    // The result takes the valid shape of the first operand.
    this->valid.inherit(op.getResult(), op->getOperand(0));
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    SmallVector<Value> operands{dst};
    llvm::append_range(operands, adaptor.getOperands());
    // A scalar operand (adds, muls, ...) as the element type.
    for (Value &operand : llvm::drop_begin(operands))
      if (!isa<ascendc::LocalTensorType>(operand.getType()))
        operand = asElement(rewriter, loc, operand, element);
    // The optional count stays absent: the whole tensor (what lies past
    // a partial tile's rows is never stored) -- except where computing the
    // padding could fault.
    if constexpr (std::is_same_v<From, pto::TileDivOp>) {
      FailureOr<Value> count =
          integerDivisionCount(op, op.getLhs(), this->valid, rewriter);
      if (failed(count))
        return failure();
      if (*count)
        operands.push_back(*count);
    }
    To::create(rewriter, loc, TypeRange(), operands,
               ArrayRef<NamedAttribute>());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.shls / shrs -> Ascend C's ShiftLeft / ShiftRight by a scalar:
/// 16- and 32-bit integers, an amount below the element's width (the API
/// leaves others undefined; the executor shifts them out).
template <typename From, typename To>
struct ShiftLowering : ElementwiseLowering<From, To> {
  using ElementwiseLowering<From, To>::ElementwiseLowering;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = cast<pto::TileType>(op.getType()).getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    if (width != 16 && width != 32)
      return op.emitOpError()
             << "shifts " << element
             << ", which Ascend C's shifts take as 16- or 32-bit integers "
                "only; cast the tile first";
    std::optional<int64_t> amount = getConstantIntValue(op.getScalar());
    if (!amount)
      return op.emitOpError()
             << "shifts by an amount known only at run time, which is not "
                "lowered: Ascend C's shifts leave an amount outside [0, "
             << width << ") undefined; shift by a constant";
    if (*amount < 0 || *amount >= width)
      return op.emitOpError()
             << "shifts " << element << " by " << *amount
             << ", which Ascend C's shifts leave undefined (the amount is in "
                "[0, "
             << width << "))";
    return ElementwiseLowering<From, To>::matchAndRewrite(op, adaptor,
                                                          rewriter);
  }
};

/// pto.tile.subs -> adds of the negated scalar (a - s is a + (-s) in IEEE
/// and in wrapping integers alike); pto.tile.divs -> div_l2 by a tensor the
/// scalar fills (Ascend C has no Divs). The result keeps the source's
/// valid shape.
template <typename From> struct ScalarByOtherLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  static constexpr bool kIsSub = std::is_same_v<From, pto::TileSubSOp>;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tile = cast<pto::TileType>(op.getType());
    Type element = tile.getElementType();
    Value scalar = adaptor.getScalar();
    // Negating first and converting to the element type after commute
    // (rounding to nearest is symmetric; wrapping is modular) within a
    // kind, not across it (a float converts to an integer saturating).
    if (isa<FloatType>(scalar.getType()) != isa<FloatType>(element))
      return op.emitOpError()
             << "combines a " << element << " tile with a " << scalar.getType()
             << " scalar; the lowering takes a scalar of the same kind "
                "(float or integer)";
    if (!kIsSub && isa<IntegerType>(element))
      return op.emitOpError()
             << "divides integers by a scalar, which is lowered for float "
                "tiles only; fill a tile with the divisor (pto.tile.full) "
                "and use pto.tile.div";
    this->valid.inherit(op.getResult(), op.getSrc());
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    if constexpr (kIsSub) {
      Value negated =
          isa<FloatType>(element)
              ? arith::NegFOp::create(rewriter, loc, scalar).getResult()
              : arith::SubIOp::create(rewriter, loc,
                                      arith::ConstantOp::create(
                                          rewriter, loc,
                                          cast<TypedAttr>(rewriter.getZeroAttr(
                                              scalar.getType()))),
                                      scalar)
                    .getResult();
      ascendc::AddsL2Op::create(rewriter, loc, dst, adaptor.getSrc(),
                                asElement(rewriter, loc, negated, element),
                                Value());
    } else {
      Value divisor = filledLike(rewriter, loc, dst, scalar, op);
      ascendc::DivL2Op::create(rewriter, loc, dst, adaptor.getSrc(), divisor,
                               Value());
    }
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// Compare and Select: Ascend C's bit mask (one bit per element) stands in
/// for PTO's mask tile (one byte per element), so a mask lowers only from a
/// compare to the selects it feeds; the element types and whole 256-byte
/// repeats are the API's.
LogicalResult checkCompareOperand(Operation *op, Type type) {
  auto tile = cast<pto::TileType>(type);
  Type element = tile.getElementType();
  if (!element.isF16() && !element.isF32())
    return op->emitOpError()
           << "works on " << element
           << " tiles; Ascend C's Compare and Select take half and float";
  int64_t bytes = tile.getNumElements() * ascendc::getElementBytes(element);
  if (bytes % ascendc::kRepeatBytes != 0)
    return op->emitOpError()
           << "works on a tile of " << bytes
           << " bytes; Ascend C's Compare and Select take whole 256-byte "
              "repeats (a multiple of 64 f32 or 128 f16 elements)";
  return success();
}

/// pto.tile.cmp / cmps -> ascendc.compare_l2 into a mask of bits (cmps
/// compares with a tensor the scalar fills).
template <typename From> struct CompareLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0);
    if (failed(checkCompareOperand(op, lhs.getType())))
      return failure();
    for (OpOperand &use : op.getResult().getUses())
      if (!isa<pto::TileSelOp, pto::TileSelSOp>(use.getOwner()) ||
          use.getOperandNumber() != 0)
        return op.emitOpError()
               << "uses its mask other than as the mask of a select "
                  "(pto.tile.sel / sels), which is not lowered: the compiled "
                  "mask is Ascend C's bit mask";
    Location loc = op.getLoc();
    this->valid.inherit(op.getResult(), lhs);
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    Value rhs;
    if constexpr (std::is_same_v<From, pto::TileCmpOp>) {
      rhs = adaptor.getRhs();
    } else {
      rhs =
          filledLike(rewriter, loc, adaptor.getSrc(), adaptor.getScalar(), op);
    }
    auto mode = ascendc::symbolizeCmpMode(
        pto::stringifyCmpPredicate(op.getPredicate()));
    ascendc::CompareL2Op::create(rewriter, loc, dst, adaptor.getOperands()[0],
                                 rhs, *mode, Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.sel / sels -> ascendc.select_l2 / select_scalar_l2 over the bit
/// mask of the compare that computed it.
template <typename From> struct SelectLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value src = op->getOperand(1);
    if (failed(checkCompareOperand(op, src.getType())))
      return failure();
    if (!isa_and_nonnull<pto::TileCmpOp, pto::TileCmpSOp>(
            op.getMask().getDefiningOp()))
      return op.emitOpError()
             << "selects by a mask that no pto.tile.cmp / cmps computes "
                "here, which is not lowered: the compiled mask is Ascend C's "
                "bit mask, made by the compare that feeds the select";
    Location loc = op.getLoc();
    this->valid.inherit(op.getResult(), src);
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    if constexpr (std::is_same_v<From, pto::TileSelOp>)
      ascendc::SelectL2Op::create(rewriter, loc, dst, adaptor.getMask(),
                                  adaptor.getLhs(), adaptor.getRhs(), Value());
    else
      ascendc::SelectScalarL2Op::create(
          rewriter, loc, dst, adaptor.getMask(), adaptor.getSrc(),
          asElement(rewriter, loc, adaptor.getScalar(),
                    cast<pto::TileType>(src.getType()).getElementType()),
          Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.cast -> ascendc.cast_l2 with the same round mode (none when
/// absent); the result keeps the source's valid shape.
struct TileCastLowering : TilePattern<pto::TileCastOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    valid.inherit(op.getResult(), op.getSrc());
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    // Numbered alike (lib/Registration/EnumAgreement.cpp).
    auto mode = static_cast<ascendc::RoundMode>(
        op.getRound().value_or(pto::RoundMode::None));
    ascendc::CastL2Op::create(rewriter, loc, dst, adaptor.getSrc(), mode,
                              Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// `rhs` (M x 1 for a row expansion, 1 x N for a column one) broadcast to
/// the shape of `like` in a fresh VECCALC tensor of `laneOf`'s lane.
Value broadcastTo(ConversionPatternRewriter &rewriter, Location loc, Value rhs,
                  Type like, bool isRow, Operation *laneOf) {
  auto shape = cast<ascendc::LocalTensorType>(like);
  auto type = ascendc::LocalTensorType::get(
      rewriter.getContext(), shape.getShape(),
      cast<ascendc::LocalTensorType>(rhs.getType()).getElementType());
  Value wide = ascendc::LocalTensorAutoOp::create(
      rewriter, loc, type, ascendc::Position::VecCalc, false, false);
  markLane(wide, laneOf);
  ascendc::BroadcastOp::create(rewriter, loc, wide, rhs, isRow ? 1 : 0,
                               Value());
  return wide;
}

/// The first `cols` columns of each row of the 2-d `src` (of its first
/// `rows` rows when given), in rows of `cols` rounded up to whole 32-byte
/// blocks: `src` itself when its rows are that wide, else a UB -> UB copy
/// into a fresh VECCALC tensor (as wide as `src` for a count known at run
/// time only, the rows packed at its start).
Value padColumns(ConversionPatternRewriter &rewriter, Location loc, Value src,
                 Value cols, Value rows, Operation *op) {
  auto type = cast<ascendc::LocalTensorType>(src.getType());
  int64_t perBlock =
      ascendc::kBlockBytes / ascendc::getElementBytes(type.getElementType());
  int64_t height = type.getShape()[0], srcWidth = type.getShape()[1];
  std::optional<int64_t> count = getConstantIntValue(cols);
  int64_t width =
      count ? llvm::divideCeil(*count, perBlock) * perBlock : srcWidth;
  if (count && srcWidth == width)
    return src;
  Value narrow = ascendc::LocalTensorAutoOp::create(
      rewriter, loc,
      ascendc::LocalTensorType::get(rewriter.getContext(), {height, width},
                                    type.getElementType()),
      ascendc::Position::VecCalc, false, false);
  markLane(narrow, op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value pitch = constant(width);
  if (!count) {
    Value block = constant(perBlock);
    Value blocks = arith::CeilDivUIOp::create(rewriter, loc, cols, block);
    pitch = arith::MulIOp::create(rewriter, loc, blocks, block);
  }
  ascendc::DataCopyOp::create(rewriter, loc, narrow, src, Value(),
                              ValueRange{rows ? rows : constant(height), pitch},
                              ValueRange{constant(srcWidth), pitch});
  return narrow;
}

/// pto.tile.row_expand / col_expand -> ascendc.broadcast; a row expansion
/// keeps its column's valid rows.
template <typename From, bool IsRow> struct ExpandLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (IsRow)
      this->valid.inherit(op.getResult(), op.getSrc());
    Type result = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, broadcastTo(rewriter, op.getLoc(), adaptor.getSrc(),
                                       result, IsRow, op));
    return success();
  }
};

/// pto.tile.row_<fold> / col_<fold> -> ascendc.reduce_<fold> along axis 1
/// or 0, folding the valid rows of a partial tile only; a row reduction
/// keeps them. A row fold of fewer valid columns than the tile's folds
/// those only: the API folds rows padded to whole 32-byte blocks
/// (srcInnerPad), so the valid columns are first copied into rows of that
/// width unless the tile's rows are already (a count known at run time:
/// always, packed at the start of a tensor as wide as the tile).
template <typename From, typename To, bool IsRow>
struct ReduceLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (cast<pto::TileType>(op.getType()).getRank() != 2)
      return op.emitOpError() << "reduces a tile of rank other than 2, "
                                 "which is not lowered to AscendC yet";
    FailureOr<ValidShape> known = this->valid.require(op, op.getSrc());
    if (failed(known))
      return failure();
    ValidShape shape = *known;
    auto tile = cast<pto::TileType>(op.getSrc().getType());
    int64_t bytes = ascendc::getElementBytes(tile.getElementType());
    if (tile.getShape()[1] * bytes % ascendc::kBlockBytes)
      return op.emitOpError()
             << "folds " << tile << ", whose rows of "
             << tile.getShape()[1] * bytes
             << " bytes are not whole 32-byte blocks; the API's Reduce reads "
                "rows padded to whole blocks (srcInnerPad): widen the tile to "
             << llvm::divideCeil(tile.getShape()[1] * bytes,
                                 ascendc::kBlockBytes) *
                    ascendc::kBlockBytes / bytes
             << " columns (its valid columns can stay " << tile.getShape()[1]
             << ")";
    // A row fold of fewer valid columns than the tile's folds those.
    Value validCols = IsRow ? shape.cols : Value();
    // A row fold's result keeps its source's valid rows (it is one
    // column), a column fold's its valid columns (one row).
    if (IsRow ? shape.rows : shape.cols)
      this->valid.shapes[op.getResult()] =
          IsRow ? ValidShape{shape.rows, Value()}
                : ValidShape{Value(), shape.cols};
    if (this->valid.unknown.contains(op.getSrc()))
      this->valid.unknown.insert(op.getResult());
    Location loc = op.getLoc();
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    // A tile with no valid rows folds nothing (the instruction needs a
    // row at least): a run-time row count is checked first. The column
    // folds of no rows are zeros, as the executor defines them (a row fold
    // of no rows has no valid rows).
    std::optional<int64_t> rows =
        shape.rows ? getConstantIntValue(shape.rows) : std::nullopt;
    auto foldValues = [&] {
      Value src = adaptor.getSrc(), into = dst;
      // The API folds some 16-bit floats in f32 only (C220's ReduceSum
      // and ReduceProd, C310's ReduceSum). The tile fold accumulates in
      // f32 and rounds once, so folding the widened tile and rounding
      // the result to nearest is the same fold, to the bit.
      auto srcType = cast<ascendc::LocalTensorType>(src.getType());
      Type element = srcType.getElementType();
      auto arch = op->template getParentOfType<ModuleOp>()
                      ->template getAttrOfType<StringAttr>(
                          ascendc::AscendCDialect::kArchAttrName);
      bool widen = isa<FloatType>(element) &&
                   element.getIntOrFloatBitWidth() < 32 &&
                   !machine::scratch::foldTakes(
                       To::kFold, arch && arch.getValue() == "c310",
                       element.getIntOrFloatBitWidth() / 8, true);
      auto widened = [&](Value tensor) {
        auto type = cast<ascendc::LocalTensorType>(tensor.getType());
        Value wide = ascendc::LocalTensorAutoOp::create(
            rewriter, loc,
            ascendc::LocalTensorType::get(
                rewriter.getContext(), type.getShape(), rewriter.getF32Type()),
            ascendc::Position::VecCalc, false, false);
        markLane(wide, op);
        return wide;
      };
      if (widen) {
        Value wide = widened(src);
        ascendc::CastL2Op::create(rewriter, loc, wide, src,
                                  ascendc::RoundMode::None, Value());
        src = wide;
        into = widened(dst);
      }
      if (validCols)
        src = padColumns(rewriter, loc, src, validCols, shape.rows, op);
      To::create(rewriter, loc, into, src, IsRow ? 1 : 0, shape.rows, validCols,
                 Value());
      if (widen)
        ascendc::CastL2Op::create(rewriter, loc, dst, into,
                                  ascendc::RoundMode::Rint, Value());
    };
    auto fillZeros = [&] {
      Type element =
          cast<ascendc::LocalTensorType>(dst.getType()).getElementType();
      Value zero = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(element)));
      ascendc::DuplicateL2Op::create(rewriter, loc, dst, zero, Value());
    };
    // A count of valid columns may be none: the PTO fold of nothing leaves
    // zeros (the instruction needs a value at least).
    auto fold = [&] {
      std::optional<int64_t> count =
          validCols ? getConstantIntValue(validCols) : std::nullopt;
      if (!validCols || (count && *count > 0)) {
        foldValues();
        return;
      }
      if (count) {
        fillZeros();
        return;
      }
      OpBuilder::InsertionGuard restore(rewriter);
      Value any = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sgt, validCols,
          arith::ConstantIndexOp::create(rewriter, loc, 0));
      auto guard = scf::IfOp::create(rewriter, loc, TypeRange(), any,
                                     /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(guard.elseBlock());
      fillZeros();
      rewriter.setInsertionPointToStart(guard.thenBlock());
      foldValues();
    };
    // The column folds of no rows are zeros.
    auto zeros = [&] {
      if (!IsRow)
        fillZeros();
    };
    OpBuilder::InsertionGuard restore(rewriter);
    if (shape.rows && !rows) {
      Value any = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sgt, shape.rows,
          arith::ConstantIndexOp::create(rewriter, loc, 0));
      auto guard = scf::IfOp::create(rewriter, loc, TypeRange(), any,
                                     /*withElseRegion=*/!IsRow);
      if (!IsRow) {
        rewriter.setInsertionPointToStart(guard.elseBlock());
        zeros();
      }
      rewriter.setInsertionPointToStart(guard.thenBlock());
      fold();
    } else if (rows && *rows == 0) {
      zeros();
    } else {
      fold();
    }
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.row_expand_<op> / col_expand_<op> -> broadcast, then the
/// binary op into the broadcast tensor (expdif: sub, then exp). The result
/// keeps lhs's valid shape.
template <typename From, typename To, bool IsRow, bool ExpDif = false>
struct ExpandBinaryLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<ascendc::LocalTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    // The tile op keeps exp's argument in f32; in a narrower tensor the
    // difference would round first.
    if (ExpDif && !type.getElementType().isF32())
      return op.emitOpError()
             << "computes exp of a difference in " << type.getElementType()
             << ", which is lowered only for f32 tiles";
    this->valid.inherit(op.getResult(), op.getLhs());
    // The result overwrites the broadcast in place (an elementwise
    // instruction may write the tensor it reads), which saves UB a tensor.
    Value dst = broadcastTo(rewriter, loc, adaptor.getRhs(), type, IsRow, op);
    To::create(rewriter, loc, TypeRange(),
               ValueRange{dst, adaptor.getLhs(), dst},
               ArrayRef<NamedAttribute>());
    if (ExpDif)
      ascendc::ExpL2Op::create(rewriter, loc, dst, dst, Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.full -> a fresh tensor filled by duplicate_l2 (whole: the
/// padding of a partial tile holds the value too).
struct TileFullLowering : TilePattern<pto::TileFullOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileFullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    if (tile.getMemorySpace() != pto::MemorySpace::Vec)
      return op.emitOpError()
             << "fills a " << stringifyEnum(tile.getMemorySpace())
             << " tile, which only the vector unit does";
    if (failed(valid.record(op, adaptor.getValidShape())))
      return failure();
    Location loc = op.getLoc();
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    ascendc::DuplicateL2Op::create(
        rewriter, loc, dst,
        asElement(rewriter, loc, adaptor.getValue(), tile.getElementType()),
        Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// The two words (high, low) of the lane bit mask selecting lanes
/// [`from`, `to`) of a repeat: `from` is known at run time, `to` at
/// compile time. A shift by 64 or more is poison in arith, so each word
/// selects zero once `from` is past it.
std::pair<Value, Value> laneBits(OpBuilder &builder, Location loc, Value from,
                                 int64_t to) {
  Type i64 = builder.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, i64, value);
  };
  Value start = arith::IndexCastOp::create(builder, loc, i64, from);
  Value words[2];
  for (int64_t w = 0; w < 2; ++w) {
    // Lanes below `to` in this word, then those at or past `from`.
    int64_t below = std::clamp<int64_t>(to - 64 * w, 0, 64);
    if (below == 0) {
      words[w] = constant(0);
      continue;
    }
    uint64_t upper = below == 64 ? ~uint64_t(0) : (uint64_t(1) << below) - 1;
    Value shift = arith::SubIOp::create(builder, loc, start, constant(64 * w));
    shift = arith::MaxSIOp::create(builder, loc, shift, constant(0));
    Value past = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                       shift, constant(64));
    shift = arith::MinSIOp::create(builder, loc, shift, constant(63));
    Value ones = arith::ShLIOp::create(builder, loc, constant(-1), shift);
    ones = arith::SelectOp::create(builder, loc, past, constant(0), ones);
    words[w] = arith::AndIOp::create(builder, loc, ones,
                                     constant(static_cast<int64_t>(upper)));
  }
  return {words[1], words[0]};
}

/// pto.tile.fillpad -> a fresh tensor: the pad below the valid rows
/// (duplicate_l2 over the whole tensor, the valid rows then copied over
/// it), and right of the valid columns a duplicate_l0 per 256-byte part of
/// a row whose lane bits select those columns in each valid row, one
/// repeat per row (a part the valid columns cover is skipped: a repeat
/// needs a lane). The vector unit addresses whole 32-byte blocks, so the
/// columns are masked rather than copied around.
struct TileFillPadLowering : TilePattern<pto::TileFillPadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileFillPadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getSrc().getType());
    FailureOr<ValidShape> known = valid.require(op, op.getSrc());
    if (failed(known))
      return failure();
    ValidShape shape = *known;
    Type element = tile.getElementType();
    int64_t rowElements = tile.getShape().back();
    int64_t rowBytes = rowElements * ascendc::getElementBytes(element);
    if (shape.cols &&
        (tile.getRank() != 2 || rowBytes % ascendc::kBlockBytes != 0 ||
         element.getIntOrFloatBitWidth() < 16 ||
         element.getIntOrFloatBitWidth() > 32))
      return op.emitOpError()
             << "pads the columns of a " << tile
             << "; that is lowered for 2-d tiles of 16- or 32-bit elements "
                "whose rows are whole 32-byte blocks (the lane mask of a "
                "repeat covers 128 elements)";
    Location loc = op.getLoc();
    Value src = adaptor.getSrc();
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    Value pad =
        arith::ConstantOp::create(rewriter, loc, padAttr(element, op.getPad()));
    Value count;
    if (shape.rows) {
      ascendc::DuplicateL2Op::create(rewriter, loc, dst, pad, Value());
      count = arith::MulIOp::create(
          rewriter, loc, shape.rows,
          arith::ConstantIndexOp::create(
              rewriter, loc, tile.getNumElements() / tile.getShape().front()));
    }
    ascendc::DataCopyOp::create(rewriter, loc, dst, src, count, ValueRange(),
                                ValueRange());
    if (shape.cols) {
      Value rows = extentOr(rewriter, loc, shape.rows, tile.getShape().front());
      int64_t lanes = ascendc::kRepeatBytes / ascendc::getElementBytes(element);
      std::optional<int64_t> cols = getConstantIntValue(shape.cols);
      for (int64_t first = 0; first < rowElements; first += lanes) {
        int64_t part = std::min(lanes, rowElements - first);
        if (cols && *cols >= first + part)
          continue;
        OpBuilder::InsertionGuard guard(rewriter);
        if (!cols) {
          Value padded = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::slt, shape.cols,
              arith::ConstantIndexOp::create(rewriter, loc, first + part));
          auto inside = scf::IfOp::create(rewriter, loc, padded);
          rewriter.setInsertionPointToStart(inside.thenBlock());
        }
        Value from = arith::SubIOp::create(
            rewriter, loc, shape.cols,
            arith::ConstantIndexOp::create(rewriter, loc, first));
        auto [high, low] = laneBits(rewriter, loc, from, part);
        ascendc::DuplicateL0Op::create(
            rewriter, loc,
            viewOf(rewriter, loc, dst, first, tile.getNumElements() - first),
            pad, Value(), high, low, rows,
            rewriter.getDenseI64ArrayAttr(
                {1, rowBytes / ascendc::kBlockBytes}));
      }
    }
    rewriter.replaceOp(op, dst);
    return success();
  }
};

} // namespace

void lowering::populateVectorPatterns(PTOToAscendCTypes &types,
                                      RewritePatternSet &patterns,
                                      ValidShapes &valid) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<TileCastLowering, TileFullLowering, TileFillPadLowering,
           ElementwiseLowering<pto::TileAddOp, ascendc::AddL2Op>,
           ElementwiseLowering<pto::TileSubOp, ascendc::SubL2Op>,
           ElementwiseLowering<pto::TileMulOp, ascendc::MulL2Op>,
           ElementwiseLowering<pto::TileDivOp, ascendc::DivL2Op>,
           ElementwiseLowering<pto::TileMaxOp, ascendc::MaxL2Op>,
           ElementwiseLowering<pto::TileMinOp, ascendc::MinL2Op>,
           ElementwiseLowering<pto::TileAddSOp, ascendc::AddsL2Op>,
           ElementwiseLowering<pto::TileMulSOp, ascendc::MulsL2Op>,
           ElementwiseLowering<pto::TileMaxSOp, ascendc::MaxsL2Op>,
           ElementwiseLowering<pto::TileMinSOp, ascendc::MinsL2Op>,
           ElementwiseLowering<pto::TileExpOp, ascendc::ExpL2Op>,
           ElementwiseLowering<pto::TileLogOp, ascendc::LnL2Op>,
           ElementwiseLowering<pto::TileSqrtOp, ascendc::SqrtL2Op>,
           ElementwiseLowering<pto::TileRsqrtOp, ascendc::RsqrtL2Op>,
           ElementwiseLowering<pto::TileRecipOp, ascendc::ReciprocalL2Op>,
           ElementwiseLowering<pto::TileAbsOp, ascendc::AbsL2Op>,
           ElementwiseLowering<pto::TileReluOp, ascendc::ReluL2Op>,
           ElementwiseLowering<pto::TileTanhOp, ascendc::TanhL2Op>,
           ElementwiseLowering<pto::TileSigmoidOp, ascendc::SigmoidL2Op>,
           ElementwiseLowering<pto::TileErfOp, ascendc::ErfL2Op>,
           CompareLowering<pto::TileCmpOp>, CompareLowering<pto::TileCmpSOp>,
           SelectLowering<pto::TileSelOp>, SelectLowering<pto::TileSelSOp>,
           ShiftLowering<pto::TileShlSOp, ascendc::ShiftLeftL2Op>,
           ShiftLowering<pto::TileShrSOp, ascendc::ShiftRightL2Op>,
           ScalarByOtherLowering<pto::TileSubSOp>,
           ScalarByOtherLowering<pto::TileDivSOp>,
           ExpandLowering<pto::TileRowExpandOp, true>,
           ExpandLowering<pto::TileColExpandOp, false>>(types, context, valid);
#define REDUCE(STEM)                                                           \
  ReduceLowering<pto::TileRow##STEM##Op, ascendc::Reduce##STEM##Op, true>,     \
      ReduceLowering<pto::TileCol##STEM##Op, ascendc::Reduce##STEM##Op, false>
  patterns.add<REDUCE(Sum), REDUCE(Max), REDUCE(Min), REDUCE(Prod)>(
      types, context, valid);
#undef REDUCE
#define EXPAND(STEM, TO)                                                       \
  ExpandBinaryLowering<pto::TileRowExpand##STEM##Op, ascendc::TO, true>,       \
      ExpandBinaryLowering<pto::TileColExpand##STEM##Op, ascendc::TO, false>
  patterns.add<EXPAND(Add, AddL2Op), EXPAND(Sub, SubL2Op), EXPAND(Mul, MulL2Op),
               EXPAND(Div, DivL2Op), EXPAND(Max, MaxL2Op), EXPAND(Min, MinL2Op),
               ExpandBinaryLowering<pto::TileRowExpandExpDifOp,
                                    ascendc::SubL2Op, true, true>,
               ExpandBinaryLowering<pto::TileColExpandExpDifOp,
                                    ascendc::SubL2Op, false, true>>(
      types, context, valid);
#undef EXPAND
}
