//===- PlanMemory.cpp - pto-plan-memory -----------------------------------===//

#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"
#include "tilekit/Dialect/PTO/Transforms/Passes.h"

namespace tilekit::pto {
#define GEN_PASS_DEF_PLANMEMORY
#include "tilekit/Dialect/PTO/Transforms/Passes.h.inc"
} // namespace tilekit::pto

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;

namespace {
struct PlanMemoryPass : public pto::impl::PlanMemoryBase<PlanMemoryPass> {
  using PlanMemoryBase::PlanMemoryBase;

  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (!isPlannable(func))
      return;
    BufferCapacities capacities;
    auto set = [&](machine::Buffer buffer, int64_t bytes) {
      capacities.bytes[static_cast<unsigned>(buffer)] = bytes;
    };
    set(machine::Buffer::UB, ubBytes);
    set(machine::Buffer::L1, l1Bytes);
    set(machine::Buffer::L0A, l0aBytes);
    set(machine::Buffer::L0B, l0bBytes);
    set(machine::Buffer::L0C, l0cBytes);
    set(machine::Buffer::Bias, btBytes);
    PlanOptions options;
    options.doubleBuffer = doubleBuffer;
    FailureOr<MemoryPlan> plan = computeMemoryPlan(func, capacities, options);
    if (failed(plan) || failed(reportOverflow(func, *plan)))
      return signalPassFailure();
    applyMemoryPlan(func, *plan);
  }
};
} // namespace
