//===- Composites.cpp - Tile ops as several Ascend C instructions ---------===//
//
// Ops Ascend C has no one instruction for, written exactly with the ones it
// has. Its bitwise instructions (And, Or, Not) take 16-bit integers; a
// bitwise op does not care how bits group into elements, so tiles of any
// integer width (and a float's bits) run on an int16 view of their bytes:
//
//   pto.tile.and / or / not   -> and_l2 / or_l2 / not_l2 on the words
//   pto.tile.xor              -> (a | b) & ~(a & b)
//   pto.tile.ands / ors / xors -> the same with a tensor the scalar fills
//   pto.tile.neg (integers)   -> 0 - x, wrapping (sub_l2 from zeros)
//   pto.tile.neg (floats)     -> x with its sign bit flipped (xor of the
//                                sign mask): -x for every value, NaN too,
//                                as the executor negates
//   pto.tile.rem / rems (integers)
//                             -> a - (a / b) * b (div_l2 truncates, as the
//                                executor's remainder does), over the
//                                valid elements the division counts
//
//   pto.tile.shl / shr       -> (a tile of amounts: Ascend C's ShiftLeft
//                                and ShiftRight take one scalar amount)
//                                the scalar unit walks the valid region:
//                                get_value of both, the shift, set_value;
//                                an amount outside [0, width) gives 0
//                                (shl) or the sign (shr), as the executor
//
// A mask tile (i1) is not bits in a byte, so it is refused. Each result
// keeps its first operand's valid shape.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

/// The bytes of `tile` as 16-bit words: an error at `op` when they are not
/// whole words, or the tile is a mask.
FailureOr<int64_t> wordsOf(Operation *op, pto::TileType tile) {
  unsigned bits = tile.getElementType().getIntOrFloatBitWidth();
  int64_t bytes = tile.getNumElements() * bits / 8;
  if (bits < 8 || bytes % 2 != 0)
    return op->emitOpError()
           << "computes on " << tile
           << "; Ascend C's bitwise ops take tiles of whole 16-bit words "
              "(8-, 16-, 32- or 64-bit elements)";
  return bytes / 2;
}

/// `tensor` viewed as `words` 16-bit integers.
Value asWords(OpBuilder &builder, Location loc, Value tensor, int64_t words) {
  auto type = cast<ascendc::LocalTensorType>(tensor.getType());
  if (type.getElementType().isInteger(16))
    return tensor;
  auto view = ascendc::LocalTensorType::get(builder.getContext(), {words},
                                            builder.getIntegerType(16));
  return ascendc::ReinterpretCastOp::create(builder, loc, view, tensor);
}

/// dst = a ^ b on words: (a | b) & ~(a & b), two temporaries.
void emitXor(OpBuilder &builder, Location loc, Value dst, Value a, Value b,
             Operation *laneOf) {
  Value either = freshLike(builder, loc, dst, laneOf);
  Value both = freshLike(builder, loc, dst, laneOf);
  ascendc::OrL2Op::create(builder, loc, either, a, b, Value());
  ascendc::AndL2Op::create(builder, loc, both, a, b, Value());
  ascendc::NotL2Op::create(builder, loc, both, both, Value());
  ascendc::AndL2Op::create(builder, loc, dst, either, both, Value());
}

enum class Bitwise { And, Or, Xor, Not };

/// pto.tile.and / or / xor / not and the scalar forms, on the words of the
/// tiles (a scalar form's scalar fills a tensor first).
template <typename From, Bitwise Kind>
struct BitwiseLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    FailureOr<int64_t> words = wordsOf(op, tile);
    if (failed(words))
      return failure();
    Location loc = op.getLoc();
    this->valid.inherit(op.getResult(), op->getOperand(0));
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    SmallVector<Value> operands;
    for (Value operand : adaptor.getOperands())
      operands.push_back(isa<ascendc::LocalTensorType>(operand.getType())
                             ? operand
                             : filledLike(rewriter, loc, dst, operand, op));
    auto view = [&](Value tensor) {
      return asWords(rewriter, loc, tensor, *words);
    };
    Value out = view(dst);
    if constexpr (Kind == Bitwise::Not)
      ascendc::NotL2Op::create(rewriter, loc, out, view(operands[0]), Value());
    else if constexpr (Kind == Bitwise::And)
      ascendc::AndL2Op::create(rewriter, loc, out, view(operands[0]),
                               view(operands[1]), Value());
    else if constexpr (Kind == Bitwise::Or)
      ascendc::OrL2Op::create(rewriter, loc, out, view(operands[0]),
                              view(operands[1]), Value());
    else
      emitXor(rewriter, loc, out, view(operands[0]), view(operands[1]), op);
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.neg: integers 0 - x (wrapping, as the executor negates);
/// floats flip the sign bit of every element, NaNs included, which no
/// arithmetic instruction does (x * -1 keeps a NaN's sign on some units,
/// 0 - x turns -0 into +0).
struct NegLowering : TilePattern<pto::TileNegOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileNegOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    Type element = tile.getElementType();
    Location loc = op.getLoc();
    if (isa<IntegerType>(element)) {
      if (element.isInteger(1))
        return op.emitOpError() << "negates a mask tile (i1); select by it "
                                   "the other way round instead";
      valid.inherit(op.getResult(), op.getSrc());
      Value dst = createLocal(rewriter, loc, *getTypeConverter(),
                              op.getResult(), ascendc::Position::VecCalc);
      Value zero = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(element)));
      Value zeros = filledLike(rewriter, loc, dst, zero, op);
      ascendc::SubL2Op::create(rewriter, loc, dst, zeros, adaptor.getSrc(),
                               Value());
      rewriter.replaceOp(op, dst);
      return success();
    }
    FailureOr<int64_t> words = wordsOf(op, tile);
    if (failed(words))
      return failure();
    valid.inherit(op.getResult(), op.getSrc());
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    // The sign mask: the sign bit of each element set, as integers of the
    // element's width (its high word's top bit, on the words).
    unsigned width = element.getIntOrFloatBitWidth();
    auto signType = IntegerType::get(rewriter.getContext(), width);
    Value sign = arith::ConstantOp::create(
        rewriter, loc, IntegerAttr::get(signType, APInt::getSignMask(width)));
    auto maskType = ascendc::LocalTensorType::get(rewriter.getContext(),
                                                  tile.getShape(), signType);
    Value mask = ascendc::LocalTensorAutoOp::create(
        rewriter, loc, maskType, ascendc::Position::VecCalc, false, false);
    markLane(mask, op);
    ascendc::DuplicateL2Op::create(rewriter, loc, mask, sign, Value());
    emitXor(rewriter, loc, asWords(rewriter, loc, dst, *words),
            asWords(rewriter, loc, adaptor.getSrc(), *words),
            asWords(rewriter, loc, mask, *words), op);
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.rem / rems of integers: a - (a / b) * b (rems: b a tensor the
/// scalar fills). Ascend C has no remainder; div_l2 truncates toward zero
/// as C's `%` pairs with, and the division counts the valid elements only
/// (a padding zero would fault). A float remainder (fmod) has no exact
/// form in the instructions.
template <typename From> struct RemLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    if (!isa<IntegerType>(tile.getElementType()))
      return op.emitOpError()
             << "takes the exact remainder of floats (fmod), which Ascend "
                "C computes only as a - trunc(a / b) * b in floating point "
                "(its Fmod, which differs whenever a / b rounds); compute it "
                "on the host, or for integers use an integer tile";
    Location loc = op.getLoc();
    Value dividend = op->getOperand(0);
    FailureOr<Value> count =
        integerDivisionCount(op, dividend, this->valid, rewriter);
    if (failed(count))
      return failure();
    this->valid.inherit(op.getResult(), dividend);
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    Value a = adaptor.getOperands()[0], b = adaptor.getOperands()[1];
    if (!isa<ascendc::LocalTensorType>(b.getType()))
      b = filledLike(rewriter, loc, dst, b, op);
    Value quotient = freshLike(rewriter, loc, dst, op);
    ascendc::DivL2Op::create(rewriter, loc, quotient, a, b, *count);
    ascendc::MulL2Op::create(rewriter, loc, quotient, quotient, b, Value());
    ascendc::SubL2Op::create(rewriter, loc, dst, a, quotient, Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.shl / shr by a tile of amounts, one element at a time on the
/// scalar unit (slow: every element is a scalar read and write). Unsigned
/// tiles are read and written through signless views of their bits (arith
/// computes on signless integers), shifted right logically.
template <typename From, bool Left>
struct ShiftByTileLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    auto declared = dyn_cast<IntegerType>(tile.getElementType());
    if (tile.getRank() != 2 || !declared || declared.getWidth() < 8)
      return op.emitOpError()
             << "shifts " << tile
             << " by a tile, which is lowered for 2-d tiles of integers (the "
                "scalar unit, one element at a time)";
    bool isUnsigned = declared.isUnsigned();
    auto element = rewriter.getIntegerType(declared.getWidth());
    FailureOr<ValidShape> shape = this->valid.require(op, op->getOperand(0));
    if (failed(shape))
      return failure();
    this->valid.inherit(op.getResult(), op->getOperand(0));
    Location loc = op.getLoc();
    auto number = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getIntegerAttr(element, value));
    };
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    auto signless = [&](Value tensor) -> Value {
      if (!isUnsigned)
        return tensor;
      auto type = cast<ascendc::LocalTensorType>(tensor.getType());
      return ascendc::ReinterpretCastOp::create(
          rewriter, loc,
          ascendc::LocalTensorType::get(rewriter.getContext(), type.getShape(),
                                        element),
          tensor);
    };
    Value src = signless(adaptor.getOperands()[0]);
    Value amounts = signless(adaptor.getOperands()[1]);
    Value out = signless(dst);
    int64_t cols = tile.getShape()[1];
    Value rows = extentOr(rewriter, loc, shape->rows, tile.getShape()[0]);
    Value validCols = extentOr(rewriter, loc, shape->cols, cols);
    Value width = number(element.getWidth());
    forEachElement(
        rewriter, loc, rows, validCols, cols, [&](Value, Value, Value at) {
          Value value =
              ascendc::GetValueOp::create(rewriter, loc, element, src, at);
          Value amount =
              ascendc::GetValueOp::create(rewriter, loc, element, amounts, at);
          // Unsigned: a negative amount is out of range too.
          Value inRange = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::ult, amount, width);
          Value result;
          if (Left || isUnsigned) {
            // Past the width every bit is shifted out (a right shift of an
            // unsigned value is logical).
            Value amountIn = arith::SelectOp::create(rewriter, loc, inRange,
                                                     amount, number(0));
            Value shifted = Left ? Value(arith::ShLIOp::create(rewriter, loc,
                                                               value, amountIn))
                                 : Value(arith::ShRUIOp::create(
                                       rewriter, loc, value, amountIn));
            result = arith::SelectOp::create(rewriter, loc, inRange, shifted,
                                             number(0));
          } else {
            // Past the width, every bit is the sign: a shift by width - 1.
            result = arith::ShRSIOp::create(
                rewriter, loc, value,
                arith::SelectOp::create(rewriter, loc, inRange, amount,
                                        number(element.getWidth() - 1)));
          }
          ascendc::SetValueOp::create(rewriter, loc, out, at, result);
        });
    rewriter.replaceOp(op, dst);
    return success();
  }
};

} // namespace

void lowering::populateCompositePatterns(PTOToAscendCTypes &types,
                                         RewritePatternSet &patterns,
                                         ValidShapes &valid) {
  patterns.add<BitwiseLowering<pto::TileAndOp, Bitwise::And>,
               BitwiseLowering<pto::TileOrOp, Bitwise::Or>,
               BitwiseLowering<pto::TileXorOp, Bitwise::Xor>,
               BitwiseLowering<pto::TileNotOp, Bitwise::Not>,
               BitwiseLowering<pto::TileAndSOp, Bitwise::And>,
               BitwiseLowering<pto::TileOrSOp, Bitwise::Or>,
               BitwiseLowering<pto::TileXorSOp, Bitwise::Xor>, NegLowering,
               RemLowering<pto::TileRemOp>, RemLowering<pto::TileRemSOp>,
               ShiftByTileLowering<pto::TileShlOp, true>,
               ShiftByTileLowering<pto::TileShrOp, false>>(
      types, patterns.getContext(), valid);
}
