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
    StringRef arch = "c220";
    if (Attribute attr = module->getAttr("ascendc.arch")) {
      auto name = dyn_cast<StringAttr>(attr);
      if (!name || (name.getValue() != "c220" && name.getValue() != "c310")) {
        module.emitOpError() << "has ascendc.arch = " << attr
                             << "; expected \"c220\" or \"c310\"";
        return signalPassFailure();
      }
      arch = name.getValue();
    }
    std::optional<bool> requested;
    if (Attribute attr = module->getAttr("ascendc.static_alloc")) {
      auto flag = dyn_cast<BoolAttr>(attr);
      if (!flag) {
        module.emitOpError() << "has ascendc.static_alloc = " << attr
                             << "; expected true or false";
        return signalPassFailure();
      }
      requested = flag.getValue();
    }
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
        "ascendc.alloc_strategy",
        StringAttr::get(module.getContext(), useStatic ? "static" : "tpipe"));
  }
};
} // namespace
