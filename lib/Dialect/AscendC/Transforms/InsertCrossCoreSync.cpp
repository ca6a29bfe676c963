//===- InsertCrossCoreSync.cpp - Flags for on-chip cross-core transfers ---===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/CrossCoreChannel.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTCROSSCORESYNC
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

bool isUB(Value tensor) {
  if (!isa<LocalTensorType>(tensor.getType()))
    return false;
  std::optional<Position> position = getPosition(tensor);
  return position && getBuffer(*position) == Buffer::UB;
}

/// The storage `op` hands to the other core: the L1 destination of a UB ->
/// L1 copy in a vector group, or the UB destination of an L0C -> UB fixpipe
/// in a cube group.
std::optional<Value> getTransferred(Operation *op) {
  Operation *group = getCoreGroup(op);
  if (!group)
    return std::nullopt;
  if (auto copy = dyn_cast<DataCopyOp>(op)) {
    if (isCubeGroup(group) || !isa<LocalTensorType>(copy.getDst().getType()) ||
        !isUB(copy.getSrc()))
      return std::nullopt;
    std::optional<Position> dst = getPosition(copy.getDst());
    if (dst && getBuffer(*dst) == Buffer::L1)
      return getStorage(copy.getDst());
  }
  if (auto fixpipe = dyn_cast<FixpipeOp>(op))
    if (isCubeGroup(group) && isUB(fixpipe.getDst()))
      return getStorage(fixpipe.getDst());
  return std::nullopt;
}

struct InsertCrossCoreSyncPass
    : tilekit::ascendc::impl::InsertCrossCoreSyncBase<InsertCrossCoreSyncPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    unsigned numGroups = 0;
    func.walk([&](Operation *op) { numGroups += isa<IfAicOp, IfAivOp>(op); });
    if (numGroups < 2)
      return;

    llvm::SetVector<Value> storages;
    func.walk([&](Operation *op) {
      if (std::optional<Value> storage = getTransferred(op))
        storages.insert(*storage);
    });
    FailureOr<int64_t> next = insertCrossCoreChannels(
        func, storages.getArrayRef(), CrossCoreChannelOptions{true, 0});
    if (failed(next))
      return signalPassFailure();
    func->setAttr(kCrossCoreFlagIdAttr,
                  Builder(func.getContext()).getI64IntegerAttr(*next));
  }
};
} // namespace
