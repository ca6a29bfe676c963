//===- Regions.cpp - Parts, elements and transposes of vector tiles -------===//
//
//   pto.tile.slice %t[r, c]      -> a fresh tensor, duplicate_l2 of the pad
//                                   when part of the slice lies past the
//                                   source box, then data_copy (UB -> UB) of
//                                   the part inside, a window of rows
//   pto.tile.assemble %s into %d[r, c]
//                                -> data_copy (UB -> UB) of %s's valid
//                                   region into %d's tensor at the offset:
//                                   in place, as the op's result shares its
//                                   target's storage
//
//   pto.tile.transpose (16-bit elements, 16 x 16 blocks)
//                                -> per block: data_copy of its rows into a
//                                   contiguous block, transpose (Ascend C's
//                                   Transpose of 16 x 16), data_copy out to
//                                   the mirrored block
//
//   pto.tile.read / write  -> get_value / set_value (Ascend C's GetValue /
//                             SetValue, on the scalar unit) at the
//                             element's row-major index; a write in place
//
// The vector unit copies whole 32-byte blocks: a part whose columns start
// and end on block boundaries (in rows of whole blocks on both sides) is a
// data_copy; any other is copied by the scalar unit element by element
// (get_value / set_value in a loop nest), as Ascend C kernels move
// unaligned data inside UB. Offsets are constants; 2-d vector tiles only.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

/// An error at `op` unless `tile` is a 2-d vector tile.
LogicalResult requireVector2d(Operation *op, pto::TileType tile) {
  if (tile.getRank() == 2 && tile.getMemorySpace() == pto::MemorySpace::Vec)
    return success();
  return op->emitOpError() << "takes a part of " << tile
                           << ", which is lowered for 2-d vector tiles";
}

/// Where a part of a 2-d vector tile starts, and whether the vector unit
/// can copy it: its `cols` columns from `col` start and end on 32-byte
/// blocks, in rows `widths` apart on either side that are whole blocks.
struct PartPlace {
  int64_t row, col;
  bool byBlocks;
};

/// The constant offsets of `op` into a 2-d vector tile `tile`: an error at
/// `op` otherwise.
FailureOr<PartPlace> placePart(Operation *op, pto::TileType tile,
                               ValueRange offsets, ArrayRef<int64_t> widths,
                               int64_t cols) {
  if (failed(requireVector2d(op, tile)))
    return failure();
  SmallVector<int64_t, 2> constants;
  for (Value offset : offsets) {
    std::optional<int64_t> constant = getConstantIntValue(offset);
    if (!constant)
      return op->emitOpError()
             << "is at an offset known only at run time, which is not "
                "lowered: the kernel's copies inside UB start at addresses "
                "it fixes; use constant offsets, or load the part from GM";
    constants.push_back(*constant);
  }
  int64_t bytes = ascendc::getElementBytes(tile.getElementType());
  bool byBlocks = constants[1] * bytes % ascendc::kBlockBytes == 0 &&
                  cols * bytes % ascendc::kBlockBytes == 0;
  for (int64_t width : widths)
    byBlocks &= width * bytes % ascendc::kBlockBytes == 0;
  return PartPlace{constants[0], constants[1], byBlocks};
}

/// The scalar unit's copy of `rows` x `cols` elements from `src` (rows
/// `srcPitch` apart, from element `srcFirst`) into `dst` (rows `dstPitch`
/// apart, from `dstFirst`): the form of a part the vector unit cannot move
/// in whole blocks.
void copyByElements(OpBuilder &builder, Location loc, Value dst,
                    int64_t dstFirst, int64_t dstPitch, Value src,
                    int64_t srcFirst, int64_t srcPitch, Value rows,
                    Value cols, Type element) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  auto offset = [&](Value row, Value col, int64_t first, int64_t pitch) {
    return arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, row, constant(pitch)),
        arith::AddIOp::create(builder, loc, col, constant(first)));
  };
  forEachElement(builder, loc, rows, cols, srcPitch,
                 [&](Value row, Value col, Value) {
                   Value value = ascendc::GetValueOp::create(
                       builder, loc, element, src,
                       offset(row, col, srcFirst, srcPitch));
                   ascendc::SetValueOp::create(
                       builder, loc, dst, offset(row, col, dstFirst, dstPitch),
                       value);
                 });
}

/// min(max(value, 0), bound), folded where constant.
Value clampIndex(OpBuilder &builder, Location loc, Value value, int64_t bound) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value limit = arith::ConstantIndexOp::create(builder, loc, bound);
  return builder.createOrFold<arith::MinSIOp>(
      loc, builder.createOrFold<arith::MaxSIOp>(loc, value, zero), limit);
}

struct TileSliceLowering : TilePattern<pto::TileSliceOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = cast<pto::TileType>(op.getSrc().getType());
    auto tile = cast<pto::TileType>(op.getType());
    if (failed(requireVector2d(op, src)))
      return failure();
    int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
    std::optional<int64_t> column = getConstantIntValue(op.getOffsets()[1]);
    int64_t insideCols =
        column ? std::clamp<int64_t>(src.getShape()[1] - *column, 0, cols)
               : cols;
    FailureOr<PartPlace> place = placePart(
        op, src, op.getOffsets(), {src.getShape()[1], cols}, insideCols);
    if (failed(place))
      return failure();
    auto [row, col] = std::make_pair(place->row, place->col);
    if (row < 0 || row >= src.getShape()[0] || col < 0 ||
        col >= src.getShape()[1])
      return op.emitOpError() << "slices at [" << row << ", " << col
                              << "], outside the source box " << src;
    int64_t insideRows = std::min(rows, src.getShape()[0] - row);
    Location loc = op.getLoc();
    // The valid shape: the one given, else the part of the slice inside
    // the source's valid region.
    SmallVector<Value> extents(adaptor.getValidShape());
    if (extents.empty()) {
      FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
      if (failed(shape))
        return failure();
      Value srcRows = extentOr(rewriter, loc, shape->rows, src.getShape()[0]);
      Value srcCols = extentOr(rewriter, loc, shape->cols, src.getShape()[1]);
      extents = {
          clampIndex(rewriter, loc,
                     rewriter.createOrFold<arith::SubIOp>(
                         loc, srcRows,
                         arith::ConstantIndexOp::create(rewriter, loc, row)),
                     rows),
          clampIndex(rewriter, loc,
                     rewriter.createOrFold<arith::SubIOp>(
                         loc, srcCols,
                         arith::ConstantIndexOp::create(rewriter, loc, col)),
                     cols)};
    }
    if (failed(valid.record(op, extents)))
      return failure();
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    int64_t first = row * src.getShape()[1] + col;
    if (insideRows < rows || insideCols < cols) {
      pto::PadValue pad = op.getPad().value_or(pto::PadValue::Zero);
      ascendc::DuplicateL2Op::create(
          rewriter, loc, dst,
          arith::ConstantOp::create(rewriter, loc,
                                    padAttr(tile.getElementType(), pad)),
          Value());
    }
    if (!place->byBlocks) {
      copyByElements(rewriter, loc, dst, 0, cols, adaptor.getSrc(), first,
                     src.getShape()[1],
                     arith::ConstantIndexOp::create(rewriter, loc, insideRows),
                     arith::ConstantIndexOp::create(rewriter, loc, insideCols),
                     tile.getElementType());
      rewriter.replaceOp(op, dst);
      return success();
    }
    ascendc::DataCopyOp::create(
        rewriter, loc, dst,
        viewOf(rewriter, loc, adaptor.getSrc(), first,
               src.getNumElements() - first),
        Value(),
        ValueRange{arith::ConstantIndexOp::create(rewriter, loc, insideRows),
                   arith::ConstantIndexOp::create(rewriter, loc, insideCols)},
        ValueRange{
            arith::ConstantIndexOp::create(rewriter, loc, src.getShape()[1]),
            arith::ConstantIndexOp::create(rewriter, loc, cols)});
    rewriter.replaceOp(op, dst);
    return success();
  }
};

struct TileAssembleLowering : TilePattern<pto::TileAssembleOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileAssembleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = cast<pto::TileType>(op.getSrc().getType());
    auto dstTile = cast<pto::TileType>(op.getDst().getType());
    if (failed(requireVector2d(op, dstTile)))
      return failure();
    FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
    if (failed(shape))
      return failure();
    // Valid columns known only at run time are copied element by element,
    // as many as the source's box holds at most.
    std::optional<int64_t> constantCols =
        shape->cols ? getConstantIntValue(shape->cols) : src.getShape()[1];
    int64_t boxCols = constantCols.value_or(src.getShape()[1]);
    FailureOr<PartPlace> place =
        placePart(op, dstTile, op.getOffsets(),
                  {src.getShape()[1], dstTile.getShape()[1]}, boxCols);
    if (failed(place))
      return failure();
    if (usedAfter(op.getDst(), op))
      return op.emitOpError()
             << "writes into a tile that is used after it: the result shares "
                "its target's storage (it updates it in place), so the "
                "target's old value is gone; assemble into a copy";
    auto [row, col] = std::make_pair(place->row, place->col);
    Location loc = op.getLoc();
    Value rows = extentOr(rewriter, loc, shape->rows, src.getShape()[0]);
    Value cols = extentOr(rewriter, loc, shape->cols, src.getShape()[1]);
    if (row < 0 || col < 0 || col + boxCols > dstTile.getShape()[1] ||
        (!shape->rows && row + src.getShape()[0] > dstTile.getShape()[0]))
      return op.emitOpError() << "writes the source at [" << row << ", " << col
                              << "], past the target box " << dstTile;
    valid.inherit(op.getResult(), op.getDst());
    int64_t first = row * dstTile.getShape()[1] + col;
    if (!place->byBlocks || !constantCols) {
      copyByElements(rewriter, loc, adaptor.getDst(), first,
                     dstTile.getShape()[1], adaptor.getSrc(), 0,
                     src.getShape()[1], rows, cols, src.getElementType());
      rewriter.replaceOp(op, adaptor.getDst());
      return success();
    }
    ascendc::DataCopyOp::create(
        rewriter, loc,
        viewOf(rewriter, loc, adaptor.getDst(), first,
               dstTile.getNumElements() - first),
        adaptor.getSrc(), Value(),
        ValueRange{rows,
                   arith::ConstantIndexOp::create(rewriter, loc, boxCols)},
        ValueRange{
            arith::ConstantIndexOp::create(rewriter, loc, src.getShape()[1]),
            arith::ConstantIndexOp::create(rewriter, loc,
                                           dstTile.getShape()[1])});
    rewriter.replaceOp(op, adaptor.getDst());
    return success();
  }
};

/// pto.tile.transpose of 16-bit elements: per 16 x 16 block, its rows into
/// a contiguous block (data_copy UB -> UB, unless they are one already),
/// Ascend C's Transpose, and out to the mirrored block of the result.
struct TileTransposeLowering : TilePattern<pto::TileTransposeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = cast<pto::TileType>(op.getSrc().getType());
    int64_t rows = src.getShape()[0], cols = src.getShape()[1];
    if (ascendc::getElementBytes(src.getElementType()) != 2 || rows % 16 ||
        cols % 16)
      return op.emitOpError()
             << "transposes " << src
             << ", which is lowered for 16-bit elements in whole 16 x 16 "
                "blocks (Ascend C's Transpose); on the cube, swap the "
                "operands of pto.tile.matmul instead ((A B)^T = B^T A^T)";
    FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
    if (failed(shape))
      return failure();
    Location loc = op.getLoc();
    // The result's valid shape is the source's, swapped.
    if (shape->rows || shape->cols)
      valid.shapes[op.getResult()] = ValidShape{
          extentOr(rewriter, loc, shape->cols, cols),
          shape->rows ? shape->rows
                      : arith::ConstantIndexOp::create(rewriter, loc, rows)
                            .getResult()};
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    // Every 16-bit type as int16: the instruction moves bits.
    auto blockType = ascendc::LocalTensorType::get(
        rewriter.getContext(), {16, 16}, rewriter.getIntegerType(16));
    auto asWords = [&](Value tensor, int64_t offset) -> Value {
      return ascendc::ReinterpretCastOp::create(
          rewriter, loc,
          ascendc::LocalTensorType::get(
              rewriter.getContext(),
              {cast<ascendc::LocalTensorType>(tensor.getType())
                   .getNumElements() -
               offset},
              rewriter.getIntegerType(16)),
          tensor, arith::ConstantIndexOp::create(rewriter, loc, offset));
    };
    auto sixteen = [&]() -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, 16);
    };
    auto copyBlock = [&](Value to, Value from, int64_t fromStride,
                         int64_t toStride) {
      ascendc::DataCopyOp::create(
          rewriter, loc, to, from, Value(), ValueRange{sixteen(), sixteen()},
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, fromStride),
                     arith::ConstantIndexOp::create(rewriter, loc, toStride)});
    };
    for (int64_t bi = 0; bi < rows / 16; ++bi)
      for (int64_t bj = 0; bj < cols / 16; ++bj) {
        Value in = asWords(adaptor.getSrc(), bi * 16 * cols + bj * 16);
        Value block = in;
        if (cols != 16) {
          block = freshTensor(rewriter, loc, {16, 16},
                              rewriter.getIntegerType(16), op);
          copyBlock(block, in, cols, 16);
        } else {
          block =
              ascendc::ReinterpretCastOp::create(rewriter, loc, blockType, in);
        }
        Value out = asWords(dst, bj * 16 * rows + bi * 16);
        if (rows == 16) {
          ascendc::TransposeOp::create(
              rewriter, loc,
              ascendc::ReinterpretCastOp::create(rewriter, loc, blockType, out),
              block);
          continue;
        }
        Value turned = freshTensor(rewriter, loc, {16, 16},
                                   rewriter.getIntegerType(16), op);
        ascendc::TransposeOp::create(rewriter, loc, turned, block);
        copyBlock(out, turned, 16, rows);
      }
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// The linear element index of `indices` in `tile` (row-major).
Value linearIndex(OpBuilder &builder, Location loc, pto::TileType tile,
                  ValueRange indices) {
  Value at = indices.front();
  for (auto [index, extent] :
       llvm::zip(indices.drop_front(), tile.getShape().drop_front()))
    at = builder.createOrFold<arith::AddIOp>(
        loc,
        builder.createOrFold<arith::MulIOp>(
            loc, at, arith::ConstantIndexOp::create(builder, loc, extent)),
        index);
  return at;
}

/// pto.tile.read -> get_value on the scalar unit (the synchronization
/// passes order it after the vector unit's writes).
struct TileReadLowering : TilePattern<pto::TileReadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getSrc().getType());
    if (tile.getMemorySpace() != pto::MemorySpace::Vec)
      return op.emitOpError()
             << "reads an element of a " << stringifyEnum(tile.getMemorySpace())
             << " tile, which the scalar unit reads in UB "
                "only; move the tile to a vector tile";
    rewriter.replaceOpWithNewOp<ascendc::GetValueOp>(
        op, op.getType(), adaptor.getSrc(),
        linearIndex(rewriter, op.getLoc(), tile, adaptor.getIndices()));
    return success();
  }
};

/// pto.tile.write -> set_value into the target's tensor: in place, as the
/// result shares its target's storage.
struct TileWriteLowering : TilePattern<pto::TileWriteOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileWriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getDst().getType());
    if (tile.getMemorySpace() != pto::MemorySpace::Vec)
      return op.emitOpError() << "writes an element of a "
                              << stringifyEnum(tile.getMemorySpace())
                              << " tile, which the scalar unit writes in UB "
                                 "only";
    if (usedAfter(op.getDst(), op))
      return op.emitOpError()
             << "writes into a tile that is used after it: the result shares "
                "its target's storage (it updates it in place), so the "
                "target's old value is gone; write into a copy";
    valid.inherit(op.getResult(), op.getDst());
    ascendc::SetValueOp::create(
        rewriter, op.getLoc(), adaptor.getDst(),
        linearIndex(rewriter, op.getLoc(), tile, adaptor.getIndices()),
        adaptor.getValue());
    rewriter.replaceOp(op, adaptor.getDst());
    return success();
  }
};

} // namespace

void lowering::populateRegionPatterns(PTOToAscendCTypes &types,
                                      RewritePatternSet &patterns,
                                      ValidShapes &valid) {
  patterns.add<TileSliceLowering, TileAssembleLowering, TileTransposeLowering,
               TileReadLowering, TileWriteLowering>(
      types, patterns.getContext(), valid);
}
