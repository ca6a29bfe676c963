//===- InsertSubblockGuard.cpp - Only sub-block 0 runs mixed kernels ------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTSUBBLOCKGUARD
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
/// Whether `func` runs as a kernel of its own: a host function calls it, or
/// form-launch made it a launch kernel or a launch's work item.
bool launchedOnItsOwn(func::FuncOp func, ModuleOp module) {
  if (func->hasAttr(AscendCDialect::kLaunchedByAttrName) ||
      func->hasAttr(AscendCDialect::kDeviceAttrName))
    return true;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  return uses && llvm::any_of(*uses, [](const SymbolTable::SymbolUse &use) {
           auto caller = use.getUser()->getParentOfType<func::FuncOp>();
           return caller && caller->hasAttr(AscendCDialect::kHostAttrName);
         });
}

struct InsertSubblockGuardPass
    : tilekit::ascendc::impl::InsertSubblockGuardBase<InsertSubblockGuardPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto type =
        module->getAttrOfType<StringAttr>(AscendCDialect::kKernelTypeAttrName);
    if (!type || type.getValue() != "mixed")
      return;
    bool ok = true;
    module.walk([&](func::FuncOp func) {
      if (func.isExternal() || func->hasAttr(AscendCDialect::kHostAttrName))
        return;
      Block &entry = func.getBody().front();
      if (!entry.empty() && isa<SubBlockGuardOp>(entry.front()))
        return;
      // Its lanes run on both sub-blocks (ascendc-guard-lanes). A vector
      // kernel a host function launches, and the launch kernels and work
      // items form-launch makes of it (a compiled orchestration launches
      // such kernels beside its mixed ones), run on every vector core they
      // are launched on.
      KernelCores cores = getKernelCores(func);
      if (cores == KernelCores::MixedOneToTwo ||
          (cores == KernelCores::Vector && launchedOnItsOwn(func, module)))
        return;
      if (func.getNumResults() != 0) {
        func.emitOpError("returns values, so it cannot return early on the "
                         "sub-blocks a mixed kernel guards");
        ok = false;
        return;
      }
      OpBuilder builder = OpBuilder::atBlockBegin(&entry);
      SubBlockGuardOp::create(builder, func.getLoc());
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
