//===- AllocationSize.cpp - Bytes a local tensor occupies -----------------===//

#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilekit::ascendc {

int64_t getAllocationBytes(LocalTensorType type, Position position) {
  int64_t elementBytes = getElementBytes(type.getElementType());
  ArrayRef<int64_t> shape = type.getShape();
  bool fractal = llvm::is_contained(
      {Position::A1, Position::B1, Position::A2, Position::B2, Position::CO1},
      position);
  int64_t bytes = type.getNumElements() * elementBytes;
  // A vector instruction covers whole 256-byte repeats from the start of
  // its tensors (fill-asc-operands sets repeat = ceil(elements /
  // per repeat)), so a UB tensor occupies whole repeats: its last repeat
  // never writes into the next tensor. Seed departure: it rounds to 32 B.
  if (getBuffer(position) == Buffer::UB)
    return llvm::alignTo(bytes, kRepeatBytes);
  if (!fractal || shape.empty())
    return llvm::alignTo(bytes, kBlockBytes);

  int64_t cols = shape.back();
  int64_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
  int64_t batch = 1;
  for (int64_t d : shape.drop_back(std::min<size_t>(shape.size(), 2)))
    batch *= d;
  // The K dimension of the left operand is stored in 32-byte rows; every
  // other cube dimension in 16-element fractals.
  bool left = position == Position::A1 || position == Position::A2;
  int64_t colUnit =
      left ? std::max<int64_t>(1, kBlockBytes / elementBytes) : kFractalRows;
  return batch * llvm::alignTo(rows, kFractalRows) *
         llvm::alignTo(cols, colUnit) * elementBytes;
}

Position getAllocationPool(Position position) {
  switch (getBuffer(position)) {
  case Buffer::L1:
    return Position::A1;
  case Buffer::UB:
    return Position::VecCalc;
  default:
    return position;
  }
}

} // namespace tilekit::ascendc
