//===- AllocationSize.h - Bytes a local tensor occupies ---------*- C++ -*-===//
//
// The sizing rules memory planning and lifetime-based reuse share, so that
// both agree on how much of a buffer a tensor takes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_ALLOCATIONSIZE_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_ALLOCATIONSIZE_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

namespace tilekit::ascendc {

/// The 32-byte block: the unit of vector strides, and what bias
/// allocations round to.
inline constexpr int64_t kBlockBytes = 32;
/// Cube fractals are this many rows (and columns, outside the K dimension).
inline constexpr int64_t kFractalRows = 16;

/// The bytes a tensor of `type` occupies at `position`.
int64_t getAllocationBytes(LocalTensorType type, Position position);

/// The position whose running address a position allocates from: L1
/// positions from a1, UB positions from veccalc.
Position getAllocationPool(Position position);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_ALLOCATIONSIZE_H
