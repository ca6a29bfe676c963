//===- MemoryPlanning.h - Machine config and memory plans for the driver --===//
//
// The `--config` machine description (check, run, sim) and the memory plan
// of a kernel's functions against its capacities: `check` reports it, `sim`
// plans before it runs (`run` with --plan-memory).
//
//===----------------------------------------------------------------------===//
#ifndef TILEKIT_TOOLS_TILEKIT_MEMORYPLANNING_H
#define TILEKIT_TOOLS_TILEKIT_MEMORYPLANNING_H

#include "tilekit/Driver/PlanModule.h"
#include "tilekit/Timing/MachineConfig.h"

#include "mlir/IR/BuiltinOps.h"

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include <vector>

namespace tilekit::driver {

/// The machine config named by --config, or the default one installed
/// beside the binary.
llvm::Expected<timing::MachineConfig> loadConfig();
/// Makes the default config the architecture's machine: the 910B's for
/// c220, the 950's for c310.
void setDefaultConfigForArch(ascendc::Arch arch);

/// The planning options of the command line (--double-buffer).
pto::PlanOptions planOptions();

bool shouldPlanMemory();
/// Whether `run` refuses a PTO kernel whose work items do not fit the
/// config's buffers (the gate compile runs), unless --no-capacity-check.
bool shouldCheckCapacity();

class KernelFile;
/// Plans the kernel's memory as `tilekit sim` does (--plan-memory,
/// --config, --double-buffer); failures are reported.
mlir::LogicalResult planAsSimPlans(KernelFile &kernel);

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_MEMORYPLANNING_H
