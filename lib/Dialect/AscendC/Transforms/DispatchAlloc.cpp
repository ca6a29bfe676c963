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
    BroadcastOp broadcast;
    module.walk([&](BroadcastOp op) {
      broadcast = op;
      return WalkResult::interrupt();
    });

    bool useStatic = requested.value_or(arch == "c310") && !broadcast;
    if (requested.value_or(false) && broadcast) {
      InFlightDiagnostic diag =
          module.emitOpError("asks for static allocation "
                             "(ascendc.static_alloc = true), but it holds "
                             "an ascendc.broadcast, whose temporary buffer "
                             "only TPipe provides");
      diag.attachNote(broadcast.getLoc()) << "the broadcast";
      return signalPassFailure();
    }
    module->setAttr(
        AscendCDialect::kAllocStrategyAttrName,
        StringAttr::get(module.getContext(), useStatic ? "static" : "tpipe"));
  }
};
} // namespace
