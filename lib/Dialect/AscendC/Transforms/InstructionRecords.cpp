//===- InstructionRecords.cpp - What an instruction's trace record fixes --===//

#include "tilekit/Dialect/AscendC/Transforms/InstructionRecords.h"

#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"

using namespace mlir;
using namespace tilekit::ascendc;

StringRef tilekit::ascendc::getRecordOpName(Operation *op) {
  StringRef name = op->getName().stripDialect();
  if (name.ends_with("_l2") || name.ends_with("_l0"))
    name = name.drop_back(3);
  return name;
}

Value tilekit::ascendc::getRecordTypedTensor(Operation *op) {
  SmallVector<TensorAccess> accesses = getTensorAccesses(op);
  for (const TensorAccess &access : accesses)
    if (isa<LocalTensorType>(access.tensor.getType()) && !access.writes)
      return access.tensor;
  for (const TensorAccess &access : accesses)
    if (isa<LocalTensorType>(access.tensor.getType()))
      return access.tensor;
  return Value();
}

int64_t tilekit::ascendc::getLargestOperandElements(Operation *op) {
  // An L2 op counts every operand; the others all but their scratch.
  Value scratch;
  if (auto withScratch = dyn_cast<ScratchOpInterface>(op);
      withScratch && !isa<VectorL2OpInterface>(op)) {
    MutableOperandRange tmp = withScratch.getTmpMutable();
    if (tmp.size())
      scratch = tmp[0].get();
  }
  int64_t elements = 0;
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<LocalTensorType>(operand.getType()))
      if (operand != scratch)
        elements = std::max(elements, type.getNumElements());
  return elements;
}
