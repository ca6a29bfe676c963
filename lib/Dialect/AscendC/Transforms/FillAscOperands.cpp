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

/// Block stride 1 for each tensor operand; a repeat stride of 8 blocks for
/// the compare mask destination.
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
      // Each operand's repeats follow one another: a repeat stride of the
      // bytes one repeat covers in that operand's element type. The seed
      // says 8 blocks for every operand, which is that for the widest type
      // but skips half of every repeat of the f16 source of an f16 -> f32
      // cast (on the machine, Cast takes {1, 1, 8, 4}).
      VectorExtent extent = getVectorExtent(l0);
      bool compare = isa<CompareL0Op>(l0.getOperation());
      SmallVector<int64_t> blockStrides, repeatStrides;
      for (auto [index, operand] : llvm::enumerate(l0->getOperands())) {
        auto type = dyn_cast<LocalTensorType>(operand.getType());
        if (!type)
          continue;
        blockStrides.push_back(kBlockStride);
        int64_t bytes =
            extent.perRepeat * getElementBytes(type.getElementType());
        repeatStrides.push_back(
            compare && index == 0 ? kRepeatStride
                                  : std::max<int64_t>(1, bytes / kBlockBytes));
      }
      blockStrides.append(repeatStrides);
      l0.setStridesAttr(builder.getDenseI64ArrayAttr(blockStrides));
    }
  }
};
} // namespace
