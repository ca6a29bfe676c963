//===- Legality.cpp - Which PTO ops compile, and what to write instead ----===//
//
// One rule answers "does this op compile": an op compiles when a pattern
// of convert-pto-to-ascendc takes it. The pattern set is the list; nothing
// else keeps one. Before converting, the pass reports every op of the
// kernel that no pattern takes, each at its location and with how to write
// it instead, so that a user sees all of them at once (and `tilekit check
// --arch` lists them before compile is tried). A pattern that takes an op
// but refuses its form reports its own located error; where one declines
// without saying why, the pass says it at the op (never MLIR's bare
// "failed to legalize").
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/PTO/IR/PTOTraits.h"
#include "tilekit/Dialect/PTO/Transforms/OutlineTensorCompute.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

/// What to write instead of a tile op the machine has no lowering for,
/// keyed by the op's name. Orchestration ops on whole tensors follow one
/// rule (ascendCInsteadOf) and are not listed.
const llvm::StringMap<StringRef> &tileOpInstead() {
  static const llvm::StringMap<StringRef> hints = {
      {"pto.tensor.full", "a pto.tensor.full of static shape (compile writes "
                          "its kernel), or pto.tile.full and pto.tile.store "
                          "of each tile in an in-core function"},
      {"pto.tensor.slice", "offsets and valid shapes of the in-core "
                           "function's pto.tile.load / pto.tile.store on the "
                           "whole tensor"},
      {"pto.tensor.assemble", "pto.tile.store of each part into its region "
                              "of the whole tensor"},
  };
  return hints;
}

} // namespace

llvm::DenseSet<OperationName> lowering::takenOps(RewritePatternSet &patterns) {
  llvm::DenseSet<OperationName> taken;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      taken.insert(*root);
  return taken;
}

std::string tilekit::ascendCInsteadOf(OperationName name) {
  StringRef op = name.getStringRef();
  if (StringRef hint = tileOpInstead().lookup(op); !hint.empty())
    return hint.str();
  // An orchestration op on whole tensors that has a tile op: the host
  // launches kernels; the same computation is a kernel's loop over tiles.
  if (op.consume_front("pto.tensor.") &&
      RegisteredOperationName::lookup(("pto.tile." + op).str(),
                                      name.getContext()))
    return ("an in-core function that loads tiles, applies pto.tile." + op +
            " and stores them, called from the orchestration")
        .str();
  return "";
}

bool tilekit::isLoweredToAscendC(OperationName name) {
  PTOToAscendCTypes types;
  ValidShapes valid;
  Transfers transfers;
  RewritePatternSet patterns(name.getContext());
  populatePTOToAscendCPatterns(types, patterns, valid, transfers);
  return takenOps(patterns).contains(name);
}

LogicalResult
lowering::checkEveryOpLowers(Operation *root,
                             const llvm::DenseSet<OperationName> &taken,
                             llvm::DenseSet<Operation *> *refused) {
  bool clean = true;
  auto refuse = [&](Operation *op) {
    clean = false;
    if (refused)
      refused->insert(op);
  };
  root->walk([&](Operation *op) {
    // The lowering does not home a tile a while loop carries (an scf.for's
    // it does), and the C++ has no form for it.
    if (auto loop = dyn_cast<scf::WhileOp>(op);
        loop &&
        llvm::any_of(loop->getResultTypes(), llvm::IsaPred<pto::TileType>)) {
      refuse(loop);
      loop.emitOpError()
          << "carries a tile across its trips, which is lowered for a while "
             "that counts an index to a bound (a compare of it before each "
             "trip, an add at the end) only; write it as an scf.for with a "
             "trip count, or update a tile made before the loop in place";
      return;
    }
    if (op->getDialect() == nullptr ||
        !isa<pto::PTODialect>(op->getDialect()) ||
        taken.contains(op->getName()))
      return;
    refuse(op);
    InFlightDiagnostic error = op->emitOpError() << "is not lowered to AscendC";
    std::string hint = ascendCInsteadOf(op->getName());
    if (!hint.empty())
      error << "; write it as " << hint;
    // An orchestration op compile writes a kernel for, in other forms.
    if (std::string why = pto::whyTensorOpStays(op); !why.empty())
      error << " (compile writes the kernel itself " << why << ")";
  });
  return success(clean);
}
