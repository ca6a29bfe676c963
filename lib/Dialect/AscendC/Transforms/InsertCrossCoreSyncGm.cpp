//===- InsertCrossCoreSyncGm.cpp - Flags for cross-core GM transfers ------===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/CrossCoreChannel.h"
#include "tilekit/Dialect/AscendC/Transforms/HappensBefore.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTCROSSCORESYNCGM
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

namespace {

/// The GM root a core group writes with `op` (an L0C -> GM fixpipe or a
/// local -> GM copy).
std::optional<Value> getGmWritten(Operation *op) {
  if (!getCoreGroup(op))
    return std::nullopt;
  if (auto fixpipe = dyn_cast<FixpipeOp>(op);
      fixpipe && isa<GlobalTensorType>(fixpipe.getDst().getType()))
    return getStorage(fixpipe.getDst());
  if (auto copy = dyn_cast<DataCopyOp>(op);
      copy && isa<GlobalTensorType>(copy.getDst().getType()) &&
      isa<LocalTensorType>(copy.getSrc().getType()))
    return getStorage(copy.getDst());
  return std::nullopt;
}

struct InsertCrossCoreSyncGmPass
    : tilekit::ascendc::impl::InsertCrossCoreSyncGmBase<
          InsertCrossCoreSyncGmPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    int64_t first = 0;
    if (auto attr = func->getAttrOfType<IntegerAttr>(kCrossCoreFlagIdAttr))
      first = attr.getInt();
    func->removeAttr(kCrossCoreFlagIdAttr);

    llvm::SetVector<Value> storages;
    func.walk([&](Operation *op) {
      if (std::optional<Value> storage = getGmWritten(op))
        storages.insert(*storage);
    });
    // A storage whose cross-core accesses the kernel's flags already order
    // keeps that order: a handshake in program order could contradict it
    // (a cube group placed first that waits for the vector core) and
    // deadlock.
    if (!storages.empty())
      if (std::optional<llvm::SetVector<Value>> racing =
              findCrossCoreRaces(func))
        storages.remove_if(
            [&](Value storage) { return !racing->contains(storage); });
    if (failed(insertCrossCoreChannels(func, storages.getArrayRef(),
                                       CrossCoreChannelOptions{false, first})))
      signalPassFailure();
  }
};
} // namespace
