//===- VectorRepeat.h - How vector instructions repeat ----------*- C++ -*-===//
//
// The repeat arithmetic the vector-operand passes share: a repeat covers
// 256 bytes of the instruction's widest element.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_VECTORREPEAT_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_VECTORREPEAT_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

namespace tilekit::ascendc {

/// Bytes one repeat of a vector instruction covers.
inline constexpr int64_t kRepeatBytes = 256;

/// Repeats one vector instruction takes (its repeat field is 8 bits).
inline constexpr int64_t kMaxRepeats = 255;

/// What a vector instruction covers: elements of its destination (of its
/// inputs for compares, whose destination is a bit mask) and elements per
/// repeat.
struct VectorExtent {
  int64_t elements;
  int64_t perRepeat;
};

VectorExtent getVectorExtent(mlir::Operation *op);

/// What an L0 vector op without a mask, repeat count or strides means:
/// those ascendc-fill-asc-operands gives it. The mask and repeat cover the
/// whole tensor; each operand's repeats follow one another (block stride 1,
/// a repeat stride of the blocks one repeat covers in that operand's type;
/// 8 blocks for a compare's bit-mask destination).
struct L0Operands {
  int64_t mask, repeat;
  llvm::SmallVector<int64_t> strides; // block strides, then repeat strides
};
L0Operands getDefaultL0Operands(mlir::Operation *op);

/// The number of local tensor operands of `op`.
unsigned getNumTensorOperands(mlir::Operation *op);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_VECTORREPEAT_H
