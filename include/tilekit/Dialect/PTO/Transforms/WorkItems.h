//===- WorkItems.h - Whether an orchestration's work items meet in GM ----===//
//
// A persistent kernel spreads the work items (in-core calls) of an
// orchestration over the cores, round robin, and runs each core's items in
// order. That is the orchestration's meaning only when no item reads or
// writes GM that an item on another core writes. This analysis proves it
// from the kernels' tile loads and stores, or says why it cannot.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_TRANSFORMS_WORKITEMS_H
#define TILEKIT_DIALECT_PTO_TRANSFORMS_WORKITEMS_H

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>
#include <string>

namespace tilekit::pto {

/// Why two work items may touch one GM element, one of them writing.
struct ItemDependence {
  mlir::Operation *at;
  std::string reason;
};

/// Nothing when the work items `orchestration` launches touch disjoint GM
/// elements wherever one writes, else the first reason they may not:
///  * every GM tensor a call passes is a tensor argument of the
///    orchestration (through loop and branch results and call results);
///  * a tensor that some call writes is touched by that call site only;
///  * for each loop around such a call, some dimension of every access of
///    the tensor lies within [iv, iv + step) of that loop's induction
///    variable, so items of different trips touch different elements.
/// Offsets are followed through constant additions, subtractions and
/// multiplications, `get_subblock_idx` (0 or 1) and the call's arguments.
/// With `scope`, only the items of those top-level ops count.
std::optional<ItemDependence>
findItemDependence(mlir::FunctionOpInterface orchestration,
                   llvm::ArrayRef<mlir::Operation *> scope = {});

/// A run of consecutive top-level ops of an orchestration whose items are
/// independent of each other (or, when `dependence` says why not, one op
/// whose items are not): `calls` call sites, in program order.
struct ItemPhase {
  unsigned calls;
  std::optional<ItemDependence> dependence;
};

/// The orchestration's items cut into phases, each as long as its items
/// stay independent (a phase ends before the first top-level op whose
/// items would meet the phase's in GM): the phases of a launch that runs
/// one phase after another, each spread over the cores. None when there
/// are fewer than two.
std::optional<llvm::SmallVector<ItemPhase>>
findItemPhases(mlir::FunctionOpInterface orchestration);

} // namespace tilekit::pto

#endif // TILEKIT_DIALECT_PTO_TRANSFORMS_WORKITEMS_H
