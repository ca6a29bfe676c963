//===- OutlineTensorCompute.h - Which tensor ops get a kernel ---*- C++ -*-===//
//
// pto-outline-tensor-compute's conditions, for the diagnostics of the ops
// it leaves.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_TRANSFORMS_OUTLINETENSORCOMPUTE_H
#define TILEKIT_DIALECT_PTO_TRANSFORMS_OUTLINETENSORCOMPUTE_H

#include "mlir/IR/Operation.h"

#include <string>

namespace tilekit::pto {

/// For an orchestration op of a kind pto-outline-tensor-compute writes
/// kernels for, when it does ("for a result of static shape", ...); empty
/// for the kinds it never takes (accumulating matmuls, reads).
std::string whyTensorOpStays(mlir::Operation *op);

} // namespace tilekit::pto

#endif // TILEKIT_DIALECT_PTO_TRANSFORMS_OUTLINETENSORCOMPUTE_H
