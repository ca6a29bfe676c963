//===- PTOToAscendC.h - Lowering PTO kernels to AscendC ---------*- C++ -*-===//
//
// Two passes (include/tilekit/Conversion/Passes.td, docs/Passes/
// ConversionPasses.md): `pto-merge-groups` writes each cube/vector group's
// kernel body from its members; `convert-pto-to-ascendc` lowers PTO
// kernels to the AscendC dialect for the module's `ascendc.arch` (c220
// without one). `ascendc-form-core-groups` then splits the kernels that
// use both cores into if_aic / if_aiv groups. A PTO op without a lowering
// is an error naming it; the table is in docs/compile.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_CONVERSION_PTOTOASCENDC_H
#define TILEKIT_CONVERSION_PTOTOASCENDC_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilekit {

/// The mark of a function pto-merge-groups built from a group, which
/// convert-pto-to-ascendc drops.
inline constexpr llvm::StringLiteral kMergedGroupAttr = "tilekit.merged_group";

/// Whether `module` holds groups merged and not yet lowered: a form that
/// runs only once lowered (one function holds both cores' ops and
/// transfers).
bool holdsMergedGroups(mlir::ModuleOp module);

/// Whether convert-pto-to-ascendc has a pattern that takes `name`: the one
/// rule for what compiles (the pass, `tilekit check --arch` and the op
/// coverage test ask it).
bool isLoweredToAscendC(mlir::OperationName name);

/// For an op that is not lowered: how to write it instead (empty when no
/// advice is known).
std::string ascendCInsteadOf(mlir::OperationName name);

/// Replaces each call that passes or returns a tile by the callee's body
/// (innermost first) and drops the helpers no call reaches any more: a
/// kernel's tiles live in one function (the lowering and the trace
/// producer both start so). An error at a call it cannot inline.
mlir::LogicalResult inlineTileCalls(mlir::ModuleOp module);

#define GEN_PASS_DECL
#include "tilekit/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilekit/Conversion/Passes.h.inc"

} // namespace tilekit

#endif // TILEKIT_CONVERSION_PTOTOASCENDC_H
