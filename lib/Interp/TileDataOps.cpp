//===- TileDataOps.cpp - Tile data movement in the executor ---------------===//
//
// Loads, stores, slices, assembles and the other ops that move tile data
// or change its metadata, with the valid-shape rules of docs/guide.md:
// loads zero-pad and clamp to the data present, stores write only the valid
// region, slices keep their requested shape past the edge.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "Indexing.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

/// Copies element `from` of `src` to element `to` of `dst`, converting and
/// rounding to the destination kind.
static void copyElement(const ArrayData &src, size_t from, ArrayData &dst,
                        size_t to) {
  if (isFloatKind(src.kind) && src.kind == dst.kind)
    dst.floats[to] = src.floats[from];
  else if (!isFloatKind(src.kind) && src.kind == dst.kind)
    dst.ints[to] = src.ints[from];
  else
    dst.set(to, src.get(from));
}

/// Copies `count` consecutive elements, converting when the kinds differ.
static void copyRun(const ArrayData &src, size_t from, ArrayData &dst,
                    size_t to, int64_t count) {
  if (src.kind == dst.kind && isFloatKind(src.kind)) {
    std::copy_n(src.floats.begin() + from, count, dst.floats.begin() + to);
  } else if (src.kind == dst.kind) {
    std::copy_n(src.ints.begin() + from, count, dst.ints.begin() + to);
  } else if (isFloatKind(src.kind) && isFloatKind(dst.kind)) {
    float *out = dst.floats.data() + to;
    std::copy_n(src.floats.begin() + from, count, out);
    roundFloats(dst.kind, out, count);
  } else {
    for (int64_t i = 0; i < count; ++i)
      copyElement(src, from + i, dst, to + i);
  }
}

/// Visits each run along the last dimension of the leading `extent`
/// region: `fn(index of the run's first element, run length)`.
template <typename Fn> static void forEachRun(ArrayRef<int64_t> extent, Fn fn) {
  if (extent.empty() || extent.back() <= 0)
    return;
  forEachIndex(extent.drop_back(), [&](ArrayRef<int64_t> prefix) {
    SmallVector<int64_t, 4> index(prefix.begin(), prefix.end());
    index.push_back(0);
    fn(ArrayRef<int64_t>(index), extent.back());
  });
}

/// The valid shape given by `operands`, or the whole box.
static FailureOr<SmallVector<int64_t, 2>> validFrom(ExecContext &context,
                                                    Operation *op,
                                                    ValueRange operands,
                                                    ArrayRef<int64_t> box) {
  SmallVector<int64_t, 2> valid(box.begin(), box.end());
  if (!operands.empty())
    valid.assign(context.indices(operands));
  if (failed(checkValidShape(op, valid, box)))
    return failure();
  return valid;
}

static LogicalResult runLoad(ExecContext &context, Operation *raw) {
  auto op = cast<TileLoadOp>(raw);
  TensorValue &src = context.tensor(op.getSrc());
  auto type = cast<TileType>(op.getResult().getType());
  SmallVector<int64_t, 4> offsets = context.indices(op.getOffsets());
  FailureOr<SmallVector<int64_t, 2>> requested =
      validFrom(context, op, op.getValidShape(), type.getShape());
  if (failed(requested))
    return failure();
  int64_t lead = static_cast<int64_t>(src.shape.size()) - type.getRank();
  // The box may reach past the tensor (the tail is clamped); its start may
  // not.
  for (auto [offset, limit] : llvm::zip(offsets, src.valid)) {
    if (offset < 0 || offset >= limit)
      return op.emitOpError()
             << "offset " << formatShape(offsets)
             << " is outside the tensor of shape " << formatShape(src.valid);
  }
  // Clamp the valid region to the data present in the tensor.
  TileValue tile = makeTile(type, kindOf(type));
  for (int64_t d = 0; d < type.getRank(); ++d)
    tile.valid[d] = std::clamp<int64_t>(src.valid[lead + d] - offsets[lead + d],
                                        0, (*requested)[d]);
  forEachRunPair(tile.valid, linearIndex(src.shape, offsets),
                 trailingStrides(src.shape, type.getRank()), 0,
                 trailingStrides(type.getShape(), type.getRank()),
                 [&](int64_t from, int64_t to, int64_t length) {
                   copyRun(src.storage->data, from, *tile.data, to, length);
                 });
  // The padding is undefined on the machine (zero by default).
  if (context.getInterpreter().getOptions().undefined == UndefinedData::NaN)
    fillUndefined(tile, tile.valid);
  context.set(op.getResult(), std::move(tile));
  return success();
}

static LogicalResult runStore(ExecContext &context, Operation *raw) {
  auto op = cast<TileStoreOp>(raw);
  TileValue tile = context.tile(op.getTile());
  TensorValue dst = context.tensor(op.getDst());
  SmallVector<int64_t, 4> offsets = context.indices(op.getOffsets());
  int64_t lead = static_cast<int64_t>(dst.shape.size()) - tile.type.getRank();
  for (size_t d = 0; d < offsets.size(); ++d) {
    int64_t extent = static_cast<int64_t>(d) < lead ? 1 : tile.valid[d - lead];
    // Subtracted, not added: an offset near 2^63 must not overflow.
    if (offsets[d] < 0 || (extent > 0 && extent > dst.shape[d] - offsets[d]))
      return op.emitOpError()
             << "writes the valid region " << formatShape(tile.valid)
             << " at offset " << formatShape(offsets)
             << ", past the end of the tensor of shape "
             << formatShape(dst.shape);
  }
  ArrayData &out = dst.storage->data;
  bool atomicAdd = op.getAtomicAdd();
  int64_t rank = tile.type.getRank();
  forEachRunPair(tile.valid, 0, trailingStrides(tile.shape(), rank),
                 linearIndex(dst.shape, offsets),
                 trailingStrides(dst.shape, rank),
                 [&](int64_t from, int64_t to, int64_t length) {
                   if (!atomicAdd) {
                     copyRun(*tile.data, from, out, to, length);
                     return;
                   }
                   for (int64_t i = 0; i < length; ++i)
                     out.accumulate(to + i, *tile.data, from + i);
                 });
  context.set(op.getResult(), dst);
  return success();
}

/// A new zero-filled tile of `op`'s result type with the valid shape its
/// operands give (the whole box when they are absent).
template <typename OpT>
static FailureOr<TileValue> createTile(ExecContext &context, OpT op) {
  auto type = cast<TileType>(op.getResult().getType());
  FailureOr<SmallVector<int64_t, 2>> valid =
      validFrom(context, op, op.getValidShape(), type.getShape());
  if (failed(valid))
    return failure();
  TileValue tile = makeTile(type, kindOf(type));
  tile.valid = *valid;
  return tile;
}

static LogicalResult runCreate(ExecContext &context, Operation *raw) {
  auto op = cast<TileCreateOp>(raw);
  // The machine leaves the contents undefined: zeros by default, NaN under
  // --undefined=nan; an addressed tile holds whatever its bytes hold.
  FailureOr<TileValue> tile = createTile(context, op);
  if (failed(tile))
    return failure();
  if (context.getInterpreter().getOptions().undefined == UndefinedData::NaN)
    fillUndefined(*tile, {});
  context.set(op.getResult(), std::move(*tile), /*writeBytes=*/false);
  return success();
}

static LogicalResult runFull(ExecContext &context, Operation *raw) {
  auto op = cast<TileFullOp>(raw);
  FailureOr<TileValue> tile = createTile(context, op);
  if (failed(tile))
    return failure();
  tile->data->fill(context.scalar(op.getValue()));
  context.set(op.getResult(), std::move(*tile));
  return success();
}

/// `src`'s elements converted to `type`, keeping the valid shape: shared
/// when the kind stays (tiles are values; an op that updates one copies
/// it unless it holds the only reference, see dataForUpdate).
static TileValue convertTile(const TileValue &src, TileType type) {
  TileValue tile;
  tile.type = type;
  tile.valid = src.valid;
  if (kindOf(type) == src.kind()) {
    tile.data = src.data;
    return tile;
  }
  tile.data = std::make_shared<ArrayData>(kindOf(type), src.data->size());
  copyRun(*src.data, 0, *tile.data, 0, src.data->size());
  return tile;
}

static LogicalResult runMove(ExecContext &context, Operation *raw) {
  auto op = cast<TileMoveOp>(raw);
  context.set(op.getResult(),
              convertTile(context.tile(op.getSrc()),
                          cast<TileType>(op.getResult().getType())));
  return success();
}

/// The value `pad` stands for in `kind` (null pads with zero).
static double padValue(PadValue pad, ElementKind kind) {
  switch (pad) {
  case PadValue::Min:
    return getLowest(kind);
  case PadValue::Max:
    return getHighest(kind);
  case PadValue::Null:
  case PadValue::Zero:
    return 0;
  }
  llvm_unreachable("unknown pad value");
}

static LogicalResult runSlice(ExecContext &context, Operation *raw) {
  auto op = cast<TileSliceOp>(raw);
  TileValue src = context.tile(op.getSrc());
  auto type = cast<TileType>(op.getResult().getType());
  SmallVector<int64_t, 4> offsets = context.indices(op.getOffsets());
  for (auto [offset, dim] : llvm::zip(offsets, src.shape()))
    if (offset < 0 || offset >= dim)
      return op.emitOpError()
             << "offset " << formatShape(offsets)
             << " is outside the source box " << formatShape(src.shape());
  TileValue tile = makeTile(type, src.kind());
  tile.data->fill(padValue(op.getPad().value_or(PadValue::Zero), src.kind()));
  // The part of the requested box inside the source holds its elements.
  SmallVector<int64_t, 2> inside, validInside;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    inside.push_back(std::min(type.getDimSize(d), src.shape()[d] - offsets[d]));
    validInside.push_back(
        std::clamp<int64_t>(src.valid[d] - offsets[d], 0, type.getDimSize(d)));
  }
  SmallVector<int64_t, 4> at(offsets.size());
  forEachRun(inside, [&](ArrayRef<int64_t> index, int64_t length) {
    for (size_t d = 0; d < at.size(); ++d)
      at[d] = offsets[d] + index[d];
    copyRun(*src.data, linearIndex(src.shape(), at), *tile.data,
            linearIndex(type.getShape(), index), length);
  });
  if (op.getValidShape().empty()) {
    tile.valid = validInside;
  } else {
    FailureOr<SmallVector<int64_t, 2>> valid =
        validFrom(context, op, op.getValidShape(), type.getShape());
    if (failed(valid))
      return failure();
    tile.valid = *valid;
  }
  context.set(op.getResult(), std::move(tile));
  return success();
}

static LogicalResult runAssemble(ExecContext &context, Operation *raw) {
  auto op = cast<TileAssembleOp>(raw);
  TileValue src = context.tile(op.getSrc());
  TileValue dst = context.tile(op.getDst());
  SmallVector<int64_t, 4> offsets = context.indices(op.getOffsets());
  for (auto [offset, extent, dim] : llvm::zip(offsets, src.valid, dst.shape()))
    if (offset < 0 || extent > dim - offset) // no overflow near 2^63
      return op.emitOpError()
             << "writes the valid region " << formatShape(src.valid)
             << " at offset " << formatShape(offsets)
             << ", past the target box " << formatShape(dst.shape());
  TileValue result = dst;
  result.data = std::make_shared<ArrayData>(*dst.data);
  SmallVector<int64_t, 4> at(offsets.size());
  forEachRun(src.valid, [&](ArrayRef<int64_t> index, int64_t length) {
    for (size_t d = 0; d < at.size(); ++d)
      at[d] = offsets[d] + index[d];
    copyRun(*src.data, linearIndex(src.shape(), index), *result.data,
            linearIndex(dst.shape(), at), length);
  });
  context.set(op.getResult(), std::move(result));
  return success();
}

static LogicalResult runFillPad(ExecContext &context, Operation *raw) {
  auto op = cast<TileFillPadOp>(raw);
  TileValue src = context.tile(op.getSrc());
  auto type = cast<TileType>(op.getResult().getType());
  TileValue tile = makeTile(type, src.kind());
  tile.data->fill(padValue(op.getPad(), src.kind()));
  forEachRun(src.valid, [&](ArrayRef<int64_t> index, int64_t length) {
    size_t i = linearIndex(src.shape(), index);
    copyRun(*src.data, i, *tile.data, i, length);
  });
  context.set(op.getResult(), std::move(tile));
  return success();
}

static LogicalResult runSetValidShape(ExecContext &context, Operation *raw) {
  auto op = cast<TileSetValidShapeOp>(raw);
  TileValue tile = context.tile(op.getSrc());
  SmallVector<int64_t, 4> valid = context.indices(op.getValidShape());
  if (failed(checkValidShape(op, valid, tile.shape())))
    return failure();
  tile.valid.assign(valid.begin(), valid.end());
  context.set(op.getResult(), std::move(tile));
  return success();
}

static LogicalResult runReshape(ExecContext &context, Operation *raw) {
  auto op = cast<TileReshapeOp>(raw);
  TileValue tile = context.tile(op.getSrc());
  if (!tile.isFullyValid())
    return op.emitOpError()
           << "reshapes a tile whose valid shape " << formatShape(tile.valid)
           << " is not its whole box " << formatShape(tile.shape());
  tile.type = cast<TileType>(op.getResult().getType());
  tile.valid.assign(tile.type.getShape().begin(), tile.type.getShape().end());
  context.set(op.getResult(), std::move(tile));
  return success();
}

static LogicalResult runTranspose(ExecContext &context, Operation *raw) {
  auto op = cast<TileTransposeOp>(raw);
  TileValue src = context.tile(op.getSrc());
  auto type = cast<TileType>(op.getResult().getType());
  TileValue tile = makeTile(type, src.kind());
  int64_t rows = src.shape()[0], cols = src.shape()[1];
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      copyElement(*src.data, r * cols + c, *tile.data, c * rows + r);
  tile.valid = {src.valid[1], src.valid[0]};
  context.set(op.getResult(), std::move(tile));
  return success();
}

static LogicalResult checkInBox(Operation *op, ArrayRef<int64_t> index,
                                ArrayRef<int64_t> box) {
  for (auto [i, dim] : llvm::zip(index, box))
    if (i < 0 || i >= dim)
      return op->emitOpError() << "index " << formatShape(index)
                               << " is outside the box " << formatShape(box);
  return success();
}

static LogicalResult runRead(ExecContext &context, Operation *raw) {
  auto op = cast<TileReadOp>(raw);
  TileValue tile = context.tile(op.getSrc());
  SmallVector<int64_t, 4> index = context.indices(op.getIndices());
  if (failed(checkInBox(op, index, tile.shape())))
    return failure();
  context.set(op.getResult(),
              tile.data->scalarAt(linearIndex(tile.shape(), index)));
  return success();
}

static LogicalResult runWrite(ExecContext &context, Operation *raw) {
  auto op = cast<TileWriteOp>(raw);
  TileValue tile = context.tile(op.getDst());
  SmallVector<int64_t, 4> index = context.indices(op.getIndices());
  if (failed(checkInBox(op, index, tile.shape())))
    return failure();
  tile.data = std::make_shared<ArrayData>(*tile.data);
  tile.data->setScalar(linearIndex(tile.shape(), index),
                       context.scalar(op.getValue()));
  context.set(op.getResult(), std::move(tile));
  return success();
}

template <bool Count>
LogicalResult interp::runBlockQuery(ExecContext &context, Operation *op) {
  const CoreState &state = context.getCoreState();
  context.set(op->getResult(0),
              Scalar::ofInt(ElementKind::Index,
                            Count ? state.blockCount : state.blockIndex));
  return success();
}
template LogicalResult interp::runBlockQuery<false>(ExecContext &, Operation *);
template LogicalResult interp::runBlockQuery<true>(ExecContext &, Operation *);

/// Flags, barriers and pipe setup order the machine's pipes; they change no
/// numbers.
static LogicalResult runSystemOp(ExecContext &, Operation *) {
  return success();
}

void interp::registerTileDataHandlers(HandlerMap &map) {
  addHandler<SyncSrcOp>(map, runSystemOp);
  addHandler<SyncDstOp>(map, runSystemOp);
  addHandler<BarVOp>(map, runSystemOp);
  addHandler<BarMOp>(map, runSystemOp);
  addHandler<BarAllOp>(map, runSystemOp);
  addHandler<TileLoadOp>(map, runLoad);
  addHandler<TileStoreOp>(map, runStore);
  addHandler<TileCreateOp>(map, runCreate);
  addHandler<TileFullOp>(map, runFull);
  addHandler<TileMoveOp>(map, runMove);
  addHandler<TileSliceOp>(map, runSlice);
  addHandler<TileAssembleOp>(map, runAssemble);
  addHandler<TileFillPadOp>(map, runFillPad);
  addHandler<TileSetValidShapeOp>(map, runSetValidShape);
  addHandler<TileReshapeOp>(map, runReshape);
  addHandler<TileTransposeOp>(map, runTranspose);
  addHandler<TileReadOp>(map, runRead);
  addHandler<TileWriteOp>(map, runWrite);
  addHandler<GetBlockIdxOp>(map, runBlockQuery<false>);
  addHandler<GetBlockNumOp>(map, runBlockQuery<true>);
}
