//===- FillAscOperands.cpp - Default vector instruction operands ----------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_FILLASCOPERANDS
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

/// Block stride 1 and repeat stride 8 for each tensor operand.
static constexpr int64_t kBlockStride = 1, kRepeatStride = 8;

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
    if (!l0.getMask()) {
      VectorExtent extent = getVectorExtent(l0);
      int64_t mask = std::min(extent.elements, extent.perRepeat);
      int64_t repeat = llvm::divideCeil(extent.elements, extent.perRepeat);
      l0.getMaskMutable().assign(
          arith::ConstantIndexOp::create(builder, loc, mask));
      l0.getRepeatMutable().assign(
          arith::ConstantIndexOp::create(builder, loc, repeat));
    }
    if (!l0.getStridesAttr()) {
      unsigned tensors = getNumTensorOperands(l0);
      SmallVector<int64_t> strides(tensors, kBlockStride);
      strides.append(tensors, kRepeatStride);
      l0.setStridesAttr(builder.getDenseI64ArrayAttr(strides));
    }
  }
};
} // namespace
