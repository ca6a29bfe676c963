//===- RefineCubePosition.cpp - a1 tensors feeding L0B or bias ------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_REFINECUBEPOSITION
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

/// The L1 position a consumer writing to `destination` needs its source at.
static std::optional<Position> sourcePositionFor(Position destination) {
  switch (destination) {
  case Position::A2:
    return Position::A1;
  case Position::B2:
    return Position::B1;
  case Position::C2:
    return Position::C1;
  default:
    return std::nullopt;
  }
}

/// The tensor an L0 load or bias copy reads and the tensor it writes.
static std::optional<std::pair<Value, Value>> getTransfer(Operation *op) {
  if (auto load = dyn_cast<LoadDataOp>(op))
    return std::make_pair(load.getSrc(), load.getDst());
  if (auto copy = dyn_cast<DataCopyOp>(op))
    return std::make_pair(copy.getSrc(), copy.getDst());
  return std::nullopt;
}

namespace {
struct RefineCubePositionPass
    : tilekit::ascendc::impl::RefineCubePositionBase<RefineCubePositionPass> {
  void runOnOperation() override {
    // Consumers of each a1 placeholder, in IR order, so that diagnostics
    // name the first consumer first.
    llvm::MapVector<LocalTensorAutoOp, SmallVector<Operation *>> consumers;
    getOperation().walk([&](Operation *op) {
      if (auto transfer = getTransfer(op))
        // The source may be read through reinterpret casts of the
        // placeholder.
        if (auto source =
                getStorage(transfer->first).getDefiningOp<LocalTensorAutoOp>();
            source && source.getPosition() == Position::A1)
          consumers[source].push_back(op);
    });
    if (consumers.empty())
      return markAllAnalysesPreserved(); // unchanged: no verification again
    for (auto &[tensor, users] : consumers)
      if (failed(refine(tensor, users)))
        return signalPassFailure();
  }

  static LogicalResult refine(LocalTensorAutoOp op,
                              ArrayRef<Operation *> users) {
    std::optional<Position> chosen;
    Operation *chosenBy = nullptr;
    for (Operation *user : users) {
      std::optional<Position> at = getPosition(getTransfer(user)->second);
      std::optional<Position> wanted =
          at ? sourcePositionFor(*at) : std::nullopt;
      if (!wanted)
        continue;
      if (chosen && *chosen != *wanted) {
        InFlightDiagnostic diag = op.emitOpError()
                                  << "has consumers that need it at both "
                                  << stringifyPosition(*chosen) << " and "
                                  << stringifyPosition(*wanted)
                                  << "; an L1 tensor has one role";
        diag.attachNote(chosenBy->getLoc()) << "first consumer";
        diag.attachNote(user->getLoc()) << "conflicting consumer";
        return failure();
      }
      chosen = wanted;
      chosenBy = user;
    }
    if (chosen)
      op.setPosition(*chosen);
    return success();
  }
};
} // namespace
