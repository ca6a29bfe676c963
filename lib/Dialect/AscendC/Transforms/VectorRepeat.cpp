//===- VectorRepeat.cpp - How vector instructions repeat ------------------===//

#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"
#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"

using namespace mlir;

namespace tilekit::ascendc {

VectorExtent getVectorExtent(Operation *op) {
  bool compare = isa<CompareL2Op, CompareL0Op>(op);
  int64_t bytes = 1;
  for (auto [index, operand] : llvm::enumerate(op->getOperands()))
    if (auto type = dyn_cast<LocalTensorType>(operand.getType());
        type && !(compare && index == 0))
      bytes = std::max(bytes, getElementBytes(type.getElementType()));
  auto source =
      cast<LocalTensorType>(op->getOperand(compare ? 1 : 0).getType());
  return {source.getNumElements(), kRepeatBytes / bytes};
}

L0Operands getDefaultL0Operands(Operation *op) {
  VectorExtent extent = getVectorExtent(op);
  L0Operands operands{
      std::min(extent.elements, extent.perRepeat),
      static_cast<int64_t>(llvm::divideCeil(extent.elements, extent.perRepeat)),
      {}};
  // The seed says 8 blocks for every operand, which is right for the widest
  // type but skips half of every repeat of the f16 source of an f16 -> f32
  // cast (on the machine, Cast takes {1, 1, 8, 4}).
  bool compare = isa<CompareL0Op>(op);
  SmallVector<int64_t> repeatStrides;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<LocalTensorType>(operand.getType());
    if (!type)
      continue;
    operands.strides.push_back(1);
    int64_t bytes = extent.perRepeat * getElementBytes(type.getElementType());
    repeatStrides.push_back(
        compare && index == 0 ? 8 : std::max<int64_t>(1, bytes / kBlockBytes));
  }
  operands.strides.append(repeatStrides);
  return operands;
}

unsigned getNumTensorOperands(Operation *op) {
  return llvm::count_if(op->getOperandTypes(),
                        [](Type type) { return isa<LocalTensorType>(type); });
}

} // namespace tilekit::ascendc
