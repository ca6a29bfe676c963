//===- CompilePipeline.cpp - What `tilekit compile --arch` runs -----------===//

#include "tilekit/Driver/CompilePipeline.h"

#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/BufferCapacities.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"
#include "tilekit/Dialect/PTO/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace tilekit;

bool driver::holdsPTO(ModuleOp module) {
  auto isPTO = [](Type type) {
    return type.getDialect().getNamespace() == "pto";
  };
  // A PTO op, or a function on PTO types (one that only passes a tensor on
  // has no PTO op).
  return module
      .walk([&](Operation *op) {
        auto func = dyn_cast<FunctionOpInterface>(op);
        bool pto =
            (op->getDialect() && op->getDialect()->getNamespace() == "pto") ||
            (func && (llvm::any_of(func.getArgumentTypes(), isPTO) ||
                      llvm::any_of(func.getResultTypes(), isPTO)));
        return pto ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult driver::checkWorkItemsFit(ModuleOp module,
                                        const pto::BufferCapacities &capacities,
                                        bool warnHalfBuffers) {
  // Planning may add copies: it plans a copy of the module.
  OwningOpRef<ModuleOp> copy(module.clone());
  bool fits = true;
  for (auto func : copy->getOps<FunctionOpInterface>()) {
    if (!pto::isPlannable(func))
      continue;
    FailureOr<pto::MemoryPlan> plan = [&] {
      // What the PTO planner cannot place (carried tiles that trade
      // places) the lowering places its own way, with copies: the gate
      // says nothing of it, and the pipeline reports what it cannot do.
      ScopedDiagnosticHandler quiet(module.getContext(),
                                    [](Diagnostic &) { return success(); });
      return pto::computeMemoryPlan(func, capacities);
    }();
    if (failed(plan))
      continue;
    fits &= succeeded(pto::reportOverflow(func, *plan));
    if (warnHalfBuffers)
      pto::warnHalfBuffers(func, *plan);
  }
  return success(fits);
}

void driver::markArch(ModuleOp module, ascendc::Arch arch) {
  module->setAttr(
      ascendc::AscendCDialect::kArchAttrName,
      StringAttr::get(module.getContext(), ascendc::getArchName(arch)));
}

bool driver::buildCompilePipeline(PassManager &pm, ModuleOp module,
                                  ascendc::Arch arch, bool lowerToL0,
                                  StringRef stopAfter,
                                  const pto::BufferCapacities &capacities,
                                  unsigned cores,
                                  const pto::PlanOptions &plan) {
  if (holdsPTO(module)) {
    markArch(module, arch);
    // The orchestration's own data ops become kernels first, so that every
    // later pass sees an orchestration that only launches.
    pm.addPass(pto::createOutlineTensorCompute());
    // Double buffering is decided on the PTO kernel, by memory planning's
    // rule: which load loops it unrolls by two. The AscendC pipeline plans
    // the addresses anew; the two halves' tiles stay apart there.
    if (plan.doubleBuffer) {
      pto::PlanMemoryOptions planning;
      planning.doubleBuffer = true;
      ascendc::setCapacityOptions(planning, capacities.bytes);
      pm.addNestedPass<func::FuncOp>(pto::createPlanMemory(planning));
    }
    // Decided on the PTO kernel, whose tile accesses show the GM regions:
    // how many cores the launch may spread the work items over.
    pm.addPass(pto::createProveIndependentItems());
    // The lowering: groups merged, PTO lowered, mixed kernels split.
    std::unique_ptr<Pass> lowering[] = {createMergeGroups(),
                                        createConvertPTOToAscendC(),
                                        ascendc::createFormCoreGroups()};
    for (std::unique_ptr<Pass> &pass : lowering) {
      bool last = pass->getArgument() == stopAfter;
      pm.addPass(std::move(pass));
      if (last)
        return true;
    }
  }
  return ascendc::buildAscendCPipeline(pm, arch, /*debug=*/false, lowerToL0,
                                       stopAfter, &capacities.bytes, cores);
}

LogicalResult driver::compileForArch(ModuleOp module, ascendc::Arch arch,
                                     const pto::BufferCapacities &capacities,
                                     unsigned cores,
                                     const pto::PlanOptions &plan) {
  if (holdsPTO(module) && failed(checkWorkItemsFit(module, capacities)))
    return failure();
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  buildCompilePipeline(pm, module, arch, /*lowerToL0=*/false, "", capacities,
                       cores, plan);
  return pm.run(module);
}

LogicalResult driver::outlineTensorCompute(ModuleOp module) {
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  pm.addPass(pto::createOutlineTensorCompute());
  return pm.run(module);
}

bool driver::outlineForTiming(ModuleOp module) {
  if (!holdsPTO(module))
    return false;
  // Tried on a copy first: a refusal leaves the module as it was.
  OwningOpRef<ModuleOp> trial = module.clone();
  bool outlines;
  {
    ScopedDiagnosticHandler quiet(module.getContext(),
                                  [](Diagnostic &) { return success(); });
    outlines = succeeded(outlineTensorCompute(*trial));
  }
  if (outlines)
    return succeeded(outlineTensorCompute(module));
  emitWarning(module.getLoc())
      << "the orchestration's data ops on whole tensors run untimed: "
         "compile writes no kernels for them (tilekit check --arch says why)";
  return false;
}

void driver::keepReachable(ModuleOp module, FunctionOpInterface entry) {
  llvm::SmallPtrSet<Operation *, 16> reached{entry};
  SmallVector<Operation *> work{entry};
  auto reach = [&](Operation *op) {
    if (op && reached.insert(op).second)
      work.push_back(op);
  };
  while (!work.empty()) {
    Operation *func = work.pop_back_val();
    if (pto::getFunctionKind(func) == pto::FunctionKind::Group)
      if (std::optional<pto::GroupInfo> group = pto::resolveGroup(func)) {
        reach(group->aic);
        reach(group->aiv);
      }
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(func))
      for (const SymbolTable::SymbolUse &use : *uses)
        reach(SymbolTable::lookupNearestSymbolFrom(use.getUser(),
                                                   use.getSymbolRef()));
  }
  for (auto func :
       llvm::make_early_inc_range(module.getOps<FunctionOpInterface>()))
    if (!reached.contains(func))
      func->erase();
}

LogicalResult driver::addTextualPipeline(PassManager &pm, StringRef text,
                                         std::string &error) {
  StringRef passes = text.trim();
  if (passes.consume_front("builtin.module(") && !passes.consume_back(")")) {
    error = "unbalanced builtin.module(...)";
    return failure();
  }
  llvm::raw_string_ostream errors(error);
  if (failed(parsePassPipeline(passes, pm, errors))) {
    errors << (error.empty() ? "" : "; ") << "not a pass pipeline";
    return failure();
  }
  return success();
}
