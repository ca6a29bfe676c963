//===- Aliases.cpp - Tiles that alias while both are live -----------------===//
//
// Tiles at explicit addresses whose bytes overlap in one memory space alias:
// writing one changes what the other reads (the executor's byte pools). The
// lowering gives every tile a local tensor of its own and the AscendC
// pipeline plans their addresses anew, so it cannot keep such aliasing.
// Overlapping tiles that are never live at the same time (as memory
// planning places them) observe nothing of each other and lower as any
// tiles do; two that are live together are refused at the later one, with
// a note at the other, rather than compiled into a kernel that computes
// something else.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace tilekit;

/// Where `value` comes to life: its defining op, or its block's first op.
static Operation *birthOf(Value value) {
  if (Operation *op = value.getDefiningOp())
    return op;
  return &value.getParentBlock()->front();
}

/// Whether `op` or an op nested in it uses `value`.
static bool usesInside(Operation *op, Value value) {
  return op
      ->walk([&](Operation *inner) {
        return llvm::is_contained(inner->getOperands(), value)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `earlier` is still needed where `later` comes to life: used
/// after that point (an op reading it to define `later` in place does not
/// count), on a later trip of a loop around it, or past its block's end.
static bool liveAt(DominanceInfo &dominance, Value earlier, Value later) {
  Operation *at = birthOf(later);
  if (!dominance.properlyDominates(earlier, at))
    return false;
  // Up from `at` to the block that defines `earlier`.
  for (Operation *x = at;;) {
    for (Operation *next = x->getNextNode(); next; next = next->getNextNode())
      if (usesInside(next, earlier))
        return true;
    if (x->getBlock() == earlier.getParentBlock())
      return !x->getBlock()->getSuccessors().empty(); // unstructured: assume
    x = x->getParentOp();
    if (!x)
      return false;
    // Read in the loop's body, it is read again on the next trip (a loop's
    // own operands, its initial values, are taken on entry).
    if (isa<LoopLikeOpInterface>(x) &&
        llvm::any_of(x->getRegions(), [&](Region &body) {
          return llvm::any_of(body.getOps(), [&](Operation &inner) {
            return usesInside(&inner, earlier);
          });
        }))
      return true;
  }
}

/// The first two addressed tiles of `func` that alias while both live.
static std::optional<std::pair<Value, Value>> findLiveAlias(func::FuncOp func) {
  SmallVector<Value> addressed;
  auto collect = [&](Value value) {
    if (auto tile = dyn_cast<pto::TileType>(value.getType());
        tile && tile.getAddr())
      addressed.push_back(value);
  };
  func.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      collect(arg);
    for (Operation &op : *block)
      for (Value result : op.getResults())
        collect(result);
  });
  if (addressed.size() < 2)
    return std::nullopt;
  DominanceInfo dominance(func);
  // NOTE: quadratic in the addressed tiles of a function.
  for (auto [i, a] : llvm::enumerate(addressed))
    for (Value b : ArrayRef(addressed).drop_front(i + 1))
      if (cast<pto::TileType>(a.getType())
              .overlaps(cast<pto::TileType>(b.getType())) &&
          (liveAt(dominance, a, b) || liveAt(dominance, b, a)))
        return std::make_pair(a, b);
  return std::nullopt;
}

LogicalResult lowering::checkNoLiveAliases(ArrayRef<func::FuncOp> funcs) {
  bool ok = true;
  for (func::FuncOp func : funcs) {
    std::optional<std::pair<Value, Value>> alias = findLiveAlias(func);
    if (!alias)
      continue;
    auto [a, b] = *alias;
    InFlightDiagnostic diag =
        emitError(b.getLoc())
        << "a tile at address " << *cast<pto::TileType>(b.getType()).getAddr()
        << " shares bytes with one at address "
        << *cast<pto::TileType>(a.getType()).getAddr()
        << " while both are live; the lowering gives each tile storage of "
           "its own and cannot keep this aliasing: give the tiles disjoint "
           "addresses, or none";
    diag.attachNote(a.getLoc()) << "the other tile";
    ok = false;
  }
  return success(ok);
}
