//===- InstructionRecords.cpp - What an instruction's trace record fixes --===//

#include "tilekit/Dialect/AscendC/Transforms/InstructionRecords.h"

#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"

using namespace mlir;
using namespace tilekit::ascendc;

StringRef tilekit::ascendc::getRecordOpName(Operation *op) {
  auto along = [](int64_t axis, StringRef row, StringRef col) {
    return axis == 1 ? row : col;
  };
  if (auto reduce = dyn_cast<ReduceSumOp>(op))
    return along(reduce.getAxis(), "row_sum", "col_sum");
  if (auto reduce = dyn_cast<ReduceMaxOp>(op))
    return along(reduce.getAxis(), "row_max", "col_max");
  if (auto reduce = dyn_cast<ReduceMinOp>(op))
    return along(reduce.getAxis(), "row_min", "col_min");
  if (auto reduce = dyn_cast<ReduceProdOp>(op))
    return along(reduce.getAxis(), "row_prod", "col_prod");
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    return along(broadcast.getAxis(), "row_expand", "col_expand");
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

/// The local tensor operand with the most elements, but the scratch of an
/// op that is not L2 (an L2 op counts every operand).
static LocalTensorType getLargestOperand(Operation *op) {
  Value scratch;
  if (auto withScratch = dyn_cast<ScratchOpInterface>(op);
      withScratch && !isa<VectorL2OpInterface>(op)) {
    MutableOperandRange tmp = withScratch.getTmpMutable();
    if (tmp.size())
      scratch = tmp[0].get();
  }
  LocalTensorType largest;
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<LocalTensorType>(operand.getType()))
      if (operand != scratch &&
          (!largest || type.getNumElements() > largest.getNumElements()))
        largest = type;
  return largest;
}

int64_t tilekit::ascendc::getLargestOperandElements(Operation *op) {
  LocalTensorType largest = getLargestOperand(op);
  return largest ? largest.getNumElements() : 0;
}

int64_t tilekit::ascendc::getRecordColumns(Operation *op) {
  LocalTensorType largest = getLargestOperand(op);
  return largest && largest.getRank() ? largest.getShape().back() : 0;
}
