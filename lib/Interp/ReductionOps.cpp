//===- ReductionOps.cpp - Row and column reductions -----------------------===//
//
// A row reduction folds the last dimension, a column reduction the one
// before it, over the valid region only, accumulating in f32 as a halving
// tree (int64 in order for integers, where the order does not matter) and
// rounding the result once. Elements of the result outside
// its valid shape are zero.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Interp/MachineArith.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

namespace {
enum class Reduction { Sum, Max, Min, Prod };
} // namespace

/// One step of a fold; float max/min ignore NaN as the elementwise Max/Min
/// do. Integer sums and products wrap.
static float combine(Reduction reduction, float acc, float value) {
  switch (reduction) {
  case Reduction::Sum:
    return acc + value;
  case Reduction::Max:
    return maxNum(acc, value);
  case Reduction::Min:
    return minNum(acc, value);
  case Reduction::Prod:
    return acc * value;
  }
  llvm_unreachable("unknown reduction");
}

static int64_t combine(Reduction reduction, int64_t acc, int64_t value) {
  switch (reduction) {
  case Reduction::Sum:
    return static_cast<int64_t>(static_cast<uint64_t>(acc) +
                                static_cast<uint64_t>(value));
  case Reduction::Max:
    return std::max(acc, value);
  case Reduction::Min:
    return std::min(acc, value);
  case Reduction::Prod:
    return static_cast<int64_t>(static_cast<uint64_t>(acc) *
                                static_cast<uint64_t>(value));
  }
  llvm_unreachable("unknown reduction");
}

/// Folds `values[0, count)` as a tree that halves the line each step:
/// element i takes in element i + ceil(n / 2) while the line has n > 1
/// elements. The script reproduces this order with whole-tile adds
/// (lib/Target/Torch/preamble.py, _fold), so sums agree to the bit.
static float foldHalves(Reduction reduction, std::vector<float> &values,
                        int64_t count) {
  for (int64_t n = count; n > 1;) {
    int64_t half = (n + 1) / 2;
    for (int64_t i = 0; i + half < n; ++i)
      values[i] = combine(reduction, values[i], values[i + half]);
    n = half;
  }
  return values[0];
}

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
  bool isFloat = isFloatKind(in->kind);

  // Each output element folds a line of `count` inputs spaced `stride` apart.
  int64_t count = IsRow ? validCols : validRows;
  std::vector<float> scratch(isFloat ? count : 0);
  int64_t stride = IsRow ? 1 : cols;
  int64_t lines = IsRow ? validRows : validCols;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t line = 0; line < lines; ++line) {
      int64_t first = b * rows * cols + (IsRow ? line * cols : line);
      int64_t to = b * outRows * outCols + line;
      if (count == 0)
        continue;
      if (isFloat) {
        for (int64_t k = 0; k < count; ++k)
          scratch[k] = in->floats[first + k * stride];
        out->floats[to] = roundFloat(in->kind, foldHalves(R, scratch, count));
      } else {
        int64_t acc = in->ints[first];
        for (int64_t k = 1; k < count; ++k)
          acc = combine(R, acc, in->ints[first + k * stride]);
        out->ints[to] = wrapInt(in->kind, acc);
      }
    }
  }

  Value result = op->getResult(0);
  if (auto type = dyn_cast<TileType>(result.getType())) {
    TileValue tile;
    tile.type = type;
    tile.valid.assign(outValid.begin(), outValid.end());
    tile.data = std::move(out);
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
