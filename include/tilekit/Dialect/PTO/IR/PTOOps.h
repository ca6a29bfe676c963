//===- PTOOps.h - PTO operations ----------------------------------*- C++
//-*-===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOOPS_H
#define TILEKIT_DIALECT_PTO_IR_PTOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOTraits.h"

#define GET_OP_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOOps.h.inc"

namespace tilekit::pto {

/// The operand roles of a cube matmul (tile.matmul, matmul_acc,
/// matmul_bias, batch_matmul(_acc), gemv(_acc)); absent roles are null.
struct MatmulOperands {
  mlir::Value lhs, rhs, acc, init, bias;
};

/// The roles of `op`'s operands when it is a cube matmul.
std::optional<MatmulOperands> getMatmulOperands(mlir::Operation *op);

} // namespace tilekit::pto

#endif // TILEKIT_DIALECT_PTO_IR_PTOOPS_H
