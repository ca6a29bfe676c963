//===- CompilePipeline.h - What `tilekit compile --arch` runs ---*- C++ -*-===//
//
// The passes that compile a kernel for an architecture, shared by `tilekit
// compile` and the Python module's `compile`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_COMPILEPIPELINE_H
#define TILEKIT_DRIVER_COMPILEPIPELINE_H

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"

namespace tilekit::driver {

/// Whether `module` holds PTO ops (it is lowered to AscendC first) rather
/// than AscendC ones (they go straight into the pipeline).
bool holdsPTO(mlir::ModuleOp module);

/// The capacity gate before a PTO kernel is lowered (and run): a work item
/// that cannot fit a buffer is an error, one taking more than half of it a
/// warning with `warnHalfBuffers` (planned on a copy with `capacities`, a
/// machine config's).
mlir::LogicalResult checkWorkItemsFit(mlir::ModuleOp module,
                                      const pto::BufferCapacities &capacities,
                                      bool warnHalfBuffers = true);

/// Makes the orchestration's data ops on whole tensors the kernels compile
/// writes for them (pto-outline-tensor-compute), in place: what `sim` and
/// the trace producers time. A failure has been reported as diagnostics.
mlir::LogicalResult outlineTensorCompute(mlir::ModuleOp module);

/// The orchestration's data ops of a PTO module as `sim` times them with
/// the executor's producer (the command and Python alike): the kernels
/// compile writes for them, in place; where compile refuses one, none, with
/// a warning, and the executor runs the ops untimed. Whether it wrote them.
bool outlineForTiming(mlir::ModuleOp module);

/// Erases the functions of `module` that `entry` does not reach through
/// symbol uses (calls) or, for a group, through its members: one kernel of a
/// file compiles whatever the file's others do.
void keepReachable(mlir::ModuleOp module, mlir::FunctionOpInterface entry);

/// Marks a PTO module with the arch its lowering targets (the paths between
/// the cores differ); the pipeline's first pass checks the mark.
void markArch(mlir::ModuleOp module, ascendc::Arch arch);

/// Fills `pm` with the compilation of `module` for `arch`: a PTO module is
/// marked (markArch) and lowered, then the arch's AscendC pipeline runs.
/// `stopAfter` names the last pass ("ascendc-form-core-groups": the
/// lowering only; empty: all). False when no pass of the pipeline is named
/// `stopAfter`. The pipeline's capacity check holds buffers to `capacities`;
/// a launch spreads its items over `cores` AI cores (0: the arch's). With
/// `plan.doubleBuffer`, a PTO kernel's load loops are double-buffered first
/// by the rule memory planning has (pto-plan-memory's `double-buffer`).
bool buildCompilePipeline(mlir::PassManager &pm, mlir::ModuleOp module,
                          ascendc::Arch arch, bool lowerToL0,
                          llvm::StringRef stopAfter,
                          const pto::BufferCapacities &capacities,
                          unsigned cores = 0,
                          const pto::PlanOptions &plan = {});

/// Compiles `module` for `arch` in place, as `tilekit compile --arch` does
/// with no other option: the capacity gate of a PTO kernel, then the
/// whole pipeline. A failure has been reported as diagnostics.
mlir::LogicalResult compileForArch(mlir::ModuleOp module, ascendc::Arch arch,
                                   const pto::BufferCapacities &capacities,
                                   unsigned cores,
                                   const pto::PlanOptions &plan = {});

/// Adds a textual pipeline of passes on the module ("builtin.module(...)"
/// or the bare list) to `pm`; on failure `error` says why. Any registered
/// pass may be named (registerAllPasses).
mlir::LogicalResult addTextualPipeline(mlir::PassManager &pm,
                                       llvm::StringRef text,
                                       std::string &error);

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_COMPILEPIPELINE_H
