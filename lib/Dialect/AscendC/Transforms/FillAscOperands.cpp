//===- FillAscOperands.cpp - Default vector instruction operands ----------===//

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_FILLASCOPERANDS
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct FillAscOperandsPass
    : tilekit::ascendc::impl::FillAscOperandsBase<FillAscOperandsPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (auto l2 = dyn_cast<VectorL2OpInterface>(op))
        fill(l2);
      else if (auto l0 = dyn_cast<VectorL0OpInterface>(op))
        fill(l0);
    });
  }

  static void fill(VectorL2OpInterface l2) {
    if (l2.getCount())
      return;
    OpBuilder builder(l2);
    VectorExtent extent = getVectorExtent(l2);
    Value count =
        arith::ConstantIndexOp::create(builder, l2->getLoc(), extent.elements);
    l2.getCountMutable().assign(count);
  }

  static void fill(VectorL0OpInterface l0) {
    OpBuilder builder(l0);
    Location loc = l0->getLoc();
    L0Operands defaults = getDefaultL0Operands(l0);
    if (!l0.getMask() && !l0.getMaskHigh()) {
      l0.getMaskMutable().assign(
          arith::ConstantIndexOp::create(builder, loc, defaults.mask));
      l0.getRepeatMutable().assign(
          arith::ConstantIndexOp::create(builder, loc, defaults.repeat));
    }
    if (!l0.getStridesAttr())
      l0.setStridesAttr(builder.getDenseI64ArrayAttr(defaults.strides));
  }
};
} // namespace
