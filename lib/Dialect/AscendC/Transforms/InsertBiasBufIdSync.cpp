//===- InsertBiasBufIdSync.cpp - Buffer id around bias reads --------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTBIASBUFIDSYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

static constexpr llvm::StringLiteral kBufId = AscendCDialect::kBufIdAttrName;

namespace {
struct InsertBiasBufIdSyncPass
    : tilekit::ascendc::impl::InsertBiasBufIdSyncBase<InsertBiasBufIdSyncPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](func::FuncOp func) {
      return succeeded(guard(func)) ? WalkResult::advance()
                                    : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  static LogicalResult guard(func::FuncOp func) {
    LocalTensorOp bias;
    IntegerAttr id;
    WalkResult result = func.walk([&](LocalTensorOp op) {
      auto opId = op->getAttrOfType<IntegerAttr>(kBufId);
      if (op.getPosition() != Position::C2 || !opId)
        return WalkResult::advance();
      if (bias) {
        InFlightDiagnostic diag =
            op.emitOpError("is a second bias-table tensor with a buffer id; "
                           "run -ascendc-unify-bias-tensor first");
        diag.attachNote(bias.getLoc()) << "the first";
        return WalkResult::interrupt();
      }
      bias = op;
      id = opId;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
    if (!bias)
      return success();
    func.walk([&](MmadOp mmad) {
      if (!mmad.getBias())
        return;
      OpBuilder builder(mmad);
      GetBufOp::create(builder, mmad.getLoc(), Pipe::M, id.getInt());
      builder.setInsertionPointAfter(mmad);
      RlsBufOp::create(builder, mmad.getLoc(), Pipe::M, id.getInt());
    });
    return success();
  }
};
} // namespace
