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
// data_copy; any other, or one at offsets known only at run time, is copied
// by the scalar unit element by element (get_value / set_value in a loop
// nest), as Ascend C kernels move unaligned data inside UB. 2-d vector
// tiles only.
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

/// Where a part of a 2-d vector tile starts (`row`, `col`; `constant`
/// holds them when the kernel fixes them), and whether the vector unit can
/// copy it: constant offsets whose `cols` columns start and end on 32-byte
/// blocks, in rows `widths` apart on either side that are whole blocks.
struct PartPlace {
  Value row, col;
  std::optional<std::pair<int64_t, int64_t>> constant;
  bool byBlocks;
};

PartPlace placePart(pto::TileType tile, ValueRange offsets,
                    ArrayRef<int64_t> widths, int64_t cols) {
  PartPlace place{offsets[0], offsets[1], std::nullopt, false};
  std::optional<int64_t> row = getConstantIntValue(offsets[0]);
  std::optional<int64_t> col = getConstantIntValue(offsets[1]);
  if (!row || !col)
    return place;
  place.constant = {*row, *col};
  int64_t bytes = ascendc::getElementBytes(tile.getElementType());
  place.byBlocks = *col * bytes % ascendc::kBlockBytes == 0 &&
                   cols * bytes % ascendc::kBlockBytes == 0;
  for (int64_t width : widths)
    place.byBlocks &= width * bytes % ascendc::kBlockBytes == 0;
  return place;
}

/// The scalar unit's copy of `rows` x `cols` elements from `src` at
/// [`srcRow`, `srcCol`] (rows `srcPitch` apart) into `dst` at [`dstRow`,
/// `dstCol`] (rows `dstPitch` apart): the form of a part the vector unit
/// cannot move in whole blocks, or at offsets known only at run time.
void copyByElements(OpBuilder &builder, Location loc, Value dst, Value dstRow,
                    Value dstCol, int64_t dstPitch, Value src, Value srcRow,
                    Value srcCol, int64_t srcPitch, Value rows, Value cols,
                    Type element) {
  auto offset = [&](Value row, Value col, Value firstRow, Value firstCol,
                    int64_t pitch) {
    return arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(
            builder, loc, arith::AddIOp::create(builder, loc, row, firstRow),
            arith::ConstantIndexOp::create(builder, loc, pitch)),
        arith::AddIOp::create(builder, loc, col, firstCol));
  };
  forEachElement(
      builder, loc, rows, cols, srcPitch, [&](Value row, Value col, Value) {
        Value value = ascendc::GetValueOp::create(
            builder, loc, element, src,
            offset(row, col, srcRow, srcCol, srcPitch));
        ascendc::SetValueOp::create(builder, loc, dst,
                                    offset(row, col, dstRow, dstCol, dstPitch),
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

/// How many of `extent` elements from `offset` lie in [0, `dim`): none
/// when `offset` or `other` (the part's other offset) is negative, which
/// the PTO run reports as an error, so that the machine's copy never
/// leaves the tile.
Value insideExtent(OpBuilder &builder, Location loc, Value offset, Value other,
                   int64_t dim, Value extent) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value room = clampIndex(
      builder, loc,
      builder.createOrFold<arith::SubIOp>(
          loc, arith::ConstantIndexOp::create(builder, loc, dim), offset),
      dim);
  Value negative = builder.createOrFold<arith::OrIOp>(
      loc,
      builder.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                          offset, zero),
      builder.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, other,
                                          zero));
  return builder.createOrFold<arith::SelectOp>(
      loc, negative, zero,
      builder.createOrFold<arith::MinSIOp>(loc, room, extent));
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
    int64_t height = src.getShape()[0], width = src.getShape()[1];
    int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
    std::optional<int64_t> column = getConstantIntValue(op.getOffsets()[1]);
    int64_t insideCols =
        column ? std::clamp<int64_t>(width - *column, 0, cols) : cols;
    PartPlace place =
        placePart(src, adaptor.getOffsets(), {width, cols}, insideCols);
    if (place.constant) {
      auto [row, col] = *place.constant;
      if (row < 0 || row >= height || col < 0 || col >= width)
        return op.emitOpError() << "slices at [" << row << ", " << col
                                << "], outside the source box " << src;
    }
    Location loc = op.getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    // The valid shape: the one given, else the part of the slice inside
    // the source's valid region.
    SmallVector<Value> extents(adaptor.getValidShape());
    if (extents.empty()) {
      FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
      if (failed(shape))
        return failure();
      Value srcRows = extentOr(rewriter, loc, shape->rows, height);
      Value srcCols = extentOr(rewriter, loc, shape->cols, width);
      extents = {clampIndex(rewriter, loc,
                            rewriter.createOrFold<arith::SubIOp>(loc, srcRows,
                                                                 place.row),
                            rows),
                 clampIndex(rewriter, loc,
                            rewriter.createOrFold<arith::SubIOp>(loc, srcCols,
                                                                 place.col),
                            cols)};
    }
    if (failed(valid.record(op, extents)))
      return failure();
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    Value insideRows = insideExtent(rewriter, loc, place.row, place.col, height,
                                    constant(rows));
    Value insideColumns = insideExtent(rewriter, loc, place.col, place.row,
                                       width, constant(cols));
    // The pad where part of the slice may lie past the source box.
    if (!place.constant || getConstantIntValue(insideRows) != rows ||
        insideCols < cols) {
      pto::PadValue pad = op.getPad().value_or(pto::PadValue::Zero);
      ascendc::DuplicateL2Op::create(
          rewriter, loc, dst,
          arith::ConstantOp::create(rewriter, loc,
                                    padAttr(tile.getElementType(), pad)),
          Value());
    }
    if (!place.byBlocks) {
      copyByElements(rewriter, loc, dst, constant(0), constant(0), cols,
                     adaptor.getSrc(), place.row, place.col, width, insideRows,
                     insideColumns, tile.getElementType());
      rewriter.replaceOp(op, dst);
      return success();
    }
    int64_t first = place.constant->first * width + place.constant->second;
    ascendc::DataCopyOp::create(rewriter, loc, dst,
                                viewOf(rewriter, loc, adaptor.getSrc(), first,
                                       src.getNumElements() - first),
                                Value(), ValueRange{insideRows, insideColumns},
                                ValueRange{constant(width), constant(cols)});
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
    int64_t height = dstTile.getShape()[0], width = dstTile.getShape()[1];
    std::optional<int64_t> constantCols =
        shape->cols ? getConstantIntValue(shape->cols) : src.getShape()[1];
    int64_t boxCols = constantCols.value_or(src.getShape()[1]);
    PartPlace place = placePart(dstTile, adaptor.getOffsets(),
                                {src.getShape()[1], width}, boxCols);
    place.byBlocks &= constantCols.has_value();
    if (usedAfter(op.getDst(), op))
      return op.emitOpError()
             << "writes into a tile that is used after it: the result shares "
                "its target's storage (it updates it in place), so the "
                "target's old value is gone; assemble into a copy";
    if (place.constant) {
      auto [row, col] = *place.constant;
      if (row < 0 || col < 0 || col + boxCols > width ||
          (!shape->rows && row + src.getShape()[0] > height))
        return op.emitOpError() << "writes the source at [" << row << ", "
                                << col << "], past the target box " << dstTile;
    }
    Location loc = op.getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value rows = extentOr(rewriter, loc, shape->rows, src.getShape()[0]);
    Value cols = extentOr(rewriter, loc, shape->cols, src.getShape()[1]);
    valid.inherit(op.getResult(), op.getDst());
    if (!place.byBlocks) {
      // At offsets known only at run time, the part of the valid region
      // inside the target (all of it, or the PTO run reports an error).
      if (!place.constant) {
        rows = insideExtent(rewriter, loc, place.row, place.col, height, rows);
        cols = insideExtent(rewriter, loc, place.col, place.row, width, cols);
      }
      copyByElements(rewriter, loc, adaptor.getDst(), place.row, place.col,
                     width, adaptor.getSrc(), constant(0), constant(0),
                     src.getShape()[1], rows, cols, src.getElementType());
      rewriter.replaceOp(op, adaptor.getDst());
      return success();
    }
    int64_t first = place.constant->first * width + place.constant->second;
    ascendc::DataCopyOp::create(
        rewriter, loc,
        viewOf(rewriter, loc, adaptor.getDst(), first,
               dstTile.getNumElements() - first),
        adaptor.getSrc(), Value(), ValueRange{rows, constant(boxCols)},
        ValueRange{constant(src.getShape()[1]), constant(width)});
    rewriter.replaceOp(op, adaptor.getDst());
    return success();
  }
};

/// pto.tile.transpose of 16-bit elements in whole 16 x 16 blocks: per
/// block, its rows into a contiguous block (data_copy UB -> UB, unless they
/// are one already), Ascend C's Transpose, and out to the mirrored block of
/// the result. Any other tile: the scalar unit moves each valid element
/// (Ascend C's Transpose takes nothing else).
struct TileTransposeLowering : TilePattern<pto::TileTransposeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = cast<pto::TileType>(op.getSrc().getType());
    if (src.getRank() != 2 || src.getElementType().isInteger(1))
      return op.emitOpError()
             << "transposes " << src
             << ", which is lowered for 2-d tiles of numbers (a mask is "
                "kept as bits)";
    int64_t rows = src.getShape()[0], cols = src.getShape()[1];
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
    if (ascendc::getElementBytes(src.getElementType()) != 2 || rows % 16 ||
        cols % 16) {
      // The valid region only: the scalar unit reads no padding, which may
      // be undefined (the result's padding stays unwritten).
      Value rowsIn = extentOr(rewriter, loc, shape->rows, rows);
      Value colsIn = extentOr(rewriter, loc, shape->cols, cols);
      Value height = arith::ConstantIndexOp::create(rewriter, loc, rows);
      forEachElement(
          rewriter, loc, rowsIn, colsIn, cols,
          [&](Value row, Value col, Value at) {
            Value element = ascendc::GetValueOp::create(
                rewriter, loc, src.getElementType(), adaptor.getSrc(), at);
            Value mirrored = arith::AddIOp::create(
                rewriter, loc,
                arith::MulIOp::create(rewriter, loc, col, height), row);
            ascendc::SetValueOp::create(rewriter, loc, dst, mirrored, element);
          });
      rewriter.replaceOp(op, dst);
      return success();
    }
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
