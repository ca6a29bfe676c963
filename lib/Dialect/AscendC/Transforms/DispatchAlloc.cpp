//===- DispatchAlloc.cpp - Static allocation with planned API scratch -----===//
//
// The seed chooses between static allocation and TPipe-managed buffers,
// TPipe whenever an advanced-API call needs a temporary buffer. tilekit
// emits static-tensor kernels only (no TPipe exists in them, so the API's
// pipe-backed forms would read a null pipe on the device): this pass gives
// each such call a planned `sharedTmpBuffer` instead, which the memory
// passes then place and reuse like any UB tensor.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_DISPATCHALLOC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct DispatchAllocPass
    : tilekit::ascendc::impl::DispatchAllocBase<DispatchAllocPass> {
  void runOnOperation() override;
};
} // namespace

/// A UB byte tensor of at least `bytes` (one block when the call needs
/// none: the API's signature takes a tensor all the same).
static Value createScratch(OpBuilder &builder, Location loc, uint32_t bytes) {
  constexpr int64_t kBlockBytes = 32;
  int64_t size = std::max<int64_t>(kBlockBytes, (bytes + kBlockBytes - 1) /
                                                    kBlockBytes * kBlockBytes);
  auto type = LocalTensorType::get(
      builder.getContext(), {size},
      IntegerType::get(builder.getContext(), 8, IntegerType::Unsigned));
  // Named for what it is, where the op's location carries a source name
  // (the emitted C++ names variables by them).
  Location named =
      loc->findInstanceOf<NameLoc>()
          ? Location(NameLoc::get(builder.getStringAttr("scratch"), loc))
          : loc;
  return LocalTensorAutoOp::create(builder, named, type, Position::VecCalc,
                                   false, false);
}

void DispatchAllocPass::runOnOperation() {
  ModuleOp module = getOperation();
  // The dialect verifier has checked both attributes' values.
  auto arch = module->getAttrOfType<StringAttr>(AscendCDialect::kArchAttrName);
  bool c310 = arch && arch.getValue() == "c310";
  if (auto flag =
          module->getAttrOfType<BoolAttr>(AscendCDialect::kStaticAllocAttrName);
      flag && !flag.getValue()) {
    module.emitOpError()
        << "asks for TPipe-managed buffers (ascendc.static_alloc = false), "
           "which are not emitted: kernels are static-tensor kernels whose "
           "buffers the memory passes plan";
    return signalPassFailure();
  }
  OpBuilder builder(module.getContext());
  WalkResult walk = module.walk([&](ScratchOpInterface op) {
    if (!op.getTmpMutable().empty())
      return WalkResult::advance();
    FailureOr<uint32_t> bytes = op.getScratchBytes(c310);
    if (failed(bytes))
      return WalkResult::interrupt();
    builder.setInsertionPoint(op);
    op.getTmpMutable().assign(createScratch(builder, op->getLoc(), *bytes));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return signalPassFailure();
  module->setAttr(AscendCDialect::kAllocStrategyAttrName,
                  StringAttr::get(module.getContext(), "static"));
}
