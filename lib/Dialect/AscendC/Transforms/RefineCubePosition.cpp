//===- RefineCubePosition.cpp - a1 tensors feeding L0B or bias ------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

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

namespace {
struct RefineCubePositionPass
    : tilekit::ascendc::impl::RefineCubePositionBase<RefineCubePositionPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](LocalTensorAutoOp op) {
      if (op.getPosition() != Position::A1)
        return WalkResult::advance();
      return succeeded(refine(op)) ? WalkResult::advance()
                                   : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  static LogicalResult refine(LocalTensorAutoOp op) {
    std::optional<Position> chosen;
    Operation *chosenBy = nullptr;
    for (Operation *user : op->getUsers()) {
      Value destination;
      if (auto load = dyn_cast<LoadDataOp>(user); load && load.getSrc() == op)
        destination = load.getDst();
      else if (auto copy = dyn_cast<DataCopyOp>(user);
               copy && copy.getSrc() == op)
        destination = copy.getDst();
      if (!destination)
        continue;
      std::optional<Position> at = getPosition(destination);
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
