//===- UnifyBiasTensor.cpp - One bias-table tensor per function -----------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_UNIFYBIASTENSOR
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct UnifyBiasTensorPass
    : tilekit::ascendc::impl::UnifyBiasTensorBase<UnifyBiasTensorPass> {
  void runOnOperation() override {
    bool any = false;
    getOperation().walk(
        [&](LocalTensorOp op) { any |= op.getPosition() == Position::C2; });
    if (!any)
      return markAllAnalysesPreserved(); // unchanged: no verification again
    if (failed(unify(getOperation())))
      signalPassFailure();
  }

  static LogicalResult unify(FunctionOpInterface func) {
    SmallVector<LocalTensorOp> biases;
    func.walk([&](LocalTensorOp op) {
      if (op.getPosition() == Position::C2)
        biases.push_back(op);
    });
    if (biases.empty())
      return success();
    LocalTensorOp kept = biases.front();
    kept.setAddr(0);
    for (LocalTensorOp other : llvm::drop_begin(biases)) {
      if (other.getSize() > kept.getSize()) {
        InFlightDiagnostic diag =
            other.emitOpError()
            << "needs " << other.getSize()
            << " bytes of the bias table, more than the first bias tensor's "
            << kept.getSize() << ", which every bias tensor shares";
        diag.attachNote(kept.getLoc()) << "the first bias tensor";
        return failure();
      }
      // The kept tensor must dominate every use of the ones it replaces; it
      // has no operands, so the top of the function is always a safe place.
      Block &entry = func.getFunctionBody().front();
      if (kept->getBlock() != &entry)
        kept->moveBefore(&entry.front());
      Value replacement = kept.getResult();
      if (other.getType() != kept.getType()) {
        OpBuilder builder(other);
        replacement = ReinterpretCastOp::create(builder, other.getLoc(),
                                                other.getType(), replacement);
      }
      other.replaceAllUsesWith(replacement);
      other.erase();
    }
    return success();
  }
};
} // namespace
