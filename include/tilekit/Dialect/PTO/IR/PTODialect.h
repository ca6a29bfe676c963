//===- PTODialect.h - The PTO tile-program dialect ----------------*- C++
//-*-===//
//
// Include this header to use the PTO dialect: it brings the dialect, its
// enums, attributes, types and ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTODIALECT_H
#define TILEKIT_DIALECT_PTO_IR_PTODIALECT_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "tilekit/Machine/Machine.h"

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

/// The buffer a memory space lives in (Machine.def, TILEKIT_PTO_SPACE).
machine::Buffer getBuffer(MemorySpace space);

/// The kind of the function that holds `op`, if it has one.
std::optional<FunctionKind> getEnclosingFunctionKind(mlir::Operation *op);

/// The kind attached to a function (`pto.kind`), if any.
std::optional<FunctionKind> getFunctionKind(mlir::Operation *func);

/// Checks a cross-core split code: one of the machine's (Machine.def,
/// TILEKIT_SPLIT), and not an odd one when `allowOdd` is false
/// (vector-to-cube transfers have no odd variant).
mlir::LogicalResult
verifySplitCode(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                int64_t split, bool allowOdd);

/// How a group function runs: the cube and vector functions it pairs, the
/// split of its pipes and the number of vector lanes.
struct GroupInfo {
  mlir::Operation *aic = nullptr;
  mlir::Operation *aiv = nullptr;
  /// The group's `pto.split`, or the aiv function's when the group has 0.
  int64_t split = 0;
  /// `pto.dual_aiv_dispatch` of the group or its aiv function.
  bool dualAivDispatch = false;
  /// Two lanes for split transfers or dual dispatch, otherwise one.
  unsigned numLanes() const { return split != 0 || dualAivDispatch ? 2 : 1; }
};

/// Resolves a verified group function (kind `group`). The pair comes from
/// `pto.aic` / `pto.aiv`, else from the `<group>_aic` / `<group>_aiv` names.
/// Returns std::nullopt when a member is missing or of the wrong kind.
std::optional<GroupInfo> resolveGroup(mlir::Operation *group);

} // namespace tilekit::pto

#define GET_TYPEDEF_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOTypes.h.inc"

#endif // TILEKIT_DIALECT_PTO_IR_PTODIALECT_H
