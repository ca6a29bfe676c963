//===- CountedWhile.cpp - Counted scf.while loops as scf.for --------------===//
//
// The lowering homes the tiles an scf.for carries and the group merge fuses
// the two cores' scf.for loops trip by trip; an scf.while that counts an
// index to a bound (a compare of the carried index before each trip, an
// add of a step at its end) is such a loop, so it is lifted to the scf.for
// it is first (MLIR's upliftWhileToForLoop, which keeps the trips and the
// results). A while of another form stays, and the lowering says so at it.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tilekit;

void lowering::liftCountedWhileLoops(
    Operation *root, llvm::function_ref<bool(scf::WhileOp)> which) {
  SmallVector<scf::WhileOp> loops;
  root->walk([&](scf::WhileOp loop) {
    if (which(loop))
      loops.push_back(loop);
  });
  // Innermost first: the walk visits a loop after the loops it holds.
  IRRewriter rewriter(root->getContext());
  for (scf::WhileOp loop : loops) {
    rewriter.setInsertionPoint(loop);
    (void)scf::upliftWhileToForLoop(rewriter, loop);
  }
}
