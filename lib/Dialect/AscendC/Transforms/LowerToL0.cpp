//===- LowerToL0.cpp - Simple-level vector ops to the low level -----------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_LOWERTOL0
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct LowerToL0Pass : tilekit::ascendc::impl::LowerToL0Base<LowerToL0Pass> {
  void runOnOperation() override {
    SmallVector<VectorL2OpInterface> ops;
    getOperation().walk([&](VectorL2OpInterface op) { ops.push_back(op); });
    for (VectorL2OpInterface op : ops)
      if (failed(lower(op)))
        return signalPassFailure();
  }

  static LogicalResult lower(VectorL2OpInterface l2) {
    Operation *op = l2.getOperation();
    VectorExtent extent = getVectorExtent(op);
    std::optional<std::pair<int64_t, int64_t>> maskRepeat;
    if (Value count = l2.getCount()) {
      APInt constant;
      if (!matchPattern(count, m_ConstantInt(&constant)))
        return op->emitOpError("has a count known only at run time; "
                               "-ascendc-lower-to-l0 needs a constant");
      int64_t c = constant.getSExtValue();
      if (c <= 0 || c > extent.elements)
        return op->emitOpError()
               << "counts " << c << " elements of a tensor of "
               << extent.elements;
      if (c == extent.elements)
        ; // The whole tensor: the defaults will cover it.
      else if (c <= extent.perRepeat)
        maskRepeat = {c, 1};
      else if (c % extent.perRepeat == 0)
        maskRepeat = {extent.perRepeat, c / extent.perRepeat};
      else
        return op->emitOpError()
               << "counts " << c << " elements, not a multiple of the "
               << extent.perRepeat
               << " of one repeat: it needs a tail instruction";
    }

    StringRef name = op->getName().getStringRef();
    OperationState state(op->getLoc(), name.drop_back(2).str() + "l0");
    OpBuilder builder(op);
    SmallVector<int32_t> segments;
    for (Value operand : op->getOperands())
      if (operand != l2.getCount()) {
        state.addOperands(operand);
        segments.push_back(1);
      }
    segments.append({maskRepeat ? 1 : 0, maskRepeat ? 1 : 0});
    if (maskRepeat) {
      state.addOperands(arith::ConstantIndexOp::create(builder, op->getLoc(),
                                                       maskRepeat->first)
                            .getResult());
      state.addOperands(arith::ConstantIndexOp::create(builder, op->getLoc(),
                                                       maskRepeat->second)
                            .getResult());
    }
    for (StringRef inherent : {"round", "mode"})
      if (std::optional<Attribute> attr = op->getInherentAttr(inherent);
          attr && *attr)
        state.addAttribute(inherent, *attr);
    for (NamedAttribute attr : op->getDiscardableAttrs())
      state.addAttribute(attr.getName(), attr.getValue());
    state.addAttribute("operandSegmentSizes",
                       builder.getDenseI32ArrayAttr(segments));
    builder.create(state);
    op->erase();
    return success();
  }
};
} // namespace
