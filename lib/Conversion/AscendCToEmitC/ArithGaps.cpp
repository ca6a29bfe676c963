//===- ArithGaps.cpp - The arith ops MLIR's EmitC conversion leaves -------===//
//
// MLIR's arith-to-EmitC patterns have no rule for integer min/max, unsigned
// division and remainder, or the ceiling and floor divisions. The kernel's
// C++ and the trace producers both need every integer op an orchestration
// may use for its indices, so the rules live here once.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/AscendCToEmitC.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

/// The unsigned C++ type of an integer or index type.
Type unsignedTypeOf(Type type, OpBuilder &builder) {
  if (type.isIndex())
    return emitc::SizeTType::get(type.getContext());
  return builder.getIntegerType(type.getIntOrFloatBitWidth(),
                                /*isSigned=*/false);
}

/// min / max: a compare and a conditional, over the unsigned type for the
/// unsigned forms.
template <typename From, emitc::CmpPredicate Predicate, bool Unsigned>
struct MinMaxLowering : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type)
      return op.emitOpError() << "has a type with no C++ form here";
    // min(x, x) is x (clang -Wall rejects the self-comparison).
    if (lhs == rhs) {
      rewriter.replaceOp(op, lhs);
      return success();
    }
    Value a = lhs, b = rhs;
    if (Unsigned) {
      Type unsignedType = unsignedTypeOf(op.getType(), rewriter);
      a = emitc::CastOp::create(rewriter, loc, unsignedType, lhs);
      b = emitc::CastOp::create(rewriter, loc, unsignedType, rhs);
    }
    Value pick = emitc::CmpOp::create(rewriter, loc, rewriter.getI1Type(),
                                      Predicate, a, b);
    rewriter.replaceOpWithNewOp<emitc::ConditionalOp>(op, type, pick, lhs, rhs);
    return success();
  }
};

/// Unsigned division and remainder: the operands cast to the unsigned type,
/// the C++ operator, the result cast back.
template <typename From, typename To>
struct UnsignedDivisionLowering : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type || !op.getType().isIntOrIndex())
      return rewriter.notifyMatchFailure(op, "not a scalar integer");
    Type unsignedType = unsignedTypeOf(op.getType(), rewriter);
    Value a =
        emitc::CastOp::create(rewriter, loc, unsignedType, adaptor.getLhs());
    Value b =
        emitc::CastOp::create(rewriter, loc, unsignedType, adaptor.getRhs());
    Value result = To::create(rewriter, loc, unsignedType, a, b);
    rewriter.replaceOpWithNewOp<emitc::CastOp>(op, type, result);
    return success();
  }
};

/// A float op as a call of the executor's own rule for it
/// (tilekit/Interp/MachineArith.h), so that NaN and signed zeros come out
/// as `tilekit run` computes them.
template <typename From> struct MachineArithCall : OpConversionPattern<From> {
  MachineArithCall(const TypeConverter &types, MLIRContext *context,
                   StringRef callee)
      : OpConversionPattern<From>(types, context), callee(callee) {}
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type || !isa<FloatType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a scalar float");
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, type, callee, ValueRange{adaptor.getLhs(), adaptor.getRhs()});
    return success();
  }
  std::string callee;
};

} // namespace

void tilekit::populateArithFloatGapsToEmitCPatterns(
    TypeConverter &types, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<MachineArithCall<arith::RemFOp>>(types, context, "std::fmod");
  patterns.add<MachineArithCall<arith::MaximumFOp>>(
      types, context, "tilekit::interp::maximumPropagatingNaN");
  patterns.add<MachineArithCall<arith::MinimumFOp>>(
      types, context, "tilekit::interp::minimumPropagatingNaN");
  patterns.add<MachineArithCall<arith::MaxNumFOp>>(types, context,
                                                   "tilekit::interp::maxNum");
  patterns.add<MachineArithCall<arith::MinNumFOp>>(types, context,
                                                   "tilekit::interp::minNum");
}

void tilekit::populateArithGapsToEmitCPatterns(TypeConverter &types,
                                               RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<MinMaxLowering<arith::MinSIOp, emitc::CmpPredicate::lt, false>,
               MinMaxLowering<arith::MaxSIOp, emitc::CmpPredicate::gt, false>,
               MinMaxLowering<arith::MinUIOp, emitc::CmpPredicate::lt, true>,
               MinMaxLowering<arith::MaxUIOp, emitc::CmpPredicate::gt, true>,
               UnsignedDivisionLowering<arith::DivUIOp, emitc::DivOp>,
               UnsignedDivisionLowering<arith::RemUIOp, emitc::RemOp>>(types,
                                                                       context);
  // ceildivsi, ceildivui and floordivsi become divisions, compares and
  // selects, which the rules above and MLIR's take on.
  arith::populateCeilFloorDivExpandOpsPatterns(patterns);
}
