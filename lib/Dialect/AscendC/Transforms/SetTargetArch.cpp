//===- SetTargetArch.cpp - One architecture per pipeline run --------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_SETTARGETARCH
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct SetTargetArchPass
    : tilekit::ascendc::impl::SetTargetArchBase<SetTargetArchPass> {
  using SetTargetArchBase::SetTargetArchBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (arch != "c220" && arch != "c310") {
      module.emitError() << "ascendc-set-target-arch: unknown architecture '"
                         << arch << "' (expected c220 or c310)";
      return signalPassFailure();
    }
    auto marked =
        module->getAttrOfType<StringAttr>(AscendCDialect::kArchAttrName);
    if (!marked) {
      module->setAttr(AscendCDialect::kArchAttrName,
                      StringAttr::get(module.getContext(), arch));
      return;
    }
    if (marked.getValue() != arch) {
      module.emitError() << "is marked " << AscendCDialect::kArchAttrName
                         << " = \"" << marked.getValue()
                         << "\" but the pipeline targets " << arch
                         << "; run the ascendc-" << marked.getValue()
                         << "-pipeline, or change the mark";
      return signalPassFailure();
    }
    markAllAnalysesPreserved(); // unchanged: no verification again
  }
};
} // namespace
