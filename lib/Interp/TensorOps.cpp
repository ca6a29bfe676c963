//===- TensorOps.cpp - GM tensor ops in the executor ----------------------===//
//
// Tensors are GM buffers: create/full allocate, view shares the buffer with
// another shape, assemble and write update the buffer in place, slice
// copies a box (zero past the edge), matmul computes in f32 and rounds to
// the result's element type.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"

#include "Indexing.h"
#include "tilekit/Support/CheckedSize.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

/// The concrete shape of a result type, taking '?' extents from `sizes`.
static SmallVector<int64_t, 4>
concreteShape(ExecContext &context, GMTensorType type, ValueRange sizes) {
  SmallVector<int64_t, 4> shape;
  size_t next = 0;
  for (int64_t dim : type.getShape())
    shape.push_back(ShapedType::isDynamic(dim) ? context.index(sizes[next++])
                                               : dim);
  return shape;
}

LogicalResult interp::checkTensorSize(Operation *op, ArrayRef<int64_t> shape,
                                      ElementKind kind) {
  for (int64_t dim : shape)
    if (dim < 0)
      return op->emitOpError()
             << "has a negative size in " << formatShape(shape);
  llvm::Expected<uint64_t> bytes = checkedBytes(
      shape, isFloatKind(kind) ? 4 : 8, "tensor " + formatShape(shape));
  llvm::Error error =
      bytes ? checkAllocatable(*bytes, "tensor " + formatShape(shape))
            : bytes.takeError();
  if (error)
    return op->emitOpError() << toString(std::move(error));
  return success();
}

static LogicalResult runCreate(ExecContext &context, Operation *raw) {
  auto op = cast<TensorCreateOp>(raw);
  auto type = cast<GMTensorType>(op.getResult().getType());
  SmallVector<int64_t, 4> shape = concreteShape(context, type, op.getSizes());
  if (failed(checkTensorSize(op, shape, kindOf(type))))
    return failure();
  context.set(op.getResult(), makeTensor(kindOf(type), shape));
  return success();
}

static LogicalResult runFull(ExecContext &context, Operation *raw) {
  auto op = cast<TensorFullOp>(raw);
  auto type = cast<GMTensorType>(op.getResult().getType());
  SmallVector<int64_t, 4> shape = concreteShape(context, type, op.getSizes());
  if (failed(checkTensorSize(op, shape, kindOf(type))))
    return failure();
  TensorValue tensor = makeTensor(kindOf(type), shape);
  tensor.storage->data.fill(context.scalar(op.getValue()));
  context.set(op.getResult(), std::move(tensor));
  return success();
}

static LogicalResult runView(ExecContext &context, Operation *raw) {
  auto op = cast<TensorViewOp>(raw);
  TensorValue tensor = context.tensor(op.getSrc());
  auto type = cast<GMTensorType>(op.getResult().getType());
  SmallVector<int64_t, 4> shape = concreteShape(context, type, op.getSizes());
  if (product(shape) != tensor.numElements())
    return op.emitOpError() << "views " << tensor.numElements()
                            << " elements as " << formatShape(shape);
  tensor.shape = shape;
  tensor.valid = shape;
  context.set(op.getResult(), std::move(tensor));
  return success();
}

static LogicalResult runDim(ExecContext &context, Operation *raw) {
  auto op = cast<TensorDimOp>(raw);
  TensorValue &tensor = context.tensor(op.getSrc());
  context.set(op.getResult(),
              Scalar::ofInt(ElementKind::Index,
                            tensor.shape[op.getDimAttr().getInt()]));
  return success();
}

static LogicalResult runSlice(ExecContext &context, Operation *raw) {
  auto op = cast<TensorSliceOp>(raw);
  TensorValue &src = context.tensor(op.getSrc());
  auto type = cast<GMTensorType>(op.getResult().getType());
  SmallVector<int64_t, 4> offsets = context.indices(op.getOffsets());
  for (int64_t offset : offsets)
    if (offset < 0)
      return op.emitOpError()
             << "has a negative offset " << formatShape(offsets);
  TensorValue slice = makeTensor(src.kind(), type.getShape());
  SmallVector<int64_t, 4> inside;
  for (size_t d = 0; d < offsets.size(); ++d) {
    inside.push_back(
        std::clamp<int64_t>(src.shape[d] - offsets[d], 0, type.getDimSize(d)));
    slice.valid[d] =
        std::clamp<int64_t>(src.valid[d] - offsets[d], 0, type.getDimSize(d));
  }
  SmallVector<int64_t, 4> at(offsets.size());
  forEachIndex(inside, [&](ArrayRef<int64_t> index) {
    for (size_t d = 0; d < at.size(); ++d)
      at[d] = offsets[d] + index[d];
    slice.storage->data.set(linearIndex(slice.shape, index),
                            src.storage->data.get(linearIndex(src.shape, at)));
  });
  if (!op.getValidShape().empty()) {
    SmallVector<int64_t, 4> valid = context.indices(op.getValidShape());
    if (failed(checkValidShape(op, valid, slice.shape)))
      return failure();
    slice.valid = valid;
  }
  context.set(op.getResult(), std::move(slice));
  return success();
}

static LogicalResult runAssemble(ExecContext &context, Operation *raw) {
  auto op = cast<TensorAssembleOp>(raw);
  TensorValue src = context.tensor(op.getSrc());
  TensorValue dst = context.tensor(op.getDst());
  SmallVector<int64_t, 4> offsets = context.indices(op.getOffsets());
  for (auto [offset, extent, dim] : llvm::zip(offsets, src.valid, dst.shape))
    if (offset < 0 || extent > dim - offset) // no overflow near 2^63
      return op.emitOpError()
             << "writes the valid region " << formatShape(src.valid)
             << " at offset " << formatShape(offsets)
             << ", past the target of shape " << formatShape(dst.shape);
  SmallVector<int64_t, 4> at(offsets.size());
  forEachIndex(src.valid, [&](ArrayRef<int64_t> index) {
    for (size_t d = 0; d < at.size(); ++d)
      at[d] = offsets[d] + index[d];
    dst.storage->data.set(linearIndex(dst.shape, at),
                          src.storage->data.get(linearIndex(src.shape, index)));
  });
  context.set(op.getResult(), dst);
  return success();
}

LogicalResult interp::checkIndex(Operation *op, ArrayRef<int64_t> index,
                                 ArrayRef<int64_t> shape) {
  for (auto [i, dim] : llvm::zip(index, shape))
    if (i < 0 || i >= dim)
      return op->emitOpError()
             << "index " << formatShape(index)
             << " is outside the tensor of shape " << formatShape(shape);
  return success();
}

LogicalResult interp::readElement(ExecContext &context, Operation *op,
                                  Value tensorValue, ValueRange indices,
                                  Value result) {
  TensorValue &tensor = context.tensor(tensorValue);
  SmallVector<int64_t, 4> index = context.indices(indices);
  if (failed(checkIndex(op, index, tensor.shape)))
    return failure();
  context.set(result, tensor.storage->data.scalarAt(
                          tensor.offset + linearIndex(tensor.shape, index)));
  return success();
}

static LogicalResult runRead(ExecContext &context, Operation *raw) {
  auto op = cast<TensorReadOp>(raw);
  return readElement(context, op, op.getSrc(), op.getIndices(), op.getResult());
}

static LogicalResult runWrite(ExecContext &context, Operation *raw) {
  auto op = cast<TensorWriteOp>(raw);
  TensorValue tensor = context.tensor(op.getDst());
  SmallVector<int64_t, 4> index = context.indices(op.getIndices());
  if (failed(checkIndex(op, index, tensor.shape)))
    return failure();
  tensor.storage->data.setScalar(linearIndex(tensor.shape, index),
                                 context.scalar(op.getValue()));
  context.set(op.getResult(), tensor);
  return success();
}

/// C = op(A) @ op(B) (+ acc): computed in f32 and rounded to C's type.
static LogicalResult runMatmulImpl(ExecContext &context, Operation *op,
                                   Value accValue, Value lhsValue,
                                   Value rhsValue, Value initCond, bool aTrans,
                                   bool bTrans) {
  TensorValue &lhs = context.tensor(lhsValue);
  TensorValue &rhs = context.tensor(rhsValue);
  size_t rank = lhs.shape.size();
  int64_t m = lhs.shape[rank - (aTrans ? 1 : 2)];
  int64_t k = lhs.shape[rank - (aTrans ? 2 : 1)];
  int64_t kb = rhs.shape[rank - (bTrans ? 1 : 2)];
  int64_t n = rhs.shape[rank - (bTrans ? 2 : 1)];
  int64_t batch = product(ArrayRef<int64_t>(lhs.shape).drop_back(2));
  if (k != kb || ArrayRef<int64_t>(lhs.shape).drop_back(2) !=
                     ArrayRef<int64_t>(rhs.shape).drop_back(2))
    return op->emitOpError()
           << "multiplies tensors of shapes " << formatShape(lhs.shape)
           << " and " << formatShape(rhs.shape);
  SmallVector<int64_t, 4> shape(lhs.shape.begin(), lhs.shape.end() - 2);
  shape.push_back(m);
  shape.push_back(n);
  ElementKind outKind = kindOf(op->getResult(0).getType());
  bool accumulate = accValue && !(initCond && context.scalar(initCond).i);
  ElementKind accKind =
      isFloatKind(lhs.kind()) ? ElementKind::F32 : ElementKind::I64;
  ArrayData acc(accKind, product(shape));
  if (accumulate) {
    TensorValue &init = context.tensor(accValue);
    if (init.shape != shape)
      return op->emitOpError()
             << "accumulates into a tensor of shape " << formatShape(init.shape)
             << ", not " << formatShape(shape);
    for (size_t i = 0, e = acc.size(); i < e; ++i)
      acc.set(i, init.storage->data.get(i));
  }
  if (failed(matmulInto(op, lhs.storage->data, rhs.storage->data, acc, batch, m,
                        k, n, accumulate, aTrans, bTrans)))
    return failure();
  TensorValue result = makeTensor(outKind, shape);
  for (size_t i = 0, e = acc.size(); i < e; ++i)
    result.storage->data.set(i, acc.get(i));
  context.set(op->getResult(0), std::move(result));
  return success();
}

static LogicalResult runMatmul(ExecContext &context, Operation *raw) {
  auto op = cast<TensorMatmulOp>(raw);
  return runMatmulImpl(context, op, Value(), op.getLhs(), op.getRhs(), Value(),
                       op.getATrans(), op.getBTrans());
}

static LogicalResult runMatmulAcc(ExecContext &context, Operation *raw) {
  auto op = cast<TensorMatmulAccOp>(raw);
  return runMatmulImpl(context, op, op.getAcc(), op.getLhs(), op.getRhs(),
                       op.getInitCond(), op.getATrans(), op.getBTrans());
}

void interp::registerTensorHandlers(HandlerMap &map) {
  addHandler<TensorCreateOp>(map, runCreate);
  addHandler<TensorFullOp>(map, runFull);
  addHandler<TensorViewOp>(map, runView);
  addHandler<TensorDimOp>(map, runDim);
  addHandler<TensorSliceOp>(map, runSlice);
  addHandler<TensorAssembleOp>(map, runAssemble);
  addHandler<TensorReadOp>(map, runRead);
  addHandler<TensorWriteOp>(map, runWrite);
  addHandler<TensorMatmulOp>(map, runMatmul);
  addHandler<TensorMatmulAccOp>(map, runMatmulAcc);
}
