//===- LowerToL0.cpp - Simple-level vector ops to the low level -----------===//
//
// One typed rewrite pattern per L2/L0 pair: the count becomes a mask and a
// repeat count (or the defaults, when the count covers the whole tensor).
// Counts that cannot be expressed are diagnosed before any rewrite, so the
// pass either lowers everything or changes nothing.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_LOWERTOL0
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

/// The mask (elements per repeat) and repeat count an L0 instruction needs
/// for the count of `l2`; none when the count covers the whole destination
/// (the defaults do). A count the L0 form cannot express is an error,
/// reported on the op when `report` is set.
FailureOr<std::optional<std::pair<int64_t, int64_t>>>
getMaskRepeat(VectorL2OpInterface l2, bool report) {
  Operation *op = l2.getOperation();
  auto fail = [&](auto &&emit) -> LogicalResult {
    if (report)
      emit(op->emitOpError());
    return failure();
  };
  Value count = l2.getCount();
  if (!count)
    return std::optional<std::pair<int64_t, int64_t>>();
  VectorExtent extent = getVectorExtent(op);
  APInt constant;
  if (!matchPattern(count, m_ConstantInt(&constant)))
    return fail([](InFlightDiagnostic &&d) {
      d << "has a count known only at run time; -ascendc-lower-to-l0 needs "
           "a constant";
    });
  int64_t c = constant.getSExtValue();
  if (c <= 0 || c > extent.elements)
    return fail([&](InFlightDiagnostic &&d) {
      d << "counts " << c << " elements of a tensor of " << extent.elements;
    });
  if (c == extent.elements)
    return std::optional<std::pair<int64_t, int64_t>>();
  if (c <= extent.perRepeat)
    return std::optional(std::make_pair(c, int64_t(1)));
  if (c % extent.perRepeat == 0)
    return std::optional(
        std::make_pair(extent.perRepeat, c / extent.perRepeat));
  return fail([&](InFlightDiagnostic &&d) {
    d << "counts " << c << " elements, not a multiple of the "
      << extent.perRepeat << " of one repeat: it needs a tail instruction";
  });
}

/// Rewrites an `L2` op as the `L0` op of the same instruction: the same
/// tensor and scalar operands and attributes, the count replaced by mask
/// and repeat.
template <typename L2, typename L0>
struct LowerVectorOp : OpRewritePattern<L2> {
  using OpRewritePattern<L2>::OpRewritePattern;

  LogicalResult matchAndRewrite(L2 op,
                                PatternRewriter &rewriter) const override {
    auto l2 = cast<VectorL2OpInterface>(op.getOperation());
    auto maskRepeat = getMaskRepeat(l2, /*report=*/false);
    if (failed(maskRepeat))
      return rewriter.notifyMatchFailure(op, "count not expressible at L0");
    Location loc = op.getLoc();
    SmallVector<Value> operands;
    SmallVector<int32_t> segments;
    for (Value operand : op->getOperands())
      if (operand != l2.getCount()) {
        operands.push_back(operand);
        segments.push_back(1);
      }
    // mask, mask bits (high, low: never, a count is a count), repeat
    int32_t present = maskRepeat->has_value() ? 1 : 0;
    segments.append({present, 0, 0, present});
    if (*maskRepeat) {
      operands.push_back(
          arith::ConstantIndexOp::create(rewriter, loc, (*maskRepeat)->first));
      operands.push_back(
          arith::ConstantIndexOp::create(rewriter, loc, (*maskRepeat)->second));
    }
    SmallVector<NamedAttribute> attributes;
    for (StringRef inherent : {"round", "mode"})
      if (std::optional<Attribute> attr = op->getInherentAttr(inherent);
          attr && *attr)
        attributes.push_back(rewriter.getNamedAttr(inherent, *attr));
    llvm::append_range(attributes, op->getDiscardableAttrs());
    attributes.push_back(rewriter.getNamedAttr(
        "operandSegmentSizes", rewriter.getDenseI32ArrayAttr(segments)));
    rewriter.replaceOpWithNewOp<L0>(op, TypeRange(), operands, attributes);
    return success();
  }
};

} // namespace

void tilekit::ascendc::populateLowerToL0Patterns(RewritePatternSet &patterns) {
  patterns
      .add<LowerVectorOp<AbsL2Op, AbsL0Op>, LowerVectorOp<ExpL2Op, ExpL0Op>,
           LowerVectorOp<LnL2Op, LnL0Op>, LowerVectorOp<SqrtL2Op, SqrtL0Op>,
           LowerVectorOp<RsqrtL2Op, RsqrtL0Op>,
           LowerVectorOp<ReciprocalL2Op, ReciprocalL0Op>,
           LowerVectorOp<ReluL2Op, ReluL0Op>, LowerVectorOp<NotL2Op, NotL0Op>,
           LowerVectorOp<AddL2Op, AddL0Op>, LowerVectorOp<SubL2Op, SubL0Op>,
           LowerVectorOp<MulL2Op, MulL0Op>, LowerVectorOp<DivL2Op, DivL0Op>,
           LowerVectorOp<MaxL2Op, MaxL0Op>, LowerVectorOp<MinL2Op, MinL0Op>,
           LowerVectorOp<AndL2Op, AndL0Op>, LowerVectorOp<OrL2Op, OrL0Op>,
           LowerVectorOp<AddsL2Op, AddsL0Op>, LowerVectorOp<MulsL2Op, MulsL0Op>,
           LowerVectorOp<MaxsL2Op, MaxsL0Op>, LowerVectorOp<MinsL2Op, MinsL0Op>,
           LowerVectorOp<ShiftLeftL2Op, ShiftLeftL0Op>,
           LowerVectorOp<ShiftRightL2Op, ShiftRightL0Op>,
           LowerVectorOp<DuplicateL2Op, DuplicateL0Op>,
           LowerVectorOp<CastL2Op, CastL0Op>>(patterns.getContext());
}

/// The ops whose count form stays (VectorL2OpInterface::lowersToL0): the
/// advanced API's math functions, which have no other, and compare, whose
/// L0 instruction lays its result bits out per repeat, which neither the
/// executor nor the CPU runtime models, so its lowering could not be
/// checked (and was not kept bit for bit).
static bool staysAtL2(Operation *op) {
  return !cast<VectorL2OpInterface>(op).lowersToL0();
}

namespace {

struct LowerToL0Pass : tilekit::ascendc::impl::LowerToL0Base<LowerToL0Pass> {
  void runOnOperation() override {
    // Diagnose first: either every L2 op lowers or nothing changes.
    bool ok = true;
    getOperation().walk([&](VectorL2OpInterface op) {
      if (!staysAtL2(op))
        ok &= succeeded(getMaskRepeat(op, /*report=*/true));
    });
    if (!ok)
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateLowerToL0Patterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // An L2 op without a pattern is a missing pair above.
    getOperation().walk([&](VectorL2OpInterface op) {
      if (staysAtL2(op))
        return;
      op->emitOpError("has no low-level form in -ascendc-lower-to-l0");
      ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
