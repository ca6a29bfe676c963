//===- ComputeReuseGroup.cpp - Reuse groups of unrolled iterations --------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_COMPUTEREUSEGROUP
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

static constexpr llvm::StringLiteral kUnrollFactor =
    AsctileDialect::kUnrollFactorAttrName;
static constexpr llvm::StringLiteral kUnrollIter =
    AsctileDialect::kUnrollIterAttrName;
static constexpr llvm::StringLiteral kReuseGroup =
    AscendCDialect::kReuseGroupAttrName;

namespace {
struct ComputeReuseGroupPass
    : tilekit::ascendc::impl::ComputeReuseGroupBase<ComputeReuseGroupPass> {
  void runOnOperation() override {
    bool unrolled = false;
    getOperation().walk(
        [&](scf::ExecuteRegionOp op) { unrolled |= op->hasAttr(kUnrollIter); });
    if (!unrolled)
      return markAllAnalysesPreserved(); // unchanged: no verification again
    if (failed(process(getOperation().getFunctionBody(), /*depth=*/0)))
      signalPassFailure();
  }

  /// Assigns groups to the unrolled iterations in `region`'s blocks, which
  /// sit inside `depth` unrolled iterations.
  static LogicalResult process(Region &region, int64_t depth) {
    for (Block &block : region) {
      int64_t start = depth;
      for (Operation &op : block) {
        auto iteration = dyn_cast<scf::ExecuteRegionOp>(op);
        if (!iteration || !iteration->hasAttr(kUnrollIter)) {
          for (Region &nested : op.getRegions())
            if (failed(process(nested, depth)))
              return failure();
          continue;
        }
        FailureOr<std::pair<int64_t, int64_t>> unrolled = read(iteration);
        if (failed(unrolled))
          return failure();
        auto [factor, index] = *unrolled;
        int64_t group = (index + start) % factor;
        label(iteration, group);
        if (index == factor) // The epilogue: later loops start one later.
          ++start;
        if (failed(process(iteration.getRegion(), depth + 1)))
          return failure();
      }
    }
    return success();
  }

  /// The factor and iteration index of an unrolled iteration.
  static FailureOr<std::pair<int64_t, int64_t>>
  read(scf::ExecuteRegionOp iteration) {
    auto index = dyn_cast<IntegerAttr>(iteration->getAttr(kUnrollIter));
    auto factor = iteration->getAttrOfType<IntegerAttr>(kUnrollFactor);
    if (!index || !factor || factor.getInt() <= 0)
      return iteration.emitOpError()
             << "has " << kUnrollIter << " but no positive integer "
             << kUnrollFactor;
    if (index.getInt() < 0 || index.getInt() > factor.getInt())
      return iteration.emitOpError()
             << "is unrolled iteration " << index.getInt() << ", outside 0.."
             << factor.getInt() << " (" << factor.getInt()
             << " is the epilogue)";
    return std::make_pair(factor.getInt(), index.getInt());
  }

  /// Puts `group` on the iteration and every op inside it, except inside
  /// nested iterations, which get their own group when processed.
  static void label(scf::ExecuteRegionOp iteration, int64_t group) {
    Builder builder(iteration.getContext());
    IntegerAttr attr = builder.getI64IntegerAttr(group);
    iteration->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != iteration && isa<scf::ExecuteRegionOp>(op) &&
          op->hasAttr(kUnrollIter))
        return WalkResult::skip();
      op->setAttr(kReuseGroup, attr);
      op->removeAttr(kUnrollIter);
      return WalkResult::advance();
    });
  }
};
} // namespace
