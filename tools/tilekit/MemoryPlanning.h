//===- MemoryPlanning.h - Machine config and memory plans for the driver --===//
//
// The `--config` machine description (check, run, sim) and the memory plan
// of a kernel's functions against its capacities: `check` reports it, `sim`
// plans before it runs (`run` with --plan-memory).
//
//===----------------------------------------------------------------------===//
#ifndef TILEKIT_TOOLS_TILEKIT_MEMORYPLANNING_H
#define TILEKIT_TOOLS_TILEKIT_MEMORYPLANNING_H

#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"
#include "tilekit/Timing/MachineConfig.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace tilekit::driver {

/// The machine config named by --config, or the default one installed
/// beside the binary.
llvm::Expected<timing::MachineConfig> loadConfig();

/// The buffer capacities of `config`.
pto::BufferCapacities getCapacities(const timing::MachineConfig &config);

struct FunctionPlan {
  mlir::FunctionOpInterface func;
  pto::MemoryPlan plan;
};

/// Plans every plannable function of `module` against `capacities` (with
/// double buffering when --double-buffer is given) and applies the plans
/// when `apply` is set (otherwise only the copies and unrolled loops the
/// planner needed may have been added). Errors, including a function that does
/// not fit, are emitted at their locations; fails if there was one.
mlir::FailureOr<std::vector<FunctionPlan>>
planModule(mlir::ModuleOp module, const pto::BufferCapacities &capacities,
           bool apply);

/// Whether `run`/`sim` plan the kernel's memory before executing it.
bool shouldPlanMemory();

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_MEMORYPLANNING_H
