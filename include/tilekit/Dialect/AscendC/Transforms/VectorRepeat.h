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

/// What a vector instruction covers: elements of its destination (of its
/// inputs for compares, whose destination is a bit mask) and elements per
/// repeat.
struct VectorExtent {
  int64_t elements;
  int64_t perRepeat;
};

VectorExtent getVectorExtent(mlir::Operation *op);

/// The number of local tensor operands of `op`.
unsigned getNumTensorOperands(mlir::Operation *op);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_VECTORREPEAT_H
