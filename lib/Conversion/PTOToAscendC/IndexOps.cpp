//===- IndexOps.cpp - Index sequences and prefix sums to AscendC ----------===//
//
//   pto.tile.iota        -> create_vec_index_l2 of one row (Ascend C's
//                           CreateVecIndex), descending as 0, 1, ... negated
//                           and offset by the start; f16 through f32 (one
//                           rounding, as the executor's); then a broadcast
//                           of the row down the tile
//   pto.tile.col_cumsum  -> one add per row: row i of the result is row
//                           i - 1 of it plus row i of the source, row 0 the
//                           source's plus the additive identity (-0 for
//                           floats, which keeps a -0); 16-bit floats sum in
//                           f32 and round each prefix once, as the executor
//
// A prefix sum along rows (row_cumsum) would add columns, one element of
// each row per instruction, which no Ascend C instruction does in one go;
// it stays refused with a hint (Legality.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

/// A fresh VECCALC tensor of `shape` and `element`, of `laneOf`'s lane.
Value freshTensor(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
                  Type element, Operation *laneOf) {
  Value fresh = ascendc::LocalTensorAutoOp::create(
      builder, loc,
      ascendc::LocalTensorType::get(builder.getContext(), shape, element),
      ascendc::Position::VecCalc, false, false);
  markLane(fresh, laneOf);
  return fresh;
}

/// Row `row` of the 2-d `tensor` as a 1 x C view.
Value rowOf(OpBuilder &builder, Location loc, Value tensor, int64_t row) {
  auto type = cast<ascendc::LocalTensorType>(tensor.getType());
  int64_t cols = type.getShape().back();
  auto view = ascendc::LocalTensorType::get(builder.getContext(), {1, cols},
                                            type.getElementType());
  return ascendc::ReinterpretCastOp::create(
      builder, loc, view, tensor,
      arith::ConstantIndexOp::create(builder, loc, row * cols));
}

/// `value` as `type` (a float constant or a float widened exactly).
Value widened(OpBuilder &builder, Location loc, Value value, FloatType type) {
  if (value.getType() == type)
    return value;
  return arith::ExtFOp::create(builder, loc, type, value);
}

/// An error at `op` unless the rows of its `tile` start on 32-byte
/// boundaries, which a vector instruction's operand needs.
LogicalResult checkRowsAligned(Operation *op, pto::TileType tile,
                               StringRef what) {
  int64_t rowBytes =
      tile.getShape().back() * ascendc::getElementBytes(tile.getElementType());
  if (rowBytes % ascendc::kBlockBytes == 0)
    return success();
  return op->emitOpError() << what << " rows of " << rowBytes
                           << " bytes, which do not start on the 32-byte "
                              "boundaries a vector instruction's operand "
                              "needs; pad the tile's columns";
}

struct TileIotaLowering : TilePattern<pto::TileIotaOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileIotaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    Type element = tile.getElementType();
    if (tile.getRank() > 2)
      return op.emitOpError() << "fills a tile of rank " << tile.getRank()
                              << ", which is lowered for 1-d and 2-d tiles";
    if (element.isUnsignedInteger())
      return op.emitOpError()
             << "fills " << element
             << ", which Ascend C's CreateVecIndex does not take (int16, "
                "int32, half, float); fill a signed tile and cast it";
    if (failed(checkRowsAligned(op, tile, "fills")))
      return failure();
    Location loc = op.getLoc();
    int64_t cols = tile.getShape().back();
    int64_t rows = tile.getNumElements() / cols;
    // The sequence is made in f32 for f16 (exact below 2^24) and rounded
    // once by the cast, as the executor rounds start + j.
    Type inner = element.isF16() ? Type(rewriter.getF32Type()) : element;
    Value row = freshTensor(rewriter, loc, {1, cols}, inner, op);
    Value start = adaptor.getStart();
    if (auto real = dyn_cast<FloatType>(inner))
      start = widened(rewriter, loc, start, real);
    auto constant = [&](int64_t value) -> Value {
      TypedAttr attr = isa<FloatType>(inner)
                           ? TypedAttr(rewriter.getFloatAttr(inner, value))
                           : TypedAttr(rewriter.getIntegerAttr(inner, value));
      return arith::ConstantOp::create(rewriter, loc, attr);
    };
    if (!op.getDescending()) {
      ascendc::CreateVecIndexL2Op::create(rewriter, loc, row, start, Value());
    } else {
      // start - j = start + (-j): -j is exact, and one rounding follows.
      ascendc::CreateVecIndexL2Op::create(rewriter, loc, row, constant(0),
                                          Value());
      ascendc::MulsL2Op::create(rewriter, loc, row, row, constant(-1), Value());
      ascendc::AddsL2Op::create(rewriter, loc, row, row, start, Value());
    }
    if (inner != element) {
      Value narrow = freshTensor(rewriter, loc, {1, cols}, element, op);
      ascendc::CastL2Op::create(rewriter, loc, narrow, row,
                                ascendc::RoundMode::Rint, Value());
      row = narrow;
    }
    auto resultType = cast<ascendc::LocalTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Value result;
    if (rows == 1) {
      result = resultType == row.getType() ? row
                                           : ascendc::ReinterpretCastOp::create(
                                                 rewriter, loc, resultType, row)
                                                 .getResult();
    } else {
      result = freshTensor(rewriter, loc, resultType.getShape(), element, op);
      ascendc::BroadcastOp::create(rewriter, loc, result, row, 0, Value());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ColCumsumLowering : TilePattern<pto::TileColCumsumOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileColCumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    Type element = tile.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    bool narrowFloat = isa<FloatType>(element) && width == 16;
    if (!isa<FloatType>(element) &&
        (element.isUnsignedInteger() || (width != 16 && width != 32)))
      return op.emitOpError()
             << "sums " << element
             << ", which Ascend C's Add does not take (int16, int32, half, "
                "bfloat16 through f32, float); cast the tile first";
    if (failed(checkRowsAligned(op, tile, "sums")))
      return failure();
    valid.inherit(op.getResult(), op.getSrc());
    Location loc = op.getLoc();
    int64_t rows = tile.getShape()[0];
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    // 16-bit floats: the prefixes in f32, each rounded once at the end.
    Value src = adaptor.getSrc(), sums = dst;
    Type inner = element;
    if (narrowFloat) {
      inner = rewriter.getF32Type();
      src = freshTensor(rewriter, loc, tile.getShape(), inner, op);
      ascendc::CastL2Op::create(rewriter, loc, src, adaptor.getSrc(),
                                ascendc::RoundMode::None, Value());
      sums = freshTensor(rewriter, loc, tile.getShape(), inner, op);
    }
    // Every row of the box: rows past the valid ones are never stored.
    TypedAttr identity = isa<FloatType>(inner)
                             ? TypedAttr(rewriter.getFloatAttr(inner, -0.0))
                             : TypedAttr(rewriter.getIntegerAttr(inner, 0));
    ascendc::AddsL2Op::create(
        rewriter, loc, rowOf(rewriter, loc, sums, 0),
        rowOf(rewriter, loc, src, 0),
        arith::ConstantOp::create(rewriter, loc, identity), Value());
    for (int64_t row = 1; row < rows; ++row)
      ascendc::AddL2Op::create(rewriter, loc, rowOf(rewriter, loc, sums, row),
                               rowOf(rewriter, loc, sums, row - 1),
                               rowOf(rewriter, loc, src, row), Value());
    if (narrowFloat)
      ascendc::CastL2Op::create(rewriter, loc, dst, sums,
                                ascendc::RoundMode::Rint, Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

} // namespace

void lowering::populateIndexPatterns(PTOToAscendCTypes &types,
                                     RewritePatternSet &patterns,
                                     ValidShapes &valid) {
  patterns.add<TileIotaLowering, ColCumsumLowering>(
      types, patterns.getContext(), valid);
}
