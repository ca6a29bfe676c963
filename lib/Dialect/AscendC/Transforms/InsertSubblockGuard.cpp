//===- InsertSubblockGuard.cpp - Only sub-block 0 runs mixed kernels ------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTSUBBLOCKGUARD
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
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
      // kernel of the module (a compiled orchestration launches such
      // kernels beside its mixed ones) runs on every vector core it is
      // launched on, and a helper it calls only where it is called.
      KernelCores cores = getKernelCores(func);
      if (cores == KernelCores::MixedOneToTwo || cores == KernelCores::Vector)
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
