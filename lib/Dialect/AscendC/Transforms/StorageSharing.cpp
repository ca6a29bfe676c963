//===- StorageSharing.cpp - Local tensors sharing storage -----------------===//

#include "tilekit/Dialect/AscendC/Transforms/StorageSharing.h"
#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tilekit::ascendc {

void forEachUse(Value tensor, llvm::function_ref<void(Operation *)> visit) {
  for (Operation *user : tensor.getUsers()) {
    visit(user);
    if (auto cast = dyn_cast<ReinterpretCastOp>(user))
      forEachUse(cast.getResult(), visit);
  }
}

/// Replaces the placeholder `tensor` by a cast of `owner`.
static void replaceWithCast(LocalTensorAutoOp tensor, LocalTensorAutoOp owner) {
  OpBuilder builder(tensor);
  auto cast = ReinterpretCastOp::create(builder, tensor.getLoc(),
                                        tensor.getType(), owner.getResult());
  // Discardable attributes (reuse groups, unroll iterations) move to the cast.
  for (NamedAttribute attr : tensor->getDiscardableAttrs())
    cast->setAttr(attr.getName(), attr.getValue());
  tensor.replaceAllUsesWith(cast.getResult());
  tensor.erase();
}

LocalTensorAutoOp shareStorage(LocalTensorAutoOp owner,
                               LocalTensorAutoOp tensor) {
  int64_t ownerBytes = getAllocationBytes(owner.getType(), owner.getPosition());
  int64_t bytes = getAllocationBytes(tensor.getType(), tensor.getPosition());
  if (bytes <= ownerBytes) {
    replaceWithCast(tensor, owner);
    return owner;
  }
  // A placeholder has no operands, so it can move up to where the owner was
  // defined; the owner becomes its cast.
  tensor->moveBefore(owner);
  replaceWithCast(owner, tensor);
  return tensor;
}

} // namespace tilekit::ascendc
