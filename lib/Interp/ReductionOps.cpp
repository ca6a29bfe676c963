//===- ReductionOps.cpp - Row and column reductions -----------------------===//
//
// A row reduction folds the last dimension, a column reduction the one
// before it, over the valid region only, in the order Folding.h defines.
// Elements of the result outside its valid shape are zero.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "Folding.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

template <Reduction R, bool IsRow>
static LogicalResult runReduce(ExecContext &context, Operation *op) {
  Value source = op->getOperand(0);
  std::shared_ptr<ArrayData> in;
  SmallVector<int64_t, 4> shape, valid;
  if (isa<TileType>(source.getType())) {
    TileValue tile = context.tile(source);
    in = tile.data;
    shape.assign(tile.shape().begin(), tile.shape().end());
    valid.assign(tile.valid.begin(), tile.valid.end());
  } else {
    TensorValue &tensor = context.tensor(source);
    in = std::shared_ptr<ArrayData>(tensor.storage, &tensor.storage->data);
    shape = tensor.shape;
    valid = tensor.valid;
  }
  size_t rank = shape.size();
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  int64_t batches = product(ArrayRef<int64_t>(shape).drop_back(2));
  int64_t validRows = valid[rank - 2], validCols = valid[rank - 1];
  SmallVector<int64_t, 4> outShape = shape, outValid = valid;
  outShape[rank - (IsRow ? 1 : 2)] = 1;
  outValid[rank - (IsRow ? 1 : 2)] = 1;
  int64_t outRows = outShape[rank - 2], outCols = outShape[rank - 1];
  auto out = std::make_shared<ArrayData>(in->kind, product(outShape));

  // Each output element folds a line of `count` inputs spaced `stride` apart.
  int64_t count = IsRow ? validCols : validRows;
  int64_t stride = IsRow ? 1 : cols;
  int64_t lines = IsRow ? validRows : validCols;
  std::vector<float> scratch;
  for (int64_t b = 0; b < batches && count > 0; ++b)
    for (int64_t line = 0; line < lines; ++line)
      foldLine(R, *in, b * rows * cols + (IsRow ? line * cols : line), stride,
               count, *out, b * outRows * outCols + line, scratch);

  Value result = op->getResult(0);
  if (auto type = dyn_cast<TileType>(result.getType())) {
    TileValue tile;
    tile.type = type;
    tile.valid.assign(outValid.begin(), outValid.end());
    tile.data = std::move(out);
    // The lines past the valid ones are not written: undefined.
    if (context.getInterpreter().getOptions().undefined == UndefinedData::NaN)
      fillUndefined(tile, tile.valid);
    context.set(result, std::move(tile));
  } else {
    TensorValue tensor = makeTensor(in->kind, outShape);
    tensor.storage->data = std::move(*out);
    tensor.valid = outValid;
    context.set(result, std::move(tensor));
  }
  return success();
}

#define REDUCTION(KIND, STEM)                                                  \
  addHandler<TileRow##STEM##Op>(map, runReduce<Reduction::KIND, true>);        \
  addHandler<TileCol##STEM##Op>(map, runReduce<Reduction::KIND, false>);       \
  addHandler<TensorRow##STEM##Op>(map, runReduce<Reduction::KIND, true>);      \
  addHandler<TensorCol##STEM##Op>(map, runReduce<Reduction::KIND, false>)

void interp::registerReductionHandlers(HandlerMap &map) {
  REDUCTION(Sum, Sum);
  REDUCTION(Max, Max);
  REDUCTION(Min, Min);
  REDUCTION(Prod, Prod);
}
