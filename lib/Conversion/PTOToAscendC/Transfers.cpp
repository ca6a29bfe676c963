//===- Transfers.cpp - Tile loads, stores and moves to AscendC ------------===//
//
//   pto.tile.load  (vec)  -> data_copy GM -> VECIN
//                  (mat)  -> data_copy GM -> A1 / B1 / C1
//   pto.tile.store (vec)  -> data_copy UB -> GM
//                  (acc)  -> fixpipe L0C -> GM
//   pto.tile.move  mat -> left / right -> load_data (A2 / B2)
//                  mat -> bias         -> data_copy (C2)
//                  acc -> vec          -> fixpipe into a workspace region,
//                                         data_copy GM -> VECCALC
//                  acc -> mat          -> fixpipe
//                  vec -> vec          -> data_copy UB -> UB
//   pto.tensor.read  (orchestration) -> global_tensor.read (the host's)
//                    (in-core)       -> data_copy of the element GM -> UB,
//                                       get_value
//   pto.tensor.write (in-core)       -> set_value, data_copy of the element
//                                       UB -> GM
//
// A tile of whole rows of its tensor moves in one contiguous copy (counted
// when its valid rows are fewer); any other tile, or a valid shape with
// fewer columns, moves as a window of rows with a row stride on each side.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"

#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

/// Where a tile sits in its GM tensor.
struct GMAccess {
  Value view;      // the tensor from the tile's first element
  Value rowStride; // elements between the tensor's rows
  /// The tile is whole rows of the tensor: one contiguous copy moves it.
  bool wholeRows;
};

/// The extent of `tensor`'s dimension `d`: a constant, or its dim at run
/// time (tiling data on the machine).
Value dimOf(OpBuilder &builder, Location loc, pto::GMTensorType type,
            Value tensor, int64_t d) {
  if (!type.isDynamicDim(d))
    return arith::ConstantIndexOp::create(builder, loc, type.getShape()[d]);
  return ascendc::GlobalDimOp::create(builder, loc, builder.getIndexType(),
                                      tensor, builder.getI64IntegerAttr(d));
}

/// Elements between consecutive indices of each dimension of `tensor`
/// (row-major), folded where the extents are constants.
SmallVector<Value> stridesOf(OpBuilder &builder, Location loc,
                             pto::GMTensorType type, Value tensor) {
  int64_t rank = type.getRank();
  SmallVector<Value> strides(rank);
  strides[rank - 1] = arith::ConstantIndexOp::create(builder, loc, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = builder.createOrFold<arith::MulIOp>(
        loc, strides[d + 1], dimOf(builder, loc, type, tensor, d + 1));
  return strides;
}

/// A tile spans its tensor's trailing dimensions (the executor's rule): a
/// 2-d tile of a [S, H, D] tensor at [s, h, d] is rows h.. of the D-wide
/// rows starting at element (s H + h) D + d.
FailureOr<GMAccess> accessOf(OpBuilder &builder, Operation *op,
                             pto::GMTensorType tensorType, Value tensor,
                             pto::TileType tile, ValueRange offsets) {
  if (tile.getElementType().isInteger(1))
    return op->emitOpError()
           << "moves a mask tile (i1) between GM and a buffer, which is not "
              "lowered: the compiled mask is Ascend C's bit mask, which only "
              "a compare makes and its selects read";
  Location loc = op->getLoc();
  int64_t rank = tensorType.getRank();
  int64_t lead = rank - tile.getRank();
  bool wholeRows = true;
  for (int64_t d = 1; d < tile.getRank(); ++d) {
    std::optional<int64_t> offset = getConstantIntValue(offsets[lead + d]);
    wholeRows &= tile.getShape()[d] == tensorType.getShape()[lead + d] &&
                 offset && *offset == 0;
  }
  if (!wholeRows && tile.getRank() != 2)
    return op->emitOpError() << "moves a rank-" << tile.getRank()
                             << " tile that is not whole rows of its "
                                "tensor; windows are lowered for 2-d tiles";
  // Folded where both factors are constants, or one is 1 (the arith
  // folders).
  auto times = [&](Value a, Value b) {
    return builder.createOrFold<arith::MulIOp>(loc, a, b);
  };
  SmallVector<Value> strides = stridesOf(builder, loc, tensorType, tensor);
  // The tile's rows are its first dimension's indices.
  Value rowStride = strides[lead];
  Value offset = times(offsets[lead], rowStride);
  for (int64_t d = 0; d < lead; ++d)
    offset = arith::AddIOp::create(builder, loc, offset,
                                   times(offsets[d], strides[d]));
  if (!wholeRows)
    offset = arith::AddIOp::create(builder, loc, offset, offsets[lead + 1]);
  Value view = ascendc::GlobalSubIndexOp::create(builder, loc, tensor.getType(),
                                                 tensor, offset);
  return GMAccess{view, rowStride, wholeRows};
}

/// The valid extents of a load: those it asks for (else its box), clamped
/// in the dimensions of `pastEdge` (a bit each) to the data the tensor has
/// past the offsets, as the executor clamps them.
SmallVector<Value> clampedExtents(OpBuilder &builder, Location loc,
                                  pto::GMTensorType tensorType, Value tensor,
                                  pto::TileType tile, ValueRange offsets,
                                  ValueRange given, unsigned pastEdge) {
  if (!pastEdge && given.empty())
    return {};
  SmallVector<Value> extents;
  // Tile dimension d spans the tensor's dimension lead + d.
  int64_t lead = tensorType.getRank() - tile.getRank();
  for (int64_t d = 0; d < tile.getRank(); ++d) {
    Value asked = given.empty() ? Value() : given[d];
    Value extent = extentOr(builder, loc, asked, tile.getShape()[d]);
    if (pastEdge & (1u << d)) {
      Value dim = dimOf(builder, loc, tensorType, tensor, lead + d);
      Value from = offsets[lead + d];
      std::optional<int64_t> offset = getConstantIntValue(from);
      Value left = offset == 0
                       ? dim
                       : builder.createOrFold<arith::SubIOp>(loc, dim, from);
      if (left != extent)
        // Folded where both are constants: --lower-to-l0 needs constant
        // counts.
        extent = builder.createOrFold<arith::MinSIOp>(loc, extent, left);
    }
    extents.push_back(extent);
  }
  return extents;
}

/// The rows x columns of `tile` a copy moves: its valid shape, else all.
std::pair<Value, Value> windowOf(OpBuilder &builder, Location loc,
                                 pto::TileType tile, ValidShape shape) {
  return {extentOr(builder, loc, shape.rows, tile.getShape()[0]),
          extentOr(builder, loc, shape.cols, tile.getShape()[1])};
}

/// The elements in the first `rows` rows of a tensor of `type`.
Value elementsInRows(OpBuilder &builder, Location loc, Value rows,
                     ShapedType type) {
  int64_t rowElements = 1;
  for (int64_t d = 1; d < type.getRank(); ++d)
    rowElements *= type.getDimSize(d);
  Value stride = arith::ConstantIndexOp::create(builder, loc, rowElements);
  return arith::MulIOp::create(builder, loc, rows, stride);
}

/// Copies between GM and a local tensor holding `tile`: `toGM` stores.
/// `transfer` builds the op (data_copy or fixpipe) from its count or window.
template <typename CopyBuilder>
void copyTile(OpBuilder &builder, Location loc, pto::TileType tile,
              ValidShape shape, const GMAccess &access, bool toGM,
              CopyBuilder transfer) {
  if (access.wholeRows && !shape.cols) {
    Value count;
    if (shape.rows)
      count = elementsInRows(builder, loc, shape.rows, tile);
    transfer(count, ValueRange(), ValueRange());
    return;
  }
  auto [rows, cols] = windowOf(builder, loc, tile, shape);
  Value tileStride =
      arith::ConstantIndexOp::create(builder, loc, tile.getShape()[1]);
  Value strides[] = {toGM ? tileStride : access.rowStride,
                     toGM ? access.rowStride : tileStride};
  transfer(Value(), ValueRange{rows, cols}, ValueRange(strides));
}

/// Whether `tile` is a batch of matrices in a cube buffer (rank 3 in mat,
/// left, right or acc): the cube's transfers move each matrix apart.
bool isCubeBatch(pto::TileType tile) {
  return tile.getRank() == 3 && tile.getMemorySpace() != pto::MemorySpace::Vec;
}

/// Matrix `b` of the cube batch tensor `tensor`: a 2-d view.
Value batchMatrix(OpBuilder &builder, Location loc, Value tensor, int64_t b) {
  auto type = cast<ascendc::LocalTensorType>(tensor.getType());
  int64_t rows = type.getShape()[1], cols = type.getShape()[2];
  auto matrix = ascendc::LocalTensorType::get(
      builder.getContext(), {rows, cols}, type.getElementType());
  return ascendc::ReinterpretCastOp::create(
      builder, loc, matrix, tensor,
      arith::ConstantIndexOp::create(builder, loc, b * rows * cols));
}

/// A cube batch moves whole: an error at `op` when its valid shape is
/// partial (the lowering follows none per matrix).
LogicalResult requireWholeBatch(Operation *op, ValidShape shape) {
  if (!shape.rows && !shape.cols)
    return success();
  return op->emitOpError()
         << "moves a batch of matrices with a partial valid shape, which is "
            "not lowered; move whole batches, or loop over the batch with "
            "2-d tiles";
}

/// Copies each matrix of the cube batch `tile` between GM and its local
/// tensor `local`, as a 2-d tile at the batch's offset (into GM adding to
/// what it holds with `atomicAdd`).
LogicalResult copyBatch(OpBuilder &builder, Operation *op,
                        pto::GMTensorType tensorType, Value tensor,
                        pto::TileType tile, Value local, ValueRange offsets,
                        bool toGM, bool atomicAdd = false) {
  Location loc = op->getLoc();
  auto matrix = cast<pto::TileType>(
      tile.cloneWith(tile.getShape().drop_front(), tile.getElementType()));
  int64_t lead = tensorType.getRank() - tile.getRank();
  for (int64_t b = 0; b < tile.getShape()[0]; ++b) {
    SmallVector<Value> at(offsets);
    at[lead] = builder.createOrFold<arith::AddIOp>(
        loc, offsets[lead], arith::ConstantIndexOp::create(builder, loc, b));
    FailureOr<GMAccess> access =
        accessOf(builder, op, tensorType, tensor, matrix, at);
    if (failed(access))
      return failure();
    Value view = batchMatrix(builder, loc, local, b);
    copyTile(builder, loc, matrix, ValidShape{}, *access, toGM,
             [&](Value count, ValueRange window, ValueRange strides) {
               if (!toGM)
                 ascendc::DataCopyOp::create(builder, loc, view, access->view,
                                             count, window, strides);
               else
                 ascendc::FixpipeOp::create(builder, loc, access->view, view,
                                            window, strides, atomicAdd);
             });
  }
  return success();
}

struct TileLoadLowering : TilePattern<pto::TileLoadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getType());
    pto::MemorySpace space = tile.getMemorySpace();
    if (space != pto::MemorySpace::Vec && space != pto::MemorySpace::Mat)
      return op.emitOpError() << "loads into " << stringifyEnum(space)
                              << ", which no transfer from GM reaches";
    Location loc = op.getLoc();
    // A load past the tensor's edge holds what exists (its valid shape is
    // clamped); the copy moves only that.
    auto tensorType = cast<pto::GMTensorType>(op.getSrc().getType());
    if (failed(valid.record(
            op,
            clampedExtents(rewriter, loc, tensorType, adaptor.getSrc(), tile,
                           adaptor.getOffsets(), adaptor.getValidShape(),
                           valid.loadsPastEdge.lookup(op)))))
      return failure();
    ValidShape shape = valid.lookup(op.getResult());
    ascendc::Position position = space == pto::MemorySpace::Vec
                                     ? ascendc::Position::VecIn
                                     : positionFor(op.getResult());
    if (isCubeBatch(tile)) {
      Value local = createLocal(rewriter, loc, *getTypeConverter(),
                                op.getResult(), position);
      if (failed(requireWholeBatch(op, shape)) ||
          failed(copyBatch(rewriter, op, tensorType, adaptor.getSrc(), tile,
                           local, adaptor.getOffsets(), /*toGM=*/false)))
        return failure();
      rewriter.replaceOp(op, local);
      return success();
    }
    FailureOr<GMAccess> access =
        accessOf(rewriter, op, cast<pto::GMTensorType>(op.getSrc().getType()),
                 adaptor.getSrc(), tile, adaptor.getOffsets());
    if (failed(access))
      return failure();
    Value local = createLocal(rewriter, loc, *getTypeConverter(),
                              op.getResult(), position);
    copyTile(rewriter, loc, tile, shape, *access, /*toGM=*/false,
             [&](Value count, ValueRange window, ValueRange strides) {
               ascendc::DataCopyOp::create(rewriter, loc, local, access->view,
                                           count, window, strides);
             });
    rewriter.replaceOp(op, local);
    return success();
  }
};

struct TileStoreLowering : TilePattern<pto::TileStoreOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<pto::TileType>(op.getTile().getType());
    pto::MemorySpace space = tile.getMemorySpace();
    if (space != pto::MemorySpace::Vec && space != pto::MemorySpace::Acc)
      return op.emitOpError() << "stores a " << stringifyEnum(space)
                              << " tile, which no transfer to GM moves";
    // A partial tile stores its valid region only; once some tile is
    // partial, one that comes from an scf result or a block argument may
    // be: a loop's result is followed when its initial and yielded tiles
    // have one valid shape, else it is unknown here.
    std::optional<ValidShape> followed = valid.follow(op.getTile());
    if (!followed && !valid.shapes.empty())
      return op.emitOpError()
             << "stores a tile whose valid shape the lowering cannot follow "
                "here (it comes through an scf result); store it where it "
                "is computed";
    bool atomicAdd = op.getAtomicAdd();
    Type stored =
        cast<pto::GMTensorType>(op.getDst().getType()).getElementType();
    if (atomicAdd && stored != tile.getElementType())
      return op.emitOpError()
             << "adds a " << tile.getElementType() << " accumulator into "
             << stored << " atomically: the fixpipe would round to " << stored
             << " before the add and the add round again, where the store "
                "rounds the sum once; store into a tensor of "
             << tile.getElementType() << ", or cast first";
    if (atomicAdd && !ascendc::takesAtomicAdd(stored))
      return op.emitOpError()
             << "adds " << stored
             << " atomically, which the machine's DMA does not (Ascend C's "
                "SetAtomicAdd takes f32, f16, bf16, i32, i16 and i8); load, "
                "add and store instead";
    Location loc = op.getLoc();
    FailureOr<ValidShape> known = valid.require(op, op.getTile());
    if (failed(known))
      return failure();
    ValidShape shape = followed ? *followed : *known;
    if (isCubeBatch(tile)) {
      if (failed(requireWholeBatch(op, shape)) ||
          failed(copyBatch(rewriter, op,
                           cast<pto::GMTensorType>(op.getDst().getType()),
                           adaptor.getDst(), tile, adaptor.getTile(),
                           adaptor.getOffsets(), /*toGM=*/true, atomicAdd)))
        return failure();
      rewriter.replaceOp(op, adaptor.getDst());
      return success();
    }
    FailureOr<GMAccess> access =
        accessOf(rewriter, op, cast<pto::GMTensorType>(op.getDst().getType()),
                 adaptor.getDst(), tile, adaptor.getOffsets());
    if (failed(access))
      return failure();
    bool fromAccumulator = space == pto::MemorySpace::Acc;
    // The fixpipe moves the whole accumulator only without a window.
    if (fromAccumulator && access->wholeRows && shape.rows)
      shape.cols =
          arith::ConstantIndexOp::create(rewriter, loc, tile.getShape()[1]);
    copyTile(rewriter, loc, tile, shape, *access, /*toGM=*/true,
             [&](Value count, ValueRange window, ValueRange strides) {
               if (fromAccumulator)
                 ascendc::FixpipeOp::create(rewriter, loc, access->view,
                                            adaptor.getTile(), window, strides,
                                            atomicAdd);
               else
                 ascendc::DataCopyOp::create(rewriter, loc, access->view,
                                             adaptor.getTile(), count, window,
                                             strides, atomicAdd);
             });
    // The stored tensor is the same GM buffer.
    rewriter.replaceOp(op, adaptor.getDst());
    return success();
  }
};

/// Moves the accumulator `src` into the UB tensor `dst` through a region of
/// the kernel workspace: a fixpipe into it on the cube, a copy out of it on
/// the vector core. The cube and vector cores of a C220 (910B) share only
/// GM (the fixpipe writes GM or L1), so this is the path both machines
/// have; the region is made once, first in the function.
void stageThroughGM(ConversionPatternRewriter &rewriter, Operation *op,
                    Value dst, Value src) {
  Location loc = op->getLoc();
  auto type = cast<ascendc::LocalTensorType>(dst.getType());
  Value workspace;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    auto func = op->getParentOfType<FunctionOpInterface>();
    rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    workspace = ascendc::WorkspaceOp::create(
        rewriter, loc,
        ascendc::GlobalTensorType::get(rewriter.getContext(), type.getShape(),
                                       type.getElementType()));
  }
  ascendc::FixpipeOp::create(rewriter, loc, workspace, src);
  ascendc::DataCopyOp::create(rewriter, loc, dst, workspace, Value(),
                              ValueRange(), ValueRange());
}

/// pto.tile.move along one of the machine's on-chip paths (an accumulator
/// to a vector tile through GM); the valid shape is kept.
struct TileMoveLowering : TilePattern<pto::TileMoveOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileMoveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using pto::MemorySpace;
    MemorySpace from =
        cast<pto::TileType>(op.getSrc().getType()).getMemorySpace();
    MemorySpace to = cast<pto::TileType>(op.getType()).getMemorySpace();
    Location loc = op.getLoc();
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            positionFor(op.getResult()));
    Value src = adaptor.getSrc();
    auto tile = cast<pto::TileType>(op.getType());
    if (isCubeBatch(tile) && from == MemorySpace::Mat &&
        (to == MemorySpace::Left || to == MemorySpace::Right)) {
      // Each matrix of the batch apart.
      FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
      if (failed(shape) || failed(requireWholeBatch(op, *shape)))
        return failure();
      for (int64_t b = 0; b < tile.getShape()[0]; ++b)
        ascendc::LoadDataOp::create(rewriter, loc,
                                    batchMatrix(rewriter, loc, dst, b),
                                    batchMatrix(rewriter, loc, src, b),
                                    /*transpose=*/false);
    } else if (isCubeBatch(tile)) {
      return op.emitOpError()
             << "moves a batch of matrices from " << stringifyEnum(from)
             << " to " << stringifyEnum(to)
             << ", which is lowered from mat to left and right only";
    } else if (from == MemorySpace::Mat &&
               (to == MemorySpace::Left || to == MemorySpace::Right))
      ascendc::LoadDataOp::create(rewriter, loc, dst, src,
                                  /*transpose=*/false);
    else if (from == MemorySpace::Acc && to == MemorySpace::Vec)
      stageThroughGM(rewriter, op, dst, src);
    else if (from == MemorySpace::Acc && to == MemorySpace::Mat)
      ascendc::FixpipeOp::create(rewriter, loc, dst, src);
    else if ((from == MemorySpace::Mat && to == MemorySpace::Bias) ||
             (from == MemorySpace::Vec && to == MemorySpace::Vec))
      ascendc::DataCopyOp::create(rewriter, loc, dst, src);
    else
      return op.emitOpError()
             << "moves a " << stringifyEnum(from) << " tile to "
             << stringifyEnum(to) << ", which is not lowered to AscendC yet";
    valid.inherit(op.getResult(), op.getSrc());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// The GM view from element `indices` of `tensor` (row-major).
Value elementView(OpBuilder &builder, Location loc, pto::GMTensorType type,
                  Value tensor, ValueRange indices) {
  SmallVector<Value> strides = stridesOf(builder, loc, type, tensor);
  Value offset = indices.back();
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    offset = builder.createOrFold<arith::AddIOp>(
        loc, offset,
        builder.createOrFold<arith::MulIOp>(loc, indices[d], strides[d]));
  return ascendc::GlobalSubIndexOp::create(builder, loc, tensor.getType(),
                                           tensor, offset);
}

/// One 32-byte block of UB holding an element of `element`, for `op`.
Value elementBlock(OpBuilder &builder, Location loc, Type element,
                   ascendc::Position position, Operation *op) {
  Value block = ascendc::LocalTensorAutoOp::create(
      builder, loc,
      ascendc::LocalTensorType::get(
          builder.getContext(),
          {ascendc::kBlockBytes / ascendc::getElementBytes(element)}, element),
      position, false, false);
  markLane(block, op);
  return block;
}

/// A kernel reaches GM through its buffers: an element of GM moves by DMA
/// (a one-element data_copy, Ascend C's DataCopyPad) between GM and one
/// block of UB, which the scalar unit reads or writes, so the pipe
/// synchronization orders it against the kernel's other transfers. (The
/// scalar unit's own GM access, GlobalTensor::GetValue / SetValue, goes
/// through a data cache the DMA does not see without flushing it.)
struct TensorReadLowering : OpConversionPattern<pto::TensorReadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(pto::TensorReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The host reads the element after the launches before it.
    if (pto::getEnclosingFunctionKind(op) == pto::FunctionKind::Orchestration) {
      rewriter.replaceOpWithNewOp<ascendc::GlobalReadOp>(
          op, op.getType(), adaptor.getSrc(), adaptor.getIndices());
      return success();
    }
    Location loc = op.getLoc();
    Value block =
        elementBlock(rewriter, loc, op.getType(), ascendc::Position::VecIn, op);
    ascendc::DataCopyOp::create(
        rewriter, loc, block,
        elementView(rewriter, loc,
                    cast<pto::GMTensorType>(op.getSrc().getType()),
                    adaptor.getSrc(), adaptor.getIndices()),
        arith::ConstantIndexOp::create(rewriter, loc, 1), ValueRange(),
        ValueRange());
    rewriter.replaceOpWithNewOp<ascendc::GetValueOp>(
        op, op.getType(), block,
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    return success();
  }
};

/// pto.tensor.write in an in-core function (an orchestration's is
/// outlined into a kernel first, pto-outline-tensor-compute).
struct TensorWriteLowering : OpConversionPattern<pto::TensorWriteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(pto::TensorWriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (pto::getEnclosingFunctionKind(op) == pto::FunctionKind::Orchestration)
      return op.emitOpError()
             << "writes GM on the host, which launches kernels; "
                "pto-outline-tensor-compute writes the kernel for it";
    Location loc = op.getLoc();
    Value block = elementBlock(rewriter, loc, op.getValue().getType(),
                               ascendc::Position::VecOut, op);
    ascendc::SetValueOp::create(
        rewriter, loc, block, arith::ConstantIndexOp::create(rewriter, loc, 0),
        adaptor.getValue());
    ascendc::DataCopyOp::create(
        rewriter, loc,
        elementView(rewriter, loc,
                    cast<pto::GMTensorType>(op.getDst().getType()),
                    adaptor.getDst(), adaptor.getIndices()),
        block, arith::ConstantIndexOp::create(rewriter, loc, 1), ValueRange(),
        ValueRange());
    rewriter.replaceOp(op, adaptor.getDst());
    return success();
  }
};

} // namespace

void lowering::populateTransferPatterns(PTOToAscendCTypes &types,
                                        RewritePatternSet &patterns,
                                        ValidShapes &valid) {
  patterns.add<TileLoadLowering, TileStoreLowering, TileMoveLowering>(
      types, patterns.getContext(), valid);
  patterns.add<TensorReadLowering, TensorWriteLowering>(types,
                                                        patterns.getContext());
}

void lowering::findLoadsPastEdge(ModuleOp module, ValidShapes &valid) {
  DataFlowSolver solver;
  dataflow::loadBaselineAnalyses(solver);
  solver.load<dataflow::IntegerRangeAnalysis>();
  bool solved = succeeded(solver.initializeAndRun(module));
  // The largest value `value` may take, when the analysis bounds it.
  auto largest = [&](Value value) -> std::optional<int64_t> {
    if (std::optional<int64_t> constant = getConstantIntValue(value))
      return constant;
    // A loop's last trip, exactly (the analysis bounds it by the upper
    // bound, whatever the step).
    if (auto loop = scf::getForInductionVarOwner(value)) {
      std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      int64_t span;
      if (lower && upper && step && *step > 0 && *upper > *lower &&
          !__builtin_sub_overflow(*upper, *lower, &span))
        return *lower + (span - 1) / *step * *step;
    }
    auto *lattice =
        solved ? solver.lookupState<dataflow::IntegerValueRangeLattice>(value)
               : nullptr;
    if (!lattice || lattice->getValue().isUninitialized())
      return std::nullopt;
    const APInt &max = lattice->getValue().getValue().smax();
    if (max.getSignificantBits() > 62)
      return std::nullopt;
    return max.getSExtValue();
  };
  module.walk([&](pto::TileLoadOp load) {
    auto tensor = cast<pto::GMTensorType>(load.getSrc().getType());
    auto tile = cast<pto::TileType>(load.getType());
    unsigned pastEdge = 0;
    // Tile dimension d spans the tensor's dimension lead + d.
    int64_t lead = tensor.getRank() - tile.getRank();
    for (int64_t d = 0; d < tile.getRank(); ++d) {
      // A valid extent never exceeds the box (the executor checks).
      std::optional<int64_t> offset = largest(load.getOffsets()[lead + d]);
      int64_t extent = tile.getShape()[d];
      if (!load.getValidShape().empty())
        if (std::optional<int64_t> asked = largest(load.getValidShape()[d]))
          extent = std::min(extent, *asked);
      // Compared without adding: an offset may be any index.
      if (tensor.isDynamicDim(lead + d) || !offset ||
          *offset > tensor.getShape()[lead + d] - extent)
        pastEdge |= 1u << d;
    }
    if (pastEdge)
      valid.loadsPastEdge[load] = pastEdge;
  });
}

void lowering::recordLoopCarriedTiles(ModuleOp module, ValidShapes &valid) {
  module.walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [result, init, yielded] :
         llvm::zip(loop.getResults(), loop.getInitArgs(), yield.getOperands()))
      if (isa<pto::TileType>(result.getType()))
        valid.carried[result] = {init, yielded};
  });
}

std::optional<ValidShape> lowering::ValidShapes::follow(Value tile) const {
  if (unknown.contains(tile))
    return std::nullopt;
  if (auto it = shapes.find(tile); it != shapes.end())
    return it->second;
  if (auto it = carried.find(tile); it != carried.end()) {
    std::optional<ValidShape> init = follow(it->second.first);
    std::optional<ValidShape> yielded = follow(it->second.second);
    if (init && yielded && init->rows == yielded->rows &&
        init->cols == yielded->cols)
      return init;
    return std::nullopt;
  }
  Operation *producer = tile.getDefiningOp();
  if (producer && isa<pto::PTODialect>(producer->getDialect()))
    return ValidShape(); // its whole box
  return std::nullopt;
}
