//===- CoreGroups.cpp - Cube and vector groups of a function --------------===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

using namespace mlir;

namespace tilekit::ascendc {

Operation *getCoreGroup(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<IfAicOp, IfAivOp>(parent))
      return parent;
  return nullptr;
}

} // namespace tilekit::ascendc
