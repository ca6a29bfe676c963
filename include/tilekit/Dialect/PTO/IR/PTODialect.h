//===- PTODialect.h - The PTO tile-program dialect ----------------*- C++ -*-===//
//
// Include this header to use the PTO dialect: it brings the dialect, its
// enums, attributes, types and ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTODIALECT_H
#define TILEKIT_DIALECT_PTO_IR_PTODIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h.inc"
#include "tilekit/Dialect/PTO/IR/PTOEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOAttrs.h.inc"

namespace tilekit::pto {

/// How a tile box is laid out in its buffer.
struct TileLayout {
  BLayout blayout;
  SLayout slayout;
  int64_t fractal;
};

/// The kind of the function that holds `op`, if it has one.
std::optional<FunctionKind> getEnclosingFunctionKind(mlir::Operation *op);

/// The kind attached to a function (`pto.kind`), if any.
std::optional<FunctionKind> getFunctionKind(mlir::Operation *func);

/// Checks a cross-core split code: 0-4, and 0-2 only when `allowOdd` is false
/// (vector-to-cube transfers have no odd variant).
mlir::LogicalResult
verifySplitCode(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                int64_t split, bool allowOdd);

} // namespace tilekit::pto

#define GET_TYPEDEF_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOTypes.h.inc"

#endif // TILEKIT_DIALECT_PTO_IR_PTODIALECT_H
