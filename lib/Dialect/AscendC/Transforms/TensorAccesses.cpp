//===- TensorAccesses.cpp - What an op reads and writes -------------------===//

#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace tilekit::ascendc {

TensorStorage getTensorStorage(Value tensor) {
  Value root = getStorage(tensor);
  if (auto planned = root.getDefiningOp<LocalTensorOp>())
    return TensorStorage{
        nullptr, static_cast<int>(getBuffer(planned.getPosition())),
        static_cast<int64_t>(planned.getAddr()),
        static_cast<int64_t>(planned.getAddr() + planned.getSize()),
        getTensorOwner(root)};
  return TensorStorage{root.getAsOpaquePointer(), -1, 0, 0};
}

SmallVector<TensorAccess> getTensorAccesses(Operation *op) {
  SmallVector<TensorAccess> accesses;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return accesses;
  for (Value value : op->getOperands()) {
    if (!isa<LocalTensorType, GlobalTensorType>(value.getType()))
      continue;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffectsOnValue(value, instances);
    TensorAccess access{value};
    for (MemoryEffects::EffectInstance &instance : instances) {
      access.reads |= isa<MemoryEffects::Read>(instance.getEffect());
      access.writes |= isa<MemoryEffects::Write>(instance.getEffect());
    }
    if (access.reads || access.writes)
      accesses.push_back(access);
  }
  return accesses;
}

} // namespace tilekit::ascendc
