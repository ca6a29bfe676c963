//===- PTOOps.h - PTO operations ----------------------------------*- C++
//-*-===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOOPS_H
#define TILEKIT_DIALECT_PTO_IR_PTOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOTraits.h"
#include "tilekit/Interfaces/PipeOpInterface.h"

namespace tilekit::pto {
/// The families of ElementwiseOpInterface.
enum class ElementwiseFamily {
  Binary,    // f(lhs, rhs), same shapes
  Scalar,    // f(src, scalar)
  Unary,     // f(src)
  RowReduce, // fold each row to one value
  ColReduce, // fold each column to one value
  RowExpand, // f(lhs, rhs broadcast along rows: rhs is Mx1)
  ColExpand, // f(lhs, rhs broadcast along columns: rhs is 1xN)
};

/// Lanes of a vector register in a register scope (pto.reg_scope).
constexpr int64_t kVectorLanes = 64;
/// Whether `type` is a vector register (vector<64xf32>) or a lane mask
/// (vector<64xi1>) of a register scope.
bool isVectorRegister(mlir::Type type);
bool isLaneMask(mlir::Type type);
} // namespace tilekit::pto

#include "tilekit/Dialect/PTO/IR/PTOInterfaces.h.inc"

#define GET_OP_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOOps.h.inc"

#endif // TILEKIT_DIALECT_PTO_IR_PTOOPS_H
