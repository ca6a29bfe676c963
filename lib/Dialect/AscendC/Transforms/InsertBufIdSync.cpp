//===- InsertBufIdSync.cpp - Buffer-id synchronization (C310) -------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTBUFIDSYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

/// The allocation a local tensor value views.
static Operation *getAllocation(Value tensor) {
  Operation *def = tensor.getDefiningOp();
  while (auto cast = dyn_cast_if_present<ReinterpretCastOp>(def))
    def = cast.getSource().getDefiningOp();
  return isa_and_present<LocalTensorOp, TBufGetTensorOp>(def) ? def : nullptr;
}

namespace {
struct InsertBufIdSyncPass
    : tilekit::ascendc::impl::InsertBufIdSyncBase<InsertBufIdSyncPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    bool done = false;
    func.walk([&](GetBufOp) { done = true; });
    if (!done)
      insert(func);
  }

  static void insert(FunctionOpInterface func) {
    MLIRContext *context = func.getContext();
    Builder attrs(context);
    llvm::DenseMap<Operation *, int64_t> ids;
    func.walk([&](Operation *op) {
      if (isa<LocalTensorOp, TBufGetTensorOp>(op)) {
        int64_t id = ids.size();
        ids[op] = id;
        op->setAttr(AscendCDialect::kBufIdAttrName,
                    attrs.getI64IntegerAttr(id));
      }
    });

    func.walk([&](Operation *op) {
      std::optional<Pipe> pipe = getOpPipe(op);
      if (!pipe)
        return;
      SmallVector<int64_t> used;
      for (Value operand : op->getOperands())
        if (Operation *allocation = getAllocation(operand))
          if (!llvm::is_contained(used, ids[allocation]))
            used.push_back(ids[allocation]);
      if (used.empty())
        return;
      OpBuilder builder(op);
      for (int64_t id : used)
        GetBufOp::create(builder, op->getLoc(), *pipe, id);
      builder.setInsertionPointAfter(op);
      for (int64_t id : used)
        RlsBufOp::create(builder, op->getLoc(), *pipe, id);
      op->setAttr(AscendCDialect::kBufIdsAttrName,
                  attrs.getDenseI64ArrayAttr(used));
    });

    func.walk([&](scf::ForOp loop) {
      if (loop->hasAttr(AscendCDialect::kVecScopeLoopAttrName) ||
          loop->hasAttr(AscendCDialect::kParallelAttrName))
        return;
      bool stores = false, loadsGM = false, loadsL1 = false;
      loop.getBody()->walk([&](Operation *op) {
        if (isa<GetBufOp, RlsBufOp>(op))
          return;
        std::optional<Pipe> pipe = getOpPipe(op);
        stores |= pipe == Pipe::MTE3;
        loadsGM |= pipe == Pipe::MTE2;
        loadsL1 |= pipe == Pipe::MTE1;
      });
      if (!stores)
        return;
      OpBuilder builder(loop.getBody()->getTerminator());
      for (auto [needed, to] : {std::make_pair(loadsGM, Pipe::MTE2),
                                std::make_pair(loadsL1, Pipe::MTE1)}) {
        if (!needed)
          continue;
        SetFlagOp::create(builder, loop.getLoc(), Pipe::MTE3, to, 0);
        WaitFlagOp::create(builder, loop.getLoc(), Pipe::MTE3, to, 0);
      }
    });
  }
};
} // namespace
