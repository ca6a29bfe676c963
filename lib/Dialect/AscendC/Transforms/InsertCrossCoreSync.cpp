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
using namespace tilekit;
using namespace tilekit::ascendc;

namespace {

/// The storage `op` hands to the other core: the destination of a copy
/// into a buffer of the other core (a UB -> L1 copy in a vector group; an
/// L0C -> UB fixpipe or an L1 -> UB copy in a cube group).
std::optional<Value> getTransferred(Operation *op) {
  Operation *group = getCoreGroup(op);
  if (!group)
    return std::nullopt;
  Value dst;
  if (auto copy = dyn_cast<DataCopyOp>(op))
    dst = copy.getDst();
  else if (auto fixpipe = dyn_cast<FixpipeOp>(op))
    dst = fixpipe.getDst();
  if (!dst || !isa<LocalTensorType>(dst.getType()))
    return std::nullopt;
  std::optional<Position> position = getPosition(dst);
  if (!position)
    return std::nullopt;
  machine::Core owner = machine::getOwner(getBuffer(*position));
  machine::Core running =
      isCubeGroup(group) ? machine::Core::Cube : machine::Core::Vector;
  if (owner == machine::Core::None || owner == running)
    return std::nullopt;
  return getStorage(dst);
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
