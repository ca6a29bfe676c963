//===- DispatchAlloc.cpp - Static or TPipe-backed allocation --------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_DISPATCHALLOC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct DispatchAllocPass
    : tilekit::ascendc::impl::DispatchAllocBase<DispatchAllocPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The dialect verifier has checked both attributes' values.
    StringRef arch = "c220";
    if (auto name =
            module->getAttrOfType<StringAttr>(AscendCDialect::kArchAttrName))
      arch = name.getValue();
    std::optional<bool> requested;
    if (auto flag = module->getAttrOfType<BoolAttr>(
            AscendCDialect::kStaticAllocAttrName))
      requested = flag.getValue();
    Operation *needsTPipe = nullptr;
    module.walk([&](Operation *op) {
      if (!op->hasTrait<tilekit::ascendc::OpTrait::TemporaryBuffer>())
        return WalkResult::advance();
      needsTPipe = op;
      return WalkResult::interrupt();
    });

    bool useStatic = requested.value_or(arch == "c310") && !needsTPipe;
    if (requested.value_or(false) && needsTPipe) {
      InFlightDiagnostic diag = module.emitOpError()
                                << "asks for static allocation "
                                   "(ascendc.static_alloc = true), but it "
                                   "holds an "
                                << needsTPipe->getName()
                                << ", whose temporary buffer only TPipe "
                                   "provides";
      diag.attachNote(needsTPipe->getLoc()) << "the " << needsTPipe->getName();
      return signalPassFailure();
    }
    module->setAttr(
        AscendCDialect::kAllocStrategyAttrName,
        StringAttr::get(module.getContext(), useStatic ? "static" : "tpipe"));
  }
};
} // namespace
