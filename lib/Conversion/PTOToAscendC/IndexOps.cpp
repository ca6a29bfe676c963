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
//   pto.tile.row_cumsum  -> transpose, col_cumsum, transpose back: a
//                           prefix along a row would add one element of
//                           each row per instruction, which no Ascend C
//                           instruction does in one go
//   pto.tile.sort32      -> each element's column (create_vec_index and a
//                           broadcast), sort32 into (score, index) pairs,
//                           extract into the values and indices tiles
//   pto.tile.gather      -> the source and a block of zeros after it, each
//                           index clamped so that one outside the box reads
//                           a zero, times the element size, gather (Ascend
//                           C's Gather takes byte offsets)
//   pto.tile.scatter     -> the scalar unit walks the source's valid region
//                           (get_value, set_value in scf loops), so that the
//                           later of two writes wins as the op defines it
//   pto.tile.row_argmax  -> row_max, row_expand, cmp eq, iota, sels, row_min,
//   / row_argmin            cast, rems: the first column equal to the fold
//   pto.tile.mrgsort     -> mrg_sort of each two neighbouring runs of a row
//                           on the pairs its operands' sort left, extract;
//                           a merge of tiles no sort made here is refused
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

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
    int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
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
        rewriter, loc, viewOf(rewriter, loc, sums, 0, cols),
        viewOf(rewriter, loc, src, 0, cols),
        arith::ConstantOp::create(rewriter, loc, identity), Value());
    for (int64_t row = 1; row < rows; ++row)
      ascendc::AddL2Op::create(
          rewriter, loc, viewOf(rewriter, loc, sums, row * cols, cols),
          viewOf(rewriter, loc, sums, (row - 1) * cols, cols),
          viewOf(rewriter, loc, src, row * cols, cols), Value());
    if (narrowFloat)
      ascendc::CastL2Op::create(rewriter, loc, dst, sums,
                                ascendc::RoundMode::Rint, Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.row_cumsum: the column prefix sums of the transposed tile,
/// transposed back (Ascend C's Transpose for 16-bit elements in whole
/// 16 x 16 blocks, the scalar unit otherwise). Transposes move bits, and
/// the prefix of a row's column j reads columns up to j only, so the valid
/// region is the executor's to the bit. The column sums need the tile's
/// rows, turned into columns, to fill whole 32-byte blocks.
struct RowCumsumLowering : TilePattern<pto::TileRowCumsumOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileRowCumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
    if (rows * ascendc::getElementBytes(tile.getElementType()) %
        ascendc::kBlockBytes)
      return op.emitOpError()
             << "sums along the rows of " << tile
             << " as column sums of the transposed tile, whose rows (this "
                "tile's "
             << rows
             << " rows) must fill whole 32-byte blocks for the vector "
                "unit; give the tile a multiple of "
             << ascendc::kBlockBytes /
                    ascendc::getElementBytes(tile.getElementType())
             << " rows (its valid shape can stay smaller)";
    Location loc = op.getLoc();
    auto turned = cast<pto::TileType>(
        tile.cloneWith(ArrayRef<int64_t>{cols, rows}, tile.getElementType()));
    Value across =
        pto::TileTransposeOp::create(rewriter, loc, turned, op.getSrc());
    Value sums = pto::TileColCumsumOp::create(rewriter, loc, turned, across);
    Value back = pto::TileTransposeOp::create(rewriter, loc, tile, sums);
    // The result keeps the source's valid shape (the stores read it from
    // the op's own result).
    valid.inherit(op.getResult(), op.getSrc());
    rewriter.replaceOp(op, back);
    return success();
  }
};

/// pto.tile.row_argmax / row_argmin -> the fold of each row, expanded back
/// along it and compared with the row (eq), each column's number where it
/// holds and the column count elsewhere (iota, sels), the least of those
/// (row_min), as i32 and modulo the count: a row of NaN, where no column
/// equals its NaN, gets column 0, as the executor gives it. Floats only
/// (Ascend C's Compare takes half and float); the column numbers are exact
/// in f16 up to 2048.
template <typename From, typename Fold>
struct ArgReduceLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getSrc().getType());
    Type element = tile.getElementType();
    if (tile.getRank() != 2 || !(element.isF16() || element.isF32()) ||
        (element.isF16() && tile.getShape()[1] > 2048))
      return op.emitOpError()
             << "finds the column of each row's fold in " << tile
             << ", which is lowered for 2-d f16 (up to 2048 columns) and "
                "f32 tiles (Ascend C's Compare takes half and float); cast "
                "the tile to f32 first";
    FailureOr<ValidShape> known = this->valid.require(op, op.getSrc());
    if (failed(known))
      return failure();
    Location loc = op.getLoc();
    // Fewer valid columns than the tile's: the fold takes the valid ones,
    // the compare a copy whose padding holds the pad fillpad gives (the
    // compare reads whole rows). A padding column never comes first, as
    // the fold's value sits in a valid column before it.
    Value compared = op.getSrc();
    if (known->cols)
      compared = pto::TileFillPadOp::create(
          rewriter, loc, tile, op.getSrc(),
          std::is_same_v<Fold, pto::TileRowMaxOp> ? pto::PadValue::Min
                                                  : pto::PadValue::Max);
    auto floatType = cast<FloatType>(element);
    auto number = [&](double value) -> Value {
      return arith::ConstantOp::create(rewriter, loc, floatType,
                                       rewriter.getFloatAttr(floatType, value));
    };
    int64_t cols = tile.getShape()[1];
    Type values = op.getValues().getType(), indices = op.getIndices().getType();
    auto mask =
        cast<pto::TileType>(tile.cloneWith(std::nullopt, rewriter.getI1Type()));
    Value best = Fold::create(rewriter, loc, values, op.getSrc());
    Value across = pto::TileRowExpandOp::create(rewriter, loc, tile, best);
    Value same = pto::TileCmpOp::create(
        rewriter, loc, mask, pto::CmpPredicate::EQ, compared, across);
    Value columns = pto::TileIotaOp::create(rewriter, loc, tile, number(0));
    Value firstOrCount = pto::TileSelSOp::create(rewriter, loc, tile, same,
                                                 columns, number(cols));
    Value first =
        pto::TileRowMinOp::create(rewriter, loc, values, firstOrCount);
    Value asInt = pto::TileCastOp::create(
        rewriter, loc, indices, first,
        pto::RoundModeAttr::get(rewriter.getContext(), pto::RoundMode::Rint));
    Value count = arith::ConstantOp::create(
        rewriter, loc, rewriter.getI32IntegerAttr(static_cast<int32_t>(cols)));
    Value index = pto::TileRemSOp::create(rewriter, loc, indices, asInt, count);
    // Both results keep the source's valid rows, in their one column (the
    // stores read them from the op's own results).
    for (Value result : {op.getValues(), op.getIndices()}) {
      if (known->rows)
        this->valid.shapes[result] = ValidShape{known->rows, Value()};
      if (this->valid.unknown.contains(op.getSrc()))
        this->valid.unknown.insert(result);
    }
    rewriter.replaceOp(op, ValueRange{best, index});
    return success();
  }
};

/// The (score, index) pairs each sort result came from, keyed by the PTO
/// values and indices tiles of a sort32 or mrgsort: a merge takes its runs
/// from them (Ascend C has no instruction that pairs separate tiles).
using SortedPairs = llvm::DenseMap<Value, Value>;

/// Emits `emit(first, repeats)` over `blocks` blocks of 32 in calls of at
/// most ascendc::kMaxRepeats repeats each (32 pairs a repeat).
template <typename Emit> void inSortCalls(int64_t blocks, Emit emit) {
  for (int64_t first = 0; first < blocks; first += ascendc::kMaxRepeats)
    emit(first, std::min(ascendc::kMaxRepeats, blocks - first));
}

/// The f16 / f32 tile a sort takes, of whole 32-element blocks per row: an
/// error at `op` otherwise.
LogicalResult checkSortable(Operation *op, pto::TileType tile) {
  Type element = tile.getElementType();
  if (!element.isF16() && !element.isF32())
    return op->emitOpError()
           << "sorts " << element
           << ", which the vector unit's sorts take as f16 or f32 only; "
              "cast the tile first";
  if (tile.getRank() != 2 || tile.getShape()[1] % 32 != 0)
    return op->emitOpError() << "sorts a tile whose rows are not whole "
                                "blocks of 32 columns, which Ascend C's "
                                "sorts need";
  return success();
}

/// Extracts `pairs` into fresh tensors for `values` and `indices` (the PTO
/// results), records the pairs for both, and replaces `op` by them.
void extractInto(ConversionPatternRewriter &rewriter, Operation *op,
                 const TypeConverter &types, Value pairs, Value values,
                 Value indices, SortedPairs &sorted) {
  Location loc = op->getLoc();
  auto tile = cast<pto::TileType>(values.getType());
  int64_t elements = tile.getNumElements();
  int64_t slots = 8 / ascendc::getElementBytes(tile.getElementType());
  Value outValues =
      createLocal(rewriter, loc, types, values, ascendc::Position::VecCalc);
  Value outIndices =
      createLocal(rewriter, loc, types, indices, ascendc::Position::VecCalc);
  inSortCalls(elements / 32, [&](int64_t first, int64_t repeats) {
    ascendc::ExtractOp::create(
        rewriter, loc,
        viewOf(rewriter, loc, outValues, 32 * first, 32 * repeats),
        viewOf(rewriter, loc, outIndices, 32 * first, 32 * repeats),
        viewOf(rewriter, loc, pairs, 32 * first * slots, 32 * repeats * slots),
        repeats);
  });
  sorted[values] = pairs;
  sorted[indices] = pairs;
  rewriter.replaceOp(op, {outValues, outIndices});
}

/// pto.tile.sort32 -> the column index of every element (create_vec_index
/// and a broadcast), sort32 into pairs, extract.
struct Sort32Lowering : TilePattern<pto::TileSort32Op> {
  Sort32Lowering(const TypeConverter &types, MLIRContext *context,
                 ValidShapes &valid, std::shared_ptr<SortedPairs> sorted)
      : TilePattern(types, context, valid), sorted(std::move(sorted)) {}
  LogicalResult
  matchAndRewrite(pto::TileSort32Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getSrc().getType());
    if (failed(checkSortable(op, tile)))
      return failure();
    valid.inherit(op.getValues(), op.getSrc());
    valid.inherit(op.getIndices(), op.getSrc());
    Location loc = op.getLoc();
    int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
    Type element = tile.getElementType();
    int64_t slots = 8 / ascendc::getElementBytes(element);
    // Each element's column.
    Type i32 = rewriter.getI32Type();
    Value row = freshTensor(rewriter, loc, {1, cols}, i32, op);
    ascendc::CreateVecIndexL2Op::create(
        rewriter, loc, row,
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0)),
        Value());
    Value columns = row;
    if (rows > 1) {
      columns = freshTensor(rewriter, loc, {rows, cols}, i32, op);
      ascendc::BroadcastOp::create(rewriter, loc, columns, row, 0, Value());
    }
    Value pairs = freshTensor(rewriter, loc, {rows, cols * slots}, element, op);
    inSortCalls(rows * cols / 32, [&](int64_t first, int64_t repeats) {
      ascendc::Sort32Op::create(
          rewriter, loc,
          viewOf(rewriter, loc, pairs, 32 * first * slots,
                 32 * repeats * slots),
          viewOf(rewriter, loc, adaptor.getSrc(), 32 * first, 32 * repeats),
          viewOf(rewriter, loc, columns, 32 * first, 32 * repeats), repeats);
    });
    extractInto(rewriter, op, *getTypeConverter(), pairs, op.getValues(),
                op.getIndices(), *sorted);
    return success();
  }
  std::shared_ptr<SortedPairs> sorted;
};

/// pto.tile.mrgsort -> one mrg_sort of two runs per pair of runs of each
/// row, on the pairs the sort that made its operands left, then extract.
struct MrgSortLowering : TilePattern<pto::TileMrgSortOp> {
  MrgSortLowering(const TypeConverter &types, MLIRContext *context,
                  ValidShapes &valid, std::shared_ptr<SortedPairs> sorted)
      : TilePattern(types, context, valid), sorted(std::move(sorted)) {}
  LogicalResult
  matchAndRewrite(pto::TileMrgSortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getValues().getType());
    if (failed(checkSortable(op, tile)))
      return failure();
    Value pairs = sorted->lookup(op.getValues());
    if (!pairs || sorted->lookup(op.getIndices()) != pairs)
      return op.emitOpError()
             << "merges runs that no pto.tile.sort32 or mrgsort made here "
                "(values and indices of one), which is not lowered: Ascend "
                "C merges the (score, index) pairs a sort leaves";
    int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
    int64_t block = op.getBlock();
    FailureOr<ValidShape> shape = valid.require(op, op.getValues());
    if (failed(shape))
      return failure();
    std::optional<int64_t> validCols =
        shape->cols ? getConstantIntValue(shape->cols) : cols;
    if (cols % (2 * block) != 0 || !validCols || *validCols % (2 * block))
      return op.emitOpError()
             << "merges runs of " << block << " in rows of " << cols
             << " columns (" << (validCols ? Twine(*validCols) : Twine("some"))
             << " valid), which is lowered for rows of whole pairs of runs "
                "only: Ascend C's MrgSort merges two whole runs per call";
    valid.inherit(op.getSortedValues(), op.getValues());
    valid.inherit(op.getSortedIndices(), op.getValues());
    Location loc = op.getLoc();
    Type element = tile.getElementType();
    int64_t slots = 8 / ascendc::getElementBytes(element);
    Value merged =
        freshTensor(rewriter, loc, {rows, cols * slots}, element, op);
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t begin = 0; begin < cols; begin += 2 * block) {
        int64_t at = (row * cols + begin) * slots;
        ascendc::MrgSortOp::create(
            rewriter, loc, viewOf(rewriter, loc, merged, at, 2 * block * slots),
            viewOf(rewriter, loc, pairs, at, block * slots),
            viewOf(rewriter, loc, pairs, at + block * slots, block * slots),
            block);
      }
    extractInto(rewriter, op, *getTypeConverter(), merged, op.getSortedValues(),
                op.getSortedIndices(), *sorted);
    return success();
  }
  std::shared_ptr<SortedPairs> sorted;
};

/// pto.tile.gather: the source with a zero block after it, each index
/// clamped to [-1, n] and -1 sent to n (an index outside the box reads a
/// zero), times the element size (byte offsets), and Ascend C's Gather.
struct GatherLowering : TilePattern<pto::TileGatherOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcTile = cast<pto::TileType>(op.getSrc().getType());
    auto indexTile = cast<pto::TileType>(op.getIndices().getType());
    Type element = srcTile.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    if ((width != 16 && width != 32) || element.isUnsignedInteger())
      return op.emitOpError()
             << "gathers " << element
             << ", which Ascend C's Gather takes as 16- or 32-bit elements "
                "only; cast the tile first";
    valid.inherit(op.getResult(), op.getIndices());
    Location loc = op.getLoc();
    int64_t n = srcTile.getNumElements();
    int64_t bytes = width / 8;
    int64_t count = indexTile.getNumElements();
    // The source, then a block of zeros (exact copies: data_copy UB -> UB).
    int64_t padded = n + ascendc::kBlockBytes / bytes;
    Value extended = freshTensor(rewriter, loc, {padded}, element, op);
    TypedAttr zero = cast<TypedAttr>(rewriter.getZeroAttr(element));
    ascendc::DuplicateL2Op::create(
        rewriter, loc, extended, arith::ConstantOp::create(rewriter, loc, zero),
        Value());
    ascendc::DataCopyOp::create(rewriter, loc,
                                viewOf(rewriter, loc, extended, 0, n),
                                viewOf(rewriter, loc, adaptor.getSrc(), 0, n),
                                Value(), ValueRange(), ValueRange());
    // Byte offsets: u = clamp(i, -1, n), u - (u >> 31) * (n + 1) sends -1
    // to n, then << log2(bytes).
    Type i32 = rewriter.getI32Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(value));
    };
    Value index = viewOf(rewriter, loc, adaptor.getIndices(), 0, count);
    Value clamped = freshTensor(rewriter, loc, {count}, i32, op);
    Value sign = freshTensor(rewriter, loc, {count}, i32, op);
    ascendc::MaxsL2Op::create(rewriter, loc, clamped, index, constant(-1),
                              Value());
    ascendc::MinsL2Op::create(rewriter, loc, clamped, clamped, constant(n),
                              Value());
    ascendc::ShiftRightL2Op::create(rewriter, loc, sign, clamped, constant(31),
                                    Value());
    ascendc::MulsL2Op::create(rewriter, loc, sign, sign, constant(n + 1),
                              Value());
    ascendc::SubL2Op::create(rewriter, loc, clamped, clamped, sign, Value());
    ascendc::ShiftLeftL2Op::create(rewriter, loc, clamped, clamped,
                                   constant(llvm::Log2_64(bytes)), Value());
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    ascendc::GatherOp::create(
        rewriter, loc, viewOf(rewriter, loc, dst, 0, count), extended, clamped,
        arith::ConstantIndexOp::create(rewriter, loc, count));
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.scatter: the scalar unit walks the source's valid region in
/// row-major order and writes each element whose index names a row of the
/// target (get_value, set_value): the later of two writes to one place wins
/// and an index outside the target writes nothing, as the tile op defines
/// them (Ascend C's Scatter leaves the order of colliding writes open). In
/// place, as the result shares its target's storage.
struct ScatterLowering : TilePattern<pto::TileScatterOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = cast<pto::TileType>(op.getSrc().getType());
    auto dst = cast<pto::TileType>(op.getDst().getType());
    if (src.getRank() != 2 || dst.getRank() != 2)
      return op.emitOpError() << "scatters rank-" << src.getRank()
                              << " tiles, which is lowered for 2-d tiles";
    if (usedAfter(op.getDst(), op))
      return op.emitOpError()
             << "scatters into a tile that is used after it: the result "
                "shares its target's storage (it updates it in place), so "
                "the target's old value is gone; scatter into a copy";
    FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
    if (failed(shape))
      return failure();
    valid.inherit(op.getResult(), op.getDst());
    Location loc = op.getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    int64_t cols = src.getShape()[1], targetCols = dst.getShape()[1];
    Value rows = extentOr(rewriter, loc, shape->rows, src.getShape()[0]);
    Value validCols = extentOr(rewriter, loc, shape->cols, cols);
    Value zero = constant(0);
    Value target = adaptor.getDst();
    forEachElement(
        rewriter, loc, rows, validCols, cols, [&](Value, Value j, Value at) {
          Value row = arith::IndexCastOp::create(
              rewriter, loc, rewriter.getIndexType(),
              ascendc::GetValueOp::create(rewriter, loc, rewriter.getI32Type(),
                                          adaptor.getIndices(), at));
          Value element = ascendc::GetValueOp::create(
              rewriter, loc, src.getElementType(), adaptor.getSrc(), at);
          Value inside = arith::AndIOp::create(
              rewriter, loc,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                    row, zero),
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                    row, constant(dst.getShape()[0])));
          auto write = scf::IfOp::create(rewriter, loc, inside);
          rewriter.setInsertionPointToStart(&write.getThenRegion().front());
          ascendc::SetValueOp::create(
              rewriter, loc, target,
              arith::AddIOp::create(rewriter, loc,
                                    arith::MulIOp::create(rewriter, loc, row,
                                                          constant(targetCols)),
                                    j),
              element);
        });
    rewriter.replaceOp(op, target);
    return success();
  }
};

} // namespace

void lowering::forEachElement(
    OpBuilder &builder, Location loc, Value rows, Value cols, int64_t pitch,
    function_ref<void(Value row, Value col, Value at)> body) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto outer = scf::ForOp::create(builder, loc, zero, rows, one);
  builder.setInsertionPointToStart(outer.getBody());
  auto inner = scf::ForOp::create(builder, loc, zero, cols, one);
  builder.setInsertionPointToStart(inner.getBody());
  Value row = outer.getInductionVar(), col = inner.getInductionVar();
  Value at = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(
          builder, loc, row,
          arith::ConstantIndexOp::create(builder, loc, pitch)),
      col);
  body(row, col, at);
  builder.setInsertionPointAfter(outer);
}

void lowering::populateIndexPatterns(PTOToAscendCTypes &types,
                                     RewritePatternSet &patterns,
                                     ValidShapes &valid) {
  patterns.add<TileIotaLowering, ColCumsumLowering, RowCumsumLowering,
               GatherLowering, ScatterLowering,
               ArgReduceLowering<pto::TileRowArgmaxOp, pto::TileRowMaxOp>,
               ArgReduceLowering<pto::TileRowArgminOp, pto::TileRowMinOp>>(
      types, patterns.getContext(), valid);
  auto sorted = std::make_shared<SortedPairs>();
  patterns.add<Sort32Lowering, MrgSortLowering>(types, patterns.getContext(),
                                                valid, sorted);
}
