//===- ProveIndependentItems.cpp - pto-prove-independent-items ------------===//
//
// Marks each orchestration whose work items provably never meet in GM; warns
// at the op that stops the proof otherwise (its launch then runs on one
// core).
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/Transforms/WorkItems.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tilekit::pto {
#define GEN_PASS_DEF_PROVEINDEPENDENTITEMS
#include "tilekit/Dialect/PTO/Transforms/Passes.h.inc"
} // namespace tilekit::pto

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;

namespace {
struct ProveIndependentItemsPass
    : public pto::impl::ProveIndependentItemsBase<ProveIndependentItemsPass> {
  void runOnOperation() override;
};
} // namespace

void ProveIndependentItemsPass::runOnOperation() {
  for (auto func : getOperation().getOps<FunctionOpInterface>()) {
    if (getFunctionKind(func) != FunctionKind::Orchestration)
      continue;
    func->removeAttr(PTODialect::kIndependentItemsAttrName);
    func->removeAttr(PTODialect::kItemPhasesAttrName);
    std::optional<ItemDependence> dependence = findItemDependence(func);
    if (!dependence) {
      func->setAttr(PTODialect::kIndependentItemsAttrName,
                    UnitAttr::get(func.getContext()));
      continue;
    }
    // Items that meet only across phases: one launch per phase.
    if (std::optional<SmallVector<ItemPhase>> phases = findItemPhases(func)) {
      Builder builder(func.getContext());
      SmallVector<Attribute> marks;
      for (const ItemPhase &phase : *phases) {
        SmallVector<NamedAttribute, 2> fields{builder.getNamedAttr(
            "calls", builder.getI64IntegerAttr(phase.calls))};
        if (!phase.dependence)
          fields.push_back(
              builder.getNamedAttr("independent", builder.getUnitAttr()));
        marks.push_back(builder.getDictionaryAttr(fields));
        if (phase.dependence)
          phase.dependence->at->emitWarning()
              << "the work items of a phase of '@" << func.getName()
              << "' run on one core, in order: " << phase.dependence->reason;
      }
      func->setAttr(PTODialect::kItemPhasesAttrName,
                    builder.getArrayAttr(marks));
      continue;
    }
    dependence->at->emitWarning()
        << "the work items of '@" << func.getName()
        << "' run on one core, in order: " << dependence->reason;
  }
}
