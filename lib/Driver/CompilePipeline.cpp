//===- CompilePipeline.cpp - What `tilekit compile --arch` runs -----------===//

#include "tilekit/Driver/CompilePipeline.h"

#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilekit;

bool driver::holdsPTO(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return op->getDialect() && op->getDialect()->getNamespace() == "pto"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult driver::checkWorkItemsFit(ModuleOp module) {
  // Planning may add copies: it plans a copy of the module.
  OwningOpRef<ModuleOp> copy(module.clone());
  bool fits = true;
  for (auto func : copy->getOps<FunctionOpInterface>()) {
    if (!pto::isPlannable(func))
      continue;
    FailureOr<pto::MemoryPlan> plan =
        pto::computeMemoryPlan(func, pto::BufferCapacities());
    if (failed(plan))
      continue; // the pipeline reports what planning cannot do
    fits &= succeeded(pto::reportOverflow(func, *plan));
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
                                  StringRef stopAfter) {
  if (holdsPTO(module)) {
    markArch(module, arch);
    pm.addPass(createConvertPTOToAscendCPass());
    if (stopAfter == "convert-pto-to-ascendc")
      return true;
  }
  return ascendc::buildAscendCPipeline(pm, arch, /*debug=*/false, lowerToL0,
                                       stopAfter);
}
