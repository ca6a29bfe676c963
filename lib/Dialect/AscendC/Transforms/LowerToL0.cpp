//===- LowerToL0.cpp - Simple-level vector ops to the low level -----------===//
//
// One typed rewrite pattern per L2/L0 pair: the count becomes a mask and a
// repeat count (or the defaults, when the count covers the whole tensor),
// and a count that is not whole repeats a second instruction for its tail,
// on views of the operands after the full repeats. A count known only at
// run time computes both as the kernel runs.
// Counts that cannot be expressed are diagnosed before any rewrite, so the
// pass either lowers everything or changes nothing.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// How the count of an L2 op becomes L0 instructions: none (`whole`: the
/// defaults cover the tensor), or count / perRepeat full repeats followed
/// by one repeat of the count % perRepeat elements left, on views that
/// start after the full ones. A `constant` count gives constant masks and
/// repeats; one known only at run time computes them as the kernel runs,
/// each instruction guarded by its being non-empty, the tail's view one
/// repeat long, or the tensor's last partial repeat where it starts there.
struct CountPlan {
  bool whole = false;
  int64_t elements = 0;
  int64_t perRepeat = 0;
  std::optional<int64_t> constant;
};

/// The instructions the L0 form of `l2` needs; a count it cannot express
/// is an error, reported on the op when `report` is set.
FailureOr<CountPlan> getCountPlan(VectorL2OpInterface l2, bool report) {
  Operation *op = l2.getOperation();
  auto fail = [&](auto &&emit) -> LogicalResult {
    if (report)
      emit(op->emitOpError());
    return failure();
  };
  Value count = l2.getCount();
  VectorExtent extent = getVectorExtent(op);
  CountPlan plan{!count, extent.elements, extent.perRepeat, std::nullopt};
  if (!count)
    return plan;
  APInt constant;
  if (!matchPattern(count, m_ConstantInt(&constant))) {
    return plan;
  }
  int64_t c = constant.getSExtValue();
  if (c <= 0 || c > extent.elements)
    return fail([&](InFlightDiagnostic &&d) {
      d << "counts " << c << " elements of a tensor of " << extent.elements;
    });
  plan.whole = c == extent.elements;
  plan.constant = c;
  return plan;
}

/// Creates the L0 op of `op`'s instruction: its tensor operands (views of
/// `viewElements` elements from `offset` when one is given), scalars and
/// attributes, with `mask` and `repeat` (the defaults when null).
template <typename L0>
void createL0(PatternRewriter &rewriter, Operation *op, Value count, Value mask,
              Value repeat, Value offset = {}, int64_t viewElements = 0) {
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  SmallVector<int32_t> segments;
  for (Value operand : op->getOperands()) {
    if (operand == count)
      continue;
    auto type = dyn_cast<LocalTensorType>(operand.getType());
    if (offset && type)
      operand = ReinterpretCastOp::create(
          rewriter, loc,
          LocalTensorType::get(rewriter.getContext(), {viewElements},
                               type.getElementType()),
          operand, offset);
    operands.push_back(operand);
    segments.push_back(1);
  }
  // mask, mask bits (high, low: never, a count is a count), repeat
  int32_t present = mask ? 1 : 0;
  segments.append({present, 0, 0, present});
  if (mask)
    operands.append({mask, repeat});
  SmallVector<NamedAttribute> attributes;
  for (StringRef inherent : {"round", "mode"})
    if (std::optional<Attribute> attr = op->getInherentAttr(inherent);
        attr && *attr)
      attributes.push_back(rewriter.getNamedAttr(inherent, *attr));
  llvm::append_range(attributes, op->getDiscardableAttrs());
  attributes.push_back(rewriter.getNamedAttr(
      "operandSegmentSizes", rewriter.getDenseI32ArrayAttr(segments)));
  L0::create(rewriter, loc, TypeRange(), operands, attributes);
}

/// Rewrites an `L2` op as the `L0` instructions of its count (CountPlan).
template <typename L2, typename L0>
struct LowerVectorOp : OpRewritePattern<L2> {
  using OpRewritePattern<L2>::OpRewritePattern;

  LogicalResult matchAndRewrite(L2 op,
                                PatternRewriter &rewriter) const override {
    auto l2 = cast<VectorL2OpInterface>(op.getOperation());
    FailureOr<CountPlan> plan = getCountPlan(l2, /*report=*/false);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "count not expressible at L0");
    Location loc = op.getLoc();
    Value count = l2.getCount();
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    int64_t per = plan->perRepeat;
    // Full repeats go 255 at a time past 255 (Ascend C's repeatTimes is a
    // uint8_t), each instruction on a view from its first repeat; a whole
    // tensor of more than 255 repeats spells its count out for that.
    bool spelled =
        plan->whole && llvm::divideCeil(plan->elements, per) > kMaxRepeats;
    std::optional<int64_t> constant =
        spelled ? std::optional<int64_t>(plan->elements) : plan->constant;
    if (plan->whole && !spelled) {
      createL0<L0>(rewriter, op, count, {}, {});
    } else if (std::optional<int64_t> c = constant) {
      int64_t repeats = *c / per, tail = *c % per;
      bool split = repeats > kMaxRepeats;
      for (int64_t first = 0; first < repeats; first += kMaxRepeats) {
        int64_t n = std::min(kMaxRepeats, repeats - first);
        Value mask = index(per), times = index(n);
        Value offset = split ? index(first * per) : Value();
        createL0<L0>(rewriter, op, count, mask, times, offset, n * per);
      }
      if (tail) {
        Value mask = index(tail), repeat = index(1);
        Value offset = repeats ? index(repeats * per) : Value();
        createL0<L0>(rewriter, op, count, mask, repeat, offset,
                     std::min(per, plan->elements - repeats * per));
      }
    } else {
      Value zero = index(0), one = index(1), perValue = index(per);
      Value repeats = arith::DivUIOp::create(rewriter, loc, count, perValue);
      Value tail = arith::RemUIOp::create(rewriter, loc, count, perValue);
      auto whenAbove = [&](Value value, Value bound) {
        Value above = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ugt, value, bound);
        auto guard = scf::IfOp::create(rewriter, loc, above,
                                       /*withElseRegion=*/false);
        rewriter.setInsertionPointToStart(guard.thenBlock());
        return guard;
      };
      int64_t wholeRepeats = plan->elements / per;
      int64_t partial = plan->elements % per;
      // The full repeats, those of each run of 255 under an scf.if that it
      // has any (a tensor shorter than a repeat has none).
      bool split = wholeRepeats > kMaxRepeats;
      for (int64_t first = 0; first < wholeRepeats; first += kMaxRepeats) {
        int64_t room = std::min(kMaxRepeats, wholeRepeats - first);
        Value from = first ? index(first) : zero;
        scf::IfOp full = whenAbove(repeats, from);
        Value times = repeats;
        if (split)
          times = arith::MinUIOp::create(
              rewriter, loc,
              arith::SubIOp::create(rewriter, loc, repeats, from), index(room));
        Value offset = split ? index(first * per) : Value();
        createL0<L0>(rewriter, op, count, perValue, times, offset, room * per);
        rewriter.setInsertionPointAfter(full);
      }
      scf::IfOp last = whenAbove(tail, zero);
      // The tail's view: one repeat where one fits after the full ones,
      // else (the count reaching into the tensor's last partial repeat)
      // that partial repeat, whose place is known.
      auto lastPartial = [&] {
        createL0<L0>(rewriter, op, count, tail, one, index(wholeRepeats * per),
                     partial);
      };
      if (!partial) {
        Value offset = arith::MulIOp::create(rewriter, loc, repeats, perValue);
        createL0<L0>(rewriter, op, count, tail, one, offset, per);
      } else if (!wholeRepeats) {
        lastPartial();
      } else {
        Value inside =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  repeats, index(wholeRepeats));
        auto fits = scf::IfOp::create(rewriter, loc, inside,
                                      /*withElseRegion=*/true);
        rewriter.setInsertionPointToStart(fits.thenBlock());
        Value offset = arith::MulIOp::create(rewriter, loc, repeats, perValue);
        createL0<L0>(rewriter, op, count, tail, one, offset, per);
        rewriter.setInsertionPointToStart(fits.elseBlock());
        lastPartial();
      }
      rewriter.setInsertionPointAfter(last);
    }
    rewriter.eraseOp(op);
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
        ok &= succeeded(getCountPlan(op, /*report=*/true));
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
