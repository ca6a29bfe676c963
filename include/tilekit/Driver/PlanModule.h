//===- PlanModule.h - Memory planning of a whole kernel file ----*- C++ -*-===//
//
// Plans every plannable function of a module against a machine's buffer
// capacities, as `tilekit run/sim/check` and the Python module do.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_PLANMODULE_H
#define TILEKIT_DRIVER_PLANMODULE_H

#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"
#include "tilekit/Timing/MachineConfig.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace tilekit::driver {

/// The buffer sizes of `config` (the machine description's where it gives
/// none).
pto::BufferCapacities getCapacities(const timing::MachineConfig &config);

struct FunctionPlan {
  mlir::FunctionOpInterface func;
  pto::MemoryPlan plan;
};

/// Plans each function; reports (and fails on) a function that does not
/// fit; with `apply`, gives the tiles their addresses.
mlir::FailureOr<std::vector<FunctionPlan>>
planModule(mlir::ModuleOp module, const pto::BufferCapacities &capacities,
           bool apply, const pto::PlanOptions &options = {});

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_PLANMODULE_H
