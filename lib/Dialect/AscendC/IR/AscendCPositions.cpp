//===- AscendCPositions.cpp - Positions, buffers and element sizes --------===//

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

using namespace mlir;

namespace tilekit::ascendc {

Buffer getBuffer(Position position) {
  switch (position) {
  case Position::A1:
  case Position::B1:
  case Position::C1:
    return Buffer::L1;
  case Position::A2:
    return Buffer::L0A;
  case Position::B2:
    return Buffer::L0B;
  case Position::CO1:
    return Buffer::L0C;
  case Position::C2:
    return Buffer::BT;
  case Position::CO2:
  case Position::VecIn:
  case Position::VecOut:
  case Position::VecCalc:
    return Buffer::UB;
  }
  llvm_unreachable("every position belongs to a buffer");
}

StringRef getBufferName(Buffer buffer) {
  switch (buffer) {
  case Buffer::L1:
    return "L1";
  case Buffer::L0A:
    return "L0A";
  case Buffer::L0B:
    return "L0B";
  case Buffer::L0C:
    return "L0C";
  case Buffer::UB:
    return "UB";
  case Buffer::BT:
    return "BT";
  }
  llvm_unreachable("every buffer has a name");
}

std::optional<Position> getPosition(Value localTensor) {
  Operation *def = localTensor.getDefiningOp();
  while (auto cast = llvm::dyn_cast_if_present<ReinterpretCastOp>(def))
    def = cast.getSource().getDefiningOp();
  if (auto placeholder = llvm::dyn_cast_if_present<LocalTensorAutoOp>(def))
    return placeholder.getPosition();
  if (auto addressed = llvm::dyn_cast_if_present<LocalTensorOp>(def))
    return addressed.getPosition();
  if (auto buffered = llvm::dyn_cast_if_present<TBufGetTensorOp>(def))
    return buffered.getPosition();
  return std::nullopt;
}

std::optional<Pipe> getOpPipe(Operation *op) {
  if (auto copy = dyn_cast<DataCopyOp>(op)) {
    if (!isa<LocalTensorType>(copy.getSrc().getType()))
      return Pipe::MTE2;
    std::optional<Position> src = getPosition(copy.getSrc());
    if (src && getBuffer(*src) == Buffer::L1)
      return Pipe::MTE1;
    return Pipe::MTE3;
  }
  if (isa<LoadDataOp>(op))
    return Pipe::MTE1;
  if (isa<MmadOp>(op))
    return Pipe::M;
  if (isa<FixpipeOp>(op))
    return Pipe::FIX;
  if (isa<DumpTensorOp, PrintfOp>(op))
    return Pipe::S;
  if (op->getDialect() && isa<AscendCDialect>(op->getDialect()) &&
      op->getNumOperands() > 0 &&
      isa<LocalTensorType>(op->getOperand(0).getType()) &&
      !isa<ReinterpretCastOp>(op))
    return Pipe::V; // Every other instruction on local tensors is vector.
  return std::nullopt;
}

int64_t getElementBytes(Type type) {
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

} // namespace tilekit::ascendc
