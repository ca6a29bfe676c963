//===- PTOTraits.h - Where PTO ops may be placed ------------------*- C++
//-*-===//
//
// Placement traits check the `pto.kind` of the function that holds an op: a
// cube op cannot run on a vector core, a tile op cannot run in an
// orchestration function, and so on. Functions without a kind accept all.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOTRAITS_H
#define TILEKIT_DIALECT_PTO_IR_PTOTRAITS_H

#include "mlir/IR/OpDefinition.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"

namespace tilekit::pto {

/// Fails with a diagnostic on `op` unless the kind of its enclosing function
/// is one of `allowed` (or the function has no kind). `what` names the
/// category of op in the message.
mlir::LogicalResult verifyPlacement(mlir::Operation *op,
                                    llvm::ArrayRef<FunctionKind> allowed,
                                    llvm::StringRef what);

/// Fails unless every tile `op` makes is in a buffer the core running its
/// function can reach: a cube (aic) function reaches L1, L0A/B/C and the
/// bias table, a vector (aiv) function UB (Machine.def, each buffer's
/// owner). In-core functions and functions without a kind reach all.
mlir::LogicalResult verifyReachableResults(mlir::Operation *op);

namespace OpTrait {

template <typename ConcreteType>
class InCoreOp : public mlir::OpTrait::TraitBase<ConcreteType, InCoreOp> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    if (failed(verifyPlacement(
            op, {FunctionKind::InCore, FunctionKind::AIC, FunctionKind::AIV},
            "tile op")))
      return mlir::failure();
    return verifyReachableResults(op);
  }
};

template <typename ConcreteType>
class CubeOp : public mlir::OpTrait::TraitBase<ConcreteType, CubeOp> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    if (failed(verifyPlacement(op, {FunctionKind::InCore, FunctionKind::AIC},
                               "cube op")))
      return mlir::failure();
    return verifyReachableResults(op);
  }
};

template <typename ConcreteType>
class VectorOp : public mlir::OpTrait::TraitBase<ConcreteType, VectorOp> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    if (failed(verifyPlacement(op, {FunctionKind::InCore, FunctionKind::AIV},
                               "vector op")))
      return mlir::failure();
    return verifyReachableResults(op);
  }
};

template <typename ConcreteType>
class OrchestrationOp
    : public mlir::OpTrait::TraitBase<ConcreteType, OrchestrationOp> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyPlacement(op, {FunctionKind::Orchestration}, "tensor op");
  }
};

/// A transfer between the cube core and a vector core: the pop, not the
/// push, records it in the trace.
template <typename ConcreteType>
class CrossCoreTransfer
    : public mlir::OpTrait::TraitBase<ConcreteType, CrossCoreTransfer> {};

} // namespace OpTrait
} // namespace tilekit::pto

#endif // TILEKIT_DIALECT_PTO_IR_PTOTRAITS_H
