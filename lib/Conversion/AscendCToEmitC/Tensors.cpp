//===- Tensors.cpp - Tensors and data movement to EmitC -------------------===//
//
//   local_tensor pos addr A  -> AscendC::LocalTensor<T>(TPosition::POS, A,
//                               elements) (static tensor programming)
//   reinterpret_cast         -> the same object, or src.ReinterpretCast<U>()
//                               (of src[offset] with an offset)
//   global_tensor.subindex   -> gm[offset]
//   data_copy (count)        -> AscendC::DataCopy(dst, src, count), or
//                               between GM and UB, unless the count fills
//                               32-byte blocks, AscendC::DataCopyPad(dst,
//                               src, DataCopyExtParams{1, bytes, ...})
//   data_copy (window) GM<->UB -> AscendC::DataCopyPad(dst, src,
//                               DataCopyExtParams{...}[, DataCopyPadExtParams])
//                    GM->L1  -> AscendC::DataCopy(dst, src, Nd2NzParams{...})
//                    UB->UB  -> AscendC::DataCopy(dst, src,
//                    DataCopyParams{...})
//   data_copy L1 -> GM / UB  -> per fractal column, AscendC::DataCopy(
//                               dst[c * C0], src[c * rows16 * C0],
//                               DataCopyParams{rows, 1, 0, cols / C0 - 1})
//   load_data                -> AscendC::LoadData(dst, src, LoadData2DParams)
//   fixpipe                  -> AscendC::Fixpipe<D, S, CFG_ROW_MAJOR>(dst, src,
//                               FixpipeParamsV220{...})
//   ... atomic_add           -> AscendC::SetAtomicAdd<T>(); the copy;
//                               AscendC::SetAtomicNone();
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::emit;

namespace {

int64_t bytesOf(Type element) { return ascendc::getElementBytes(element); }

int64_t roundUp16(int64_t value) { return (value + 15) / 16 * 16; }

/// The bytes of the buffer `tensor` is the whole of (a planned local
/// tensor, or a view of all of one as other elements), else 0.
int64_t allocatedBytes(Value tensor) {
  while (auto cast = tensor.getDefiningOp<ascendc::ReinterpretCastOp>()) {
    if (cast.getOffset() && getConstantIntValue(cast.getOffset()) != 0)
      return 0;
    tensor = cast.getSource();
  }
  if (auto local = tensor.getDefiningOp<ascendc::LocalTensorOp>())
    return local.getSize();
  return 0;
}

/// Whether `count` elements of `bytes` bytes (`elements` when it is null)
/// are whole 32-byte blocks whatever its run-time value: a constant that
/// is, or a product with a factor that is.
bool fillsBlocks(Value count, int64_t elements, int64_t bytes) {
  if (!count)
    return elements * bytes % 32 == 0;
  auto whole = [&](Value value) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    return constant && *constant * bytes % 32 == 0;
  };
  if (whole(count))
    return true;
  if (auto product = count.getDefiningOp<arith::MulIOp>())
    return whole(product.getLhs()) || whole(product.getRhs());
  return false;
}

/// `tensor[offset]`: the local tensor from element `offset` on.
Value localFrom(OpBuilder &builder, Location loc, Value tensor, Value offset) {
  Value view = emitc::VariableOp::create(
      builder, loc, emitc::LValueType::get(tensor.getType()),
      opaque(builder.getContext(), ""));
  emitc::VerbatimOp::create(builder, loc, builder.getStringAttr("{} = {}[{}];"),
                            ValueRange{view, tensor, offset});
  return emitc::LoadOp::create(builder, loc, tensor.getType(), view);
}

/// `gm[offset]`: the global tensor from element `offset` on.
Value globalFrom(OpBuilder &builder, Location loc, Value tensor, Value offset) {
  Value element = emitc::SubscriptOp::create(
      builder, loc, emitc::LValueType::get(tensor.getType()), tensor,
      ValueRange{offset});
  return emitc::LoadOp::create(builder, loc, tensor.getType(), element);
}

/// The mmad reading or writing `tensor`, when exactly one does.
ascendc::MmadOp mmadOf(Value tensor) {
  ascendc::MmadOp found;
  for (Operation *user : tensor.getUsers())
    if (auto mmad = dyn_cast<ascendc::MmadOp>(user)) {
      if (found)
        return nullptr;
      found = mmad;
    }
  return found;
}

/// `value` (an operand of another op) where `at` is being rewritten: a
/// constant again, or the converted value when it is defined before `at`
/// in an enclosing block; none otherwise.
Value valueAt(ConversionPatternRewriter &rewriter, Operation *at, Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return indexConstant(rewriter, at->getLoc(), *constant);
  Block *block = value.getParentBlock();
  Operation *def = value.getDefiningOp();
  bool before =
      block->findAncestorOpInBlock(*at) &&
      (!def || def->isBeforeInBlock(block->findAncestorOpInBlock(*at)));
  return before ? rewriter.getRemappedValue(value) : Value();
}

struct LocalTensorLowering : OpConversionPattern<ascendc::LocalTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::LocalTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return op.emitOpError() << "holds elements with no C++ type here";
    std::string name = cast<emitc::OpaqueType>(type).getValue().str();
    Value tensor = call(rewriter, op.getLoc(), name, type, ValueRange(),
                        {opaque(context, positionName(op.getPosition())),
                         literal(context, op.getAddr()),
                         literal(context, op.getType().getNumElements())});
    rewriter.replaceOp(op, tensor);
    return success();
  }
};

/// A local tensor without an address has no C++ form: the memory plan
/// gives each one its address first.
template <typename From> struct UnplannedLowering : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<From, ascendc::TBufGetTensorOp>)
      return op.emitOpError()
             << "is a TPipe-managed tensor, which the emitted kernels do not "
                "have (they create no TPipe); use a planned local tensor";
    return op.emitOpError()
           << "has no address yet; emit C++ from a planned kernel (after "
              "ascendc-allocate-tensor, as `tilekit compile` runs it)";
  }
};

struct ReinterpretCastLowering
    : OpConversionPattern<ascendc::ReinterpretCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::ReinterpretCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    // An offset view is `tensor[offset]`, of the source's element type.
    Value source = adaptor.getSource();
    if (adaptor.getOffset())
      source = localFrom(rewriter, op.getLoc(), source, adaptor.getOffset());
    // A LocalTensor has no shape: a view of the same elements is the same
    // object.
    if (type == source.getType()) {
      rewriter.replaceOp(op, source);
      return success();
    }
    MLIRContext *context = op.getContext();
    Value object = emitc::VariableOp::create(rewriter, op.getLoc(),
                                             emitc::LValueType::get(type),
                                             opaque(context, ""));
    emitc::VerbatimOp::create(
        rewriter, op.getLoc(),
        rewriter.getStringAttr("{} = {}.ReinterpretCast<" +
                               elementName(op.getType().getElementType()) +
                               ">();"),
        ValueRange{object, source});
    rewriter.replaceOpWithNewOp<emitc::LoadOp>(op, type, object);
    return success();
  }
};

struct GlobalSubIndexLowering : OpConversionPattern<ascendc::GlobalSubIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::GlobalSubIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       globalFrom(rewriter, op.getLoc(), adaptor.getSource(),
                                  adaptor.getOffset()));
    return success();
  }
};

/// A reshape is the same GlobalTensor: an address (its extents are what
/// global_tensor.dim of it reads).
struct GlobalReshapeLowering : OpConversionPattern<ascendc::GlobalReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::GlobalReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

/// Where a tensor lives, for choosing a copy's form: L1 is the cube's
/// matrix operands (A1, B1: NZ layout); the bias row (C1) is Other.
enum class Side { GM, UB, L1, Other };
Side sideOf(Value tensor) {
  if (isa<ascendc::GlobalTensorType>(tensor.getType()))
    return Side::GM;
  std::optional<ascendc::Position> position = ascendc::getPosition(tensor);
  if (!position || *position == ascendc::Position::C1)
    return Side::Other;
  switch (ascendc::getBuffer(*position)) {
  case ascendc::Buffer::UB:
    return Side::UB;
  case ascendc::Buffer::L1:
    return Side::L1;
  default:
    return Side::Other;
  }
}

/// `rows` x `cols` ND elements of GM (`srcStride` apart) into the NZ layout
/// of L1 `tile`: C0 columns of the tile's rows rounded up to 16.
void nd2nz(OpBuilder &builder, Location loc, ascendc::LocalTensorType tile,
           Value dst, Value src, Value rows, Value cols, Value srcStride) {
  Value one = indexConstant(builder, loc, 1),
        zero = indexConstant(builder, loc, 0);
  Value params =
      paramStruct(builder, loc, "AscendC::Nd2NzParams",
                  {{"ndNum", one},
                   {"nValue", rows},
                   {"dValue", cols},
                   {"srcNdMatrixStride", zero},
                   {"srcDValue", srcStride},
                   {"dstNzC0Stride",
                    indexConstant(builder, loc, roundUp16(tile.getShape()[0]))},
                   {"dstNzNStride", one},
                   {"dstNzMatrixStride", zero}});
  call(builder, loc, "AscendC::DataCopy", {}, {dst, src, params});
}

/// A whole L1 tile (NZ) copied out of the cube as ND rows, to GM (A2/A3's
/// L1 -> GM copy) or a vector core's UB (950's L1 -> UB): the copies move
/// 32-byte blocks as they are, so one DataCopy per fractal column takes its
/// block of every row (rows contiguous in L1, a row of the tile apart on
/// the other side); the rows must be whole blocks.
LogicalResult nz2nd(ConversionPatternRewriter &rewriter, ascendc::DataCopyOp op,
                    Value dst, Value src) {
  Location loc = op.getLoc();
  auto tile = cast<ascendc::LocalTensorType>(op.getSrc().getType());
  if (tile.getRank() != 2 || !op.getWindow().empty() || op.getCount())
    return op.emitOpError()
           << "copies part of an L1 tensor out of the cube; the C++ "
              "emission copies whole matrices";
  int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
  int64_t c0 = 32 / bytesOf(tile.getElementType());
  if (cols % c0 != 0)
    return op.emitOpError()
           << "copies an L1 tile with rows of " << cols * 32 / c0
           << " bytes out of the cube: its copies move whole 32-byte "
              "blocks, so the rows must be whole blocks ("
           << c0 << " elements)";
  bool toGm = sideOf(op.getDst()) == Side::GM;
  Value params =
      paramStruct(rewriter, loc, "AscendC::DataCopyParams",
                  {{"blockCount", indexConstant(rewriter, loc, rows)},
                   {"blockLen", indexConstant(rewriter, loc, 1)},
                   {"srcStride", indexConstant(rewriter, loc, 0)},
                   {"dstStride", indexConstant(rewriter, loc, cols / c0 - 1)}});
  for (int64_t band = 0; band < cols / c0; ++band) {
    Value from =
        localFrom(rewriter, loc, src,
                  indexConstant(rewriter, loc, band * roundUp16(rows) * c0));
    Value at = indexConstant(rewriter, loc, band * c0);
    Value to = toGm ? globalFrom(rewriter, loc, dst, at)
                    : localFrom(rewriter, loc, dst, at);
    call(rewriter, loc, "AscendC::DataCopy", {}, {to, from, params});
  }
  return success();
}

/// An atomic add into GM: `AscendC::SetAtomicAdd<T>()` before `op` and
/// `AscendC::SetAtomicNone()` after it, so the calls that replace `op`
/// accumulate and no later transfer does.
void bracketAtomicAdd(ConversionPatternRewriter &rewriter, Operation *op,
                      Value gm) {
  Type element = cast<ShapedType>(gm.getType()).getElementType();
  call(rewriter, op->getLoc(), "AscendC::SetAtomicAdd", {}, {}, {},
       {opaque(op->getContext(), elementName(element))});
  OpBuilder::InsertionGuard restore(rewriter);
  rewriter.setInsertionPointAfter(op);
  call(rewriter, op->getLoc(), "AscendC::SetAtomicNone", {}, {});
}

struct DataCopyLowering : OpConversionPattern<ascendc::DataCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::DataCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (op.getAtomicAdd())
      bracketAtomicAdd(rewriter, op, op.getDst());
    if (sideOf(op.getSrc()) == Side::L1 &&
        (sideOf(op.getDst()) == Side::GM || sideOf(op.getDst()) == Side::UB)) {
      if (failed(nz2nd(rewriter, op, adaptor.getDst(), adaptor.getSrc())))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }
    if (op.getWindow().empty() && sideOf(op.getSrc()) == Side::GM &&
        sideOf(op.getDst()) == Side::L1) {
      // Whole rows of the tile: `count` elements are count / cols rows.
      auto tile = cast<ascendc::LocalTensorType>(op.getDst().getType());
      if (tile.getRank() != 2)
        return op.emitOpError() << "copies into an L1 tensor of rank "
                                << tile.getRank() << ": the cube's NZ layout "
                                << "holds matrices";
      int64_t cols = tile.getShape()[1];
      Value rows = adaptor.getCount()
                       ? indexArith(rewriter, loc, '/', adaptor.getCount(),
                                    indexConstant(rewriter, loc, cols))
                       : indexConstant(rewriter, loc, tile.getShape()[0]);
      Value width = indexConstant(rewriter, loc, cols);
      nd2nz(rewriter, loc, tile, adaptor.getDst(), adaptor.getSrc(), rows,
            width, width);
      rewriter.eraseOp(op);
      return success();
    }
    if (op.getWindow().empty()) {
      Value count = adaptor.getCount();
      if (!count) {
        // All of the local tensor, as the executor copies (a GM side may be
        // a view typed as its whole tensor).
        Value local = isa<ascendc::LocalTensorType>(op.getDst().getType())
                          ? op.getDst()
                          : op.getSrc();
        count = indexConstant(
            rewriter, loc,
            cast<ascendc::LocalTensorType>(local.getType()).getNumElements());
      }
      Type element = cast<ShapedType>(op.getDst().getType()).getElementType();
      Side from = sideOf(op.getSrc()), to = sideOf(op.getDst());
      int64_t elements =
          cast<ascendc::LocalTensorType>(
              (from == Side::GM ? op.getDst() : op.getSrc()).getType())
              .getNumElements();
      bool whole = fillsBlocks(op.getCount(), elements, bytesOf(element));
      // Between GM and UB (a local tensor whose position the emitter does
      // not see, such as a branch's result, is a vector tile's).
      Value local = from == Side::GM ? op.getDst() : op.getSrc();
      std::optional<ascendc::Position> position = ascendc::getPosition(local);
      bool gmUb =
          (from == Side::GM || to == Side::GM) &&
          (!position || (*position != ascendc::Position::C1 &&
                         ascendc::getBuffer(*position) == ascendc::Buffer::UB));
      if (!whole && gmUb) {
        // DataCopy moves whole 32-byte blocks; DataCopyPad any bytes.
        Value params = paramStruct(
            rewriter, loc, "AscendC::DataCopyExtParams",
            {{"blockCount", indexConstant(rewriter, loc, 1)},
             {"blockLen",
              indexArith(rewriter, loc, '*', count,
                         indexConstant(rewriter, loc, bytesOf(element)))}});
        SmallVector<Value> operands{adaptor.getDst(), adaptor.getSrc(), params};
        if (from == Side::GM)
          operands.push_back(paramStruct(rewriter, loc,
                                         "AscendC::DataCopyPadExtParams<" +
                                             elementName(element) + ">",
                                         {}));
        call(rewriter, loc, "AscendC::DataCopyPad", {}, operands);
      } else {
        if (!whole) {
          // A whole tensor into a whole tensor, inside UB: their buffers
          // are whole blocks, so the copy moves the last one entire.
          int64_t rounded = llvm::alignTo(elements * bytesOf(element), 32);
          if (from != Side::UB || to != Side::UB || op.getCount() ||
              allocatedBytes(op.getDst()) < rounded ||
              allocatedBytes(op.getSrc()) < rounded)
            return op.emitOpError()
                   << "copies a count of elements that may not be whole "
                      "32-byte blocks, which Ascend C's DataCopy moves "
                      "(DataCopyPad moves any bytes between GM and UB only)";
          count = indexConstant(rewriter, loc, rounded / bytesOf(element));
        }
        call(rewriter, loc, "AscendC::DataCopy", {},
             {adaptor.getDst(), adaptor.getSrc(), count});
      }
      rewriter.eraseOp(op);
      return success();
    }
    Type element = cast<ShapedType>(op.getDst().getType()).getElementType();
    auto constant = [&](int64_t value) {
      return indexConstant(rewriter, loc, value);
    };
    auto times = [&](Value value, int64_t by) {
      return indexArith(rewriter, loc, '*', value, constant(by));
    };
    auto minus = [&](Value a, Value b) {
      return indexArith(rewriter, loc, '-', a, b);
    };
    auto blocks = [&](Value bytes) {
      return indexArith(rewriter, loc, '/', bytes, constant(32));
    };
    // A row rounded up to whole 32-byte blocks, as it sits in UB.
    auto roundedRow = [&](Value cols) {
      Value bytes = times(cols, bytesOf(element));
      return times(blocks(indexArith(rewriter, loc, '+', bytes, constant(31))),
                   32);
    };
    Value rows = adaptor.getWindow()[0], cols = adaptor.getWindow()[1];
    Value srcStride = adaptor.getStrides()[0],
          dstStride = adaptor.getStrides()[1];
    Value rowBytes = times(cols, bytesOf(element));
    Side from = sideOf(op.getSrc()), to = sideOf(op.getDst());
    std::string type = elementName(element);
    if ((from == Side::GM && to == Side::UB) ||
        (from == Side::UB && to == Side::GM)) {
      // Gaps between rows: bytes on the GM side, 32-byte blocks on the UB
      // side.
      bool load = from == Side::GM;
      Value gmGap =
          times(minus(load ? srcStride : dstStride, cols), bytesOf(element));
      Value ubGap =
          blocks(minus(times(load ? dstStride : srcStride, bytesOf(element)),
                       roundedRow(cols)));
      Value params = paramStruct(rewriter, loc, "AscendC::DataCopyExtParams",
                                 {{"blockCount", rows},
                                  {"blockLen", rowBytes},
                                  {"srcStride", load ? gmGap : ubGap},
                                  {"dstStride", load ? ubGap : gmGap}});
      if (load) {
        Value pad = paramStruct(
            rewriter, loc, "AscendC::DataCopyPadExtParams<" + type + ">", {});
        call(rewriter, loc, "AscendC::DataCopyPad", {},
             {adaptor.getDst(), adaptor.getSrc(), params, pad});
      } else {
        call(rewriter, loc, "AscendC::DataCopyPad", {},
             {adaptor.getDst(), adaptor.getSrc(), params});
      }
    } else if (from == Side::GM && to == Side::L1) {
      auto tile = cast<ascendc::LocalTensorType>(op.getDst().getType());
      if (tile.getRank() != 2)
        return op.emitOpError() << "copies into an L1 tensor of rank "
                                << tile.getRank() << ": the cube's NZ layout "
                                << "holds matrices";
      nd2nz(rewriter, loc, tile, adaptor.getDst(), adaptor.getSrc(), rows, cols,
            srcStride);
    } else if (from == Side::UB && to == Side::UB) {
      Value params = paramStruct(
          rewriter, loc, "AscendC::DataCopyParams",
          {{"blockCount", rows},
           {"blockLen", blocks(rowBytes)},
           {"srcStride",
            blocks(times(minus(srcStride, cols), bytesOf(element)))},
           {"dstStride",
            blocks(times(minus(dstStride, cols), bytesOf(element)))}});
      call(rewriter, loc, "AscendC::DataCopy", {},
           {adaptor.getDst(), adaptor.getSrc(), params});
    } else {
      return op.emitOpError()
             << "copies a window along a path that has no C++ form here "
                "(GM <-> UB, GM -> L1 and UB -> UB do)";
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// L1 (NZ) into L0A (zZ) or L0B (zN), one LoadData per 16-row band of the
/// source (per column band when the load transposes): each band holds one
/// row of the destination's fractal grid, as wide as the mmad reading it
/// needs (ceil(k / C0) fractals for A, ceil(n / 16) for B; the tile's
/// extent when no single mmad reads it). A's fractals keep their order, B's
/// are transposed (zN), and a transposing load swaps that.
struct LoadDataLowering : OpConversionPattern<ascendc::LoadDataOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::LoadDataOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto src = op.getSrc().getType(), dst = op.getDst().getType();
    std::optional<ascendc::Position> position =
        ascendc::getPosition(op.getDst());
    bool isA =
        position && ascendc::getBuffer(*position) == ascendc::Buffer::L0A;
    bool isB =
        position && ascendc::getBuffer(*position) == ascendc::Buffer::L0B;
    if (src.getRank() != 2 || dst.getRank() != 2 || (!isA && !isB))
      return op.emitOpError() << "loads into a tensor that is not a matrix "
                                 "of L0A or L0B";
    int64_t bytes = bytesOf(src.getElementType());
    int64_t c0 = 32 / bytes;
    bool transpose = op.getTranspose();
    // A transposed fractal is 16 x 16 (2-byte elements); 1-byte B takes
    // LoadDataWithTranspose's 32 x 32 squares instead.
    bool squares = isB && !transpose && bytes == 1;
    if (isB != transpose && bytes != 2 && !squares)
      return op.emitOpError()
             << "loads " << bytes << "-byte elements into "
             << (isA ? "L0A" : "L0B")
             << " in a layout that transposes fractals, which the machine "
                "does for 2-byte elements (and 1-byte right operands) only";
    // The destination grid's row: fractals along k for A, along n for B.
    ascendc::MmadOp mmad = mmadOf(op.getDst());
    Value extent =
        mmad ? valueAt(rewriter, op, isA ? mmad.getK() : mmad.getN()) : Value();
    if (!extent)
      extent = indexConstant(rewriter, loc, dst.getShape()[1]);
    int64_t unit = isA ? c0 : 16;
    Value perRow =
        indexArith(rewriter, loc, '/',
                   indexArith(rewriter, loc, '+', extent,
                              indexConstant(rewriter, loc, unit - 1)),
                   indexConstant(rewriter, loc, unit));
    int64_t srcRows = roundUp16(src.getShape()[0]);
    if (squares)
      return loadSquares(op, adaptor, rewriter, perRow, srcRows);
    int64_t bands =
        transpose ? (src.getShape()[1] + c0 - 1) / c0 : srcRows / 16;
    int64_t fractal = 512 / bytes;
    for (int64_t band = 0; band < bands; ++band) {
      Value to =
          localFrom(rewriter, loc, adaptor.getDst(),
                    indexArith(rewriter, loc, '*', perRow,
                               indexConstant(rewriter, loc, band * fractal)));
      Value params = paramStruct(
          rewriter, loc, "AscendC::LoadData2DParams",
          {{"startIndex",
            indexConstant(rewriter, loc,
                          transpose ? band * srcRows / 16 : band)},
           {"repeatTimes", perRow},
           {"srcStride",
            indexConstant(rewriter, loc, transpose ? 1 : srcRows / 16)},
           {"ifTranspose", emitc::ConstantOp::create(
                               rewriter, loc, rewriter.getI1Type(),
                               rewriter.getBoolAttr(isB != transpose))}});
      call(rewriter, loc, "AscendC::LoadData", {},
           {to, adaptor.getSrc(), params});
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// 1-byte B: each LoadDataWithTranspose iteration joins two NZ fractals
  /// (32 rows of k by 32 columns of n) into a square, transposes it and
  /// writes its halves as two neighbouring zN fractals (n 0-15, 16-31), so
  /// one call per 32-row band of k walks the band's squares along n. The
  /// source's fractal columns must hold whole squares (k a multiple of 32),
  /// and an odd fractal count along n overruns the band by one fractal: the
  /// next band's load overwrites it, and the tile's even count (n a
  /// multiple of 32) leaves room after the last band.
  LogicalResult loadSquares(ascendc::LoadDataOp op, OpAdaptor adaptor,
                            ConversionPatternRewriter &rewriter, Value perRow,
                            int64_t srcRows) const {
    Location loc = op.getLoc();
    auto dst = op.getDst().getType();
    if (srcRows % 32 || dst.getShape()[0] % 32 || dst.getShape()[1] % 32)
      return op.emitOpError()
             << "loads a 1-byte right operand of " << dst.getShape()[0] << " x "
             << dst.getShape()[1]
             << " into L0B, which LoadDataWithTranspose does in 32 x 32 "
                "squares: give the tile k and n multiples of 32 (its valid "
                "shape can "
                "stay smaller)";
    Value squares = indexArith(
        rewriter, loc, '/',
        indexArith(rewriter, loc, '+', perRow, indexConstant(rewriter, loc, 1)),
        indexConstant(rewriter, loc, 2));
    for (int64_t band = 0; band < srcRows / 32; ++band) {
      Value to =
          localFrom(rewriter, loc, adaptor.getDst(),
                    indexArith(rewriter, loc, '*', perRow,
                               indexConstant(rewriter, loc, band * 512)));
      Value params = paramStruct(
          rewriter, loc, "AscendC::LoadData2dTransposeParams",
          {{"startIndex", indexConstant(rewriter, loc, band)},
           {"repeatTimes", squares},
           {"srcStride", indexConstant(rewriter, loc, srcRows / 32)},
           {"dstGap", indexConstant(rewriter, loc, 1)},
           {"dstFracGap", indexConstant(rewriter, loc, 0)}});
      call(rewriter, loc, "AscendC::LoadDataWithTranspose", {},
           {to, adaptor.getSrc(), params});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct FixpipeLowering : OpConversionPattern<ascendc::FixpipeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::FixpipeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto src = op.getSrc().getType();
    auto dst = cast<ShapedType>(op.getDst().getType());
    int64_t rows = src.getShape()[0];
    int64_t cols = src.getRank() > 1 ? src.getShape()[1] : 1;
    Value m = adaptor.getWindow().empty() ? indexConstant(rewriter, loc, rows)
                                          : adaptor.getWindow()[0];
    Value n = adaptor.getWindow().empty() ? indexConstant(rewriter, loc, cols)
                                          : adaptor.getWindow()[1];
    // L0C is NZ: a fractal column holds the mmad's m rows rounded up to 16
    // (the tensor's when no single mmad writes it).
    ascendc::MmadOp mmad = mmadOf(op.getSrc());
    Value m16 = mmad ? valueAt(rewriter, op, mmad.getM()) : Value();
    Value srcStride =
        m16 ? indexArith(
                  rewriter, loc, '*',
                  indexArith(rewriter, loc, '/',
                             indexArith(rewriter, loc, '+', m16,
                                        indexConstant(rewriter, loc, 15)),
                             indexConstant(rewriter, loc, 16)),
                  indexConstant(rewriter, loc, 16))
            : indexConstant(rewriter, loc, roundUp16(rows));
    if (auto local = dyn_cast<ascendc::LocalTensorType>(op.getDst().getType());
        local && sideOf(op.getDst()) != Side::UB)
      return op.emitOpError() << "moves the accumulator into a local tensor "
                                 "outside UB, which has no C++ form here";
    if (op.getAtomicAdd())
      bracketAtomicAdd(rewriter, op, op.getDst());
    Value dstStride = adaptor.getStrides().empty()
                          ? indexConstant(rewriter, loc, cols)
                          : adaptor.getStrides()[1];
    Value params = paramStruct(rewriter, loc, "AscendC::FixpipeParamsV220",
                               {{"nSize", n},
                                {"mSize", m},
                                {"srcStride", srcStride},
                                {"dstStride", dstStride}});
    call(rewriter, loc, "AscendC::Fixpipe", {},
         {adaptor.getDst(), adaptor.getSrc(), params}, {},
         {opaque(context, elementName(dst.getElementType())),
          opaque(context, elementName(src.getElementType())),
          opaque(context, "AscendC::CFG_ROW_MAJOR")});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void emit::populateTensorPatterns(AscendCToEmitCTypes &types,
                                  RewritePatternSet &patterns) {
  patterns
      .add<LocalTensorLowering, UnplannedLowering<ascendc::LocalTensorAutoOp>,
           UnplannedLowering<ascendc::TBufGetTensorOp>, ReinterpretCastLowering,
           GlobalSubIndexLowering, GlobalReshapeLowering, DataCopyLowering,
           LoadDataLowering, FixpipeLowering>(types, patterns.getContext());
}
