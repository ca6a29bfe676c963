//===- PlanModule.cpp - Memory planning of a whole kernel file ------------===//

#include "tilekit/Driver/PlanModule.h"

using namespace mlir;
using namespace tilekit;

pto::BufferCapacities
driver::getCapacities(const timing::MachineConfig &config) {
  pto::BufferCapacities capacities;
  for (unsigned i = 0; i < machine::kNumBuffers; ++i)
    if (config.capacity[i])
      capacities.bytes[i] = static_cast<int64_t>(config.capacity[i]);
  return capacities;
}

FailureOr<std::vector<driver::FunctionPlan>>
driver::planModule(ModuleOp module, const pto::BufferCapacities &capacities,
                   bool apply, const pto::PlanOptions &options) {
  std::vector<FunctionPlan> plans;
  bool ok = true;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (!pto::isPlannable(func))
      continue;
    FailureOr<pto::MemoryPlan> plan =
        pto::computeMemoryPlan(func, capacities, options);
    if (failed(plan)) {
      ok = false;
      continue;
    }
    if (failed(pto::reportOverflow(func, *plan)))
      ok = false;
    else if (apply)
      pto::applyMemoryPlan(func, *plan);
    plans.push_back({func, std::move(*plan)});
  }
  if (!ok)
    return failure();
  return plans;
}
