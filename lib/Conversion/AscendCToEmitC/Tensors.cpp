//===- Tensors.cpp - Tensors and data movement to EmitC -------------------===//
//
//   local_tensor pos addr A  -> AscendC::LocalTensor<T>(TPosition::POS, A,
//                               elements) (static tensor programming)
//   reinterpret_cast         -> the same object, or src.ReinterpretCast<U>()
//   global_tensor.subindex   -> gm[offset]
//   data_copy (count)        -> AscendC::DataCopy(dst, src, count)
//   data_copy (window) GM<->UB -> AscendC::DataCopyPad(dst, src,
//                               DataCopyExtParams{...}[, DataCopyPadExtParams])
//                    GM->L1  -> AscendC::DataCopy(dst, src, Nd2NzParams{...})
//                    UB->UB  -> AscendC::DataCopy(dst, src,
//                    DataCopyParams{...})
//   load_data                -> AscendC::LoadData(dst, src, LoadData2DParams)
//   fixpipe                  -> AscendC::Fixpipe<D, S, CFG_ROW_MAJOR>(dst, src,
//                               FixpipeParamsV220{...})
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::emit;

namespace {

int64_t bytesOf(Type element) { return element.getIntOrFloatBitWidth() / 8; }

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
    // A LocalTensor has no shape: a view of the same elements is the same
    // object.
    if (type == adaptor.getSource().getType()) {
      rewriter.replaceOp(op, adaptor.getSource());
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
        ValueRange{object, adaptor.getSource()});
    rewriter.replaceOpWithNewOp<emitc::LoadOp>(op, type, object);
    return success();
  }
};

struct GlobalSubIndexLowering : OpConversionPattern<ascendc::GlobalSubIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::GlobalSubIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Value element = emitc::SubscriptOp::create(
        rewriter, op.getLoc(), emitc::LValueType::get(type),
        adaptor.getSource(), ValueRange{adaptor.getOffset()});
    rewriter.replaceOpWithNewOp<emitc::LoadOp>(op, type, element);
    return success();
  }
};

/// Where a tensor lives, for choosing a copy's form.
enum class Side { GM, UB, L1, Other };
Side sideOf(Value tensor) {
  if (isa<ascendc::GlobalTensorType>(tensor.getType()))
    return Side::GM;
  std::optional<ascendc::Position> position = ascendc::getPosition(tensor);
  if (!position)
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

struct DataCopyLowering : OpConversionPattern<ascendc::DataCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::DataCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
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
      call(rewriter, loc, "AscendC::DataCopy", {},
           {adaptor.getDst(), adaptor.getSrc(), count});
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
      // ND rows into the cube's NZ fractals (16 rows of 32 bytes).
      Value one = constant(1), zero = constant(0);
      Value fractalRows = times(
          blocks(times(indexArith(rewriter, loc, '+', rows, constant(15)), 2)),
          16);
      Value params = paramStruct(rewriter, loc, "AscendC::Nd2NzParams",
                                 {{"ndNum", one},
                                  {"nValue", rows},
                                  {"dValue", cols},
                                  {"srcNdMatrixStride", zero},
                                  {"srcDValue", srcStride},
                                  {"dstNzC0Stride", fractalRows},
                                  {"dstNzNStride", one},
                                  {"dstNzMatrixStride", zero}});
      call(rewriter, loc, "AscendC::DataCopy", {},
           {adaptor.getDst(), adaptor.getSrc(), params});
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

/// L1 into L0A / L0B in 512-byte fractals.
struct LoadDataLowering : OpConversionPattern<ascendc::LoadDataOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ascendc::LoadDataOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dst = op.getDst().getType();
    int64_t bytes = dst.getNumElements() * bytesOf(dst.getElementType());
    Value params = paramStruct(
        rewriter, loc, "AscendC::LoadData2DParams",
        {{"repeatTimes", indexConstant(rewriter, loc, (bytes + 511) / 512)},
         {"srcStride", indexConstant(rewriter, loc, 1)},
         {"ifTranspose",
          emitc::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                    rewriter.getBoolAttr(op.getTranspose()))}});
    call(rewriter, loc, "AscendC::LoadData", {},
         {adaptor.getDst(), adaptor.getSrc(), params});
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
    Value srcStride = adaptor.getStrides().empty()
                          ? indexConstant(rewriter, loc, cols)
                          : adaptor.getStrides()[0];
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
           GlobalSubIndexLowering, DataCopyLowering, LoadDataLowering,
           FixpipeLowering>(types, patterns.getContext());
}
