//===- VectorRepeat.cpp - How vector instructions repeat ------------------===//

#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

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

unsigned getNumTensorOperands(Operation *op) {
  return llvm::count_if(op->getOperandTypes(),
                        [](Type type) { return isa<LocalTensorType>(type); });
}

} // namespace tilekit::ascendc
