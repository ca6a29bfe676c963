//===- MemRefOps.cpp - Scalar memory of a core in the executor ------------===//
//
// The AscendC passes keep per-core scalar state in small memrefs (the mmad
// init flag of -ascendc-fixup-mmad-acc-params): alloca/alloc make a buffer
// of static shape, load and store read and write one element. A buffer
// lives in the invocation that made it, as the core's scalar memory does,
// so the two cores of a mixed kernel each have their own.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"

#include "Indexing.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tilekit::interp;

namespace {

template <typename AllocOp>
LogicalResult runAlloc(ExecContext &context, Operation *raw) {
  auto op = cast<AllocOp>(raw);
  MemRefType type = op.getType();
  if (!type.hasStaticShape())
    return op.emitOpError() << "allocates a memref of dynamic shape " << type
                            << ", which the executor does not support";
  ElementKind kind = kindOf(type.getElementType());
  if (failed(checkTensorSize(op, type.getShape(), kind)))
    return failure();
  context.set(op.getResult(), makeTensor(kind, type.getShape()));
  return success();
}

/// The position in `memref`'s buffer of the element `indices` name, or
/// an error at `op` when they lie outside it.
FailureOr<int64_t> elementOf(ExecContext &context, Operation *op, Value memref,
                             ValueRange indices) {
  const TensorValue &buffer = context.tensor(memref);
  SmallVector<int64_t, 4> index = context.indices(indices);
  if (failed(checkIndex(op, index, buffer.shape)))
    return failure();
  return linearIndex(buffer.shape, index);
}

LogicalResult runLoad(ExecContext &context, Operation *raw) {
  auto op = cast<memref::LoadOp>(raw);
  FailureOr<int64_t> at =
      elementOf(context, op, op.getMemRef(), op.getIndices());
  if (failed(at))
    return failure();
  context.set(op.getResult(),
              context.tensor(op.getMemRef()).storage->data.scalarAt(*at));
  return success();
}

LogicalResult runStore(ExecContext &context, Operation *raw) {
  auto op = cast<memref::StoreOp>(raw);
  FailureOr<int64_t> at =
      elementOf(context, op, op.getMemRef(), op.getIndices());
  if (failed(at))
    return failure();
  context.tensor(op.getMemRef())
      .storage->data.setScalar(*at, context.scalar(op.getValue()));
  return success();
}

} // namespace

void tilekit::interp::registerMemRefHandlers(HandlerMap &map) {
  addHandler<memref::AllocaOp>(map, runAlloc<memref::AllocaOp>);
  addHandler<memref::AllocOp>(map, runAlloc<memref::AllocOp>);
  addHandler<memref::LoadOp>(map, runLoad);
  addHandler<memref::StoreOp>(map, runStore);
}
