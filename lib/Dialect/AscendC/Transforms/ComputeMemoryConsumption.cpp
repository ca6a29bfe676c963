//===- ComputeMemoryConsumption.cpp - Bytes needed per buffer -------------===//

#include "tilekit/Dialect/AscendC/Transforms/BufferCapacities.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_COMPUTEMEMORYCONSUMPTION
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

static constexpr Buffer kBuffers[] = {Buffer::Bias, Buffer::L0A, Buffer::L0B,
                                      Buffer::L0C,  Buffer::L1,  Buffer::UB};

namespace {
struct ComputeMemoryConsumptionPass
    : tilekit::ascendc::impl::ComputeMemoryConsumptionBase<
          ComputeMemoryConsumptionPass> {
  using Base::Base;

  int64_t capacity(Buffer buffer) const {
    return selectCapacity(buffer, ubBytes, l1Bytes, l0aBytes, l0bBytes,
                          l0cBytes, btBytes);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::SmallDenseMap<Buffer, int64_t> moduleNeed;
    bool failed = false;
    module.walk([&](LocalTensorAutoOp op) {
      op.emitOpError("has no address yet; run -ascendc-allocate-tensor "
                     "before -ascendc-compute-memory-consumption");
      failed = true;
    });
    module.walk([&](func::FuncOp func) {
      llvm::SmallDenseMap<Buffer, int64_t> need;
      llvm::SmallDenseMap<Buffer, LocalTensorOp> highest;
      func.walk([&](LocalTensorOp op) {
        Buffer buffer = getBuffer(op.getPosition());
        int64_t end = op.getAddr() + op.getSize();
        if (end > need[buffer]) {
          need[buffer] = end;
          highest[buffer] = op;
        }
      });
      for (auto [buffer, bytes] : need) {
        moduleNeed[buffer] = std::max(moduleNeed[buffer], bytes);
        if (!checkCapacity || bytes <= capacity(buffer))
          continue;
        // At the function's location, not on the op: the op would be
        // printed with the diagnostic, the whole kernel.
        InFlightDiagnostic diag =
            emitError(func.getLoc())
            << "kernel '" << func.getName() << "' needs " << bytes
            << " bytes of " << getBufferName(buffer)
            << ", more than its capacity of " << capacity(buffer) << " bytes";
        diag.attachNote(highest[buffer].getLoc())
            << "this tensor ends at byte " << bytes;
        failed = true;
      }
    });
    if (failed)
      return signalPassFailure();
    Builder builder(module.getContext());
    SmallVector<NamedAttribute> entries;
    for (Buffer buffer : kBuffers)
      entries.push_back(
          builder.getNamedAttr(getBufferName(buffer),
                               builder.getI64IntegerAttr(moduleNeed[buffer])));
    module->setAttr(AscendCDialect::kMemoryConsumedAttrName,
                    builder.getDictionaryAttr(entries));
  }
};
} // namespace
