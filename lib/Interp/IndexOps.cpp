//===- IndexOps.cpp - Index sequences, scans, selection and sorting -------===//
//
// pto.tile.iota, row/col cumsum, row argmax/argmin, sort32 and mrgsort,
// gather and scatter by an index tile, and valid_dim. The order of sorting
// is Ascend C's Sort32: descending, NaN above every number, ties by index;
// the op descriptions in PTOOps.td give each rule and its source.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "Indexing.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Interp/MachineArith.h"

#include <algorithm>
#include <cstdio>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

/// A fresh result tile of `value`'s type with the given valid shape.
static TileValue resultTile(Value value, ArrayRef<int64_t> valid) {
  auto type = cast<TileType>(value.getType());
  TileValue tile = makeTile(type, kindOf(type));
  tile.valid.assign(valid.begin(), valid.end());
  return tile;
}

static LogicalResult runIota(ExecContext &context, Operation *raw) {
  auto op = cast<TileIotaOp>(raw);
  TileValue tile = resultTile(
      op.getResult(), cast<TileType>(op.getResult().getType()).getShape());
  const Scalar &start = context.scalar(op.getStart());
  int64_t rows = tile.shape()[0], cols = tile.shape().back();
  int64_t sign = op.getDescending() ? -1 : 1;
  ArrayData &data = *tile.data;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      data.setIndex(r * cols + c, start, sign * c);
  context.set(op.getResult(), std::move(tile));
  return success();
}

/// Inclusive prefix sums over the valid region, in order; padding is zero.
template <bool IsRow>
static LogicalResult runCumsum(ExecContext &context, Operation *op) {
  TileValue src = context.tile(op->getOperand(0));
  TileValue out = resultTile(op->getResult(0), src.valid);
  int64_t cols = src.shape()[1];
  int64_t lines = IsRow ? src.valid[0] : src.valid[1];
  int64_t count = IsRow ? src.valid[1] : src.valid[0];
  const ArrayData &in = *src.data;
  ArrayData &data = *out.data;
  for (int64_t line = 0; line < lines; ++line) {
    float facc = 0;
    int64_t iacc = 0;
    for (int64_t k = 0; k < count; ++k) {
      size_t at = IsRow ? line * cols + k : k * cols + line;
      if (isFloatKind(in.kind)) {
        facc = k == 0 ? in.floats[at] : facc + in.floats[at];
        data.floats[at] = roundFloat(in.kind, facc);
      } else {
        iacc = static_cast<int64_t>(static_cast<uint64_t>(iacc) +
                                    static_cast<uint64_t>(in.ints[at]));
        data.ints[at] = wrapInt(in.kind, iacc);
      }
    }
  }
  context.set(op->getResult(0), std::move(out));
  return success();
}

/// The best of each valid row by the max/min rule (NaN ignored unless the
/// whole row is NaN, +0 above -0) and the first column whose element
/// equals it as floats compare (-0 equals +0; a row of NaN gives column 0),
/// which is what a compare with the expanded best and a select of column
/// numbers find on the vector unit (and NumPy's nanargmax).
template <bool IsMax>
static LogicalResult runArgReduce(ExecContext &context, Operation *op) {
  TileValue src = context.tile(op->getOperand(0));
  int64_t rows = src.valid[0], count = src.valid[1], cols = src.shape()[1];
  SmallVector<int64_t, 2> outValid = {rows, 1};
  TileValue values = resultTile(op->getResult(0), outValid);
  TileValue indices = resultTile(op->getResult(1), outValid);
  const ArrayData &in = *src.data;
  for (int64_t r = 0; r < rows && count > 0; ++r) {
    int64_t best = 0;
    if (isFloatKind(in.kind)) {
      const float *row = &in.floats[r * cols];
      float value = row[0];
      for (int64_t c = 1; c < count; ++c)
        value = IsMax ? maxNum(value, row[c]) : minNum(value, row[c]);
      best = std::find(row, row + count, value) - row;
      if (best == count)
        best = 0;
      values.data->floats[r] = value;
    } else {
      int64_t value = in.ints[r * cols];
      for (int64_t c = 1; c < count; ++c) {
        int64_t x = in.ints[r * cols + c];
        if (IsMax ? x > value : x < value) {
          value = x;
          best = c;
        }
      }
      values.data->ints[r] = value;
    }
    indices.data->ints[r] = best;
  }
  context.set(op->getResult(0), std::move(values));
  context.set(op->getResult(1), std::move(indices));
  return success();
}

/// Each 32-block of a row sorted stably in the vector unit's order
/// (sortsBefore), with its column indices.
static LogicalResult runSort32(ExecContext &context, Operation *raw) {
  auto op = cast<TileSort32Op>(raw);
  TileValue src = context.tile(op.getSrc());
  int64_t rows = src.valid[0], count = src.valid[1], cols = src.shape()[1];
  if (count % 32 != 0)
    return op.emitOpError() << "sorts blocks of 32 columns, but the valid "
                               "shape "
                            << formatShape(src.valid)
                            << " has a partial block; pad the row (for "
                               "example with pto.tile.fillpad min)";
  TileValue values = resultTile(op.getValues(), src.valid);
  TileValue indices = resultTile(op.getIndices(), src.valid);
  std::vector<std::pair<float, int64_t>> block(32);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t b = 0; b < count; b += 32) {
      for (int64_t k = 0; k < 32; ++k)
        block[k] = {src.data->floats[r * cols + b + k], b + k};
      std::stable_sort(block.begin(), block.end(),
                       [](const auto &x, const auto &y) {
                         return sortsBefore(x.first, y.first);
                       });
      for (int64_t k = 0; k < 32; ++k) {
        values.data->floats[r * cols + b + k] = block[k].first;
        indices.data->ints[r * cols + b + k] = block[k].second;
      }
    }
  context.set(op.getValues(), std::move(values));
  context.set(op.getIndices(), std::move(indices));
  return success();
}

/// A value as printf's %g writes it (and the script's runtime too).
static std::string formatNumber(float value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", static_cast<double>(value));
  return text;
}

static LogicalResult runMrgSort(ExecContext &context, Operation *raw) {
  auto op = cast<TileMrgSortOp>(raw);
  TileValue values = context.tile(op.getValues());
  TileValue indices = context.tile(op.getIndices());
  int64_t rows = values.valid[0], count = values.valid[1];
  int64_t cols = values.shape()[1], block = op.getBlock();
  TileValue outValues = resultTile(op.getSortedValues(), values.valid);
  TileValue outIndices = resultTile(op.getSortedIndices(), values.valid);
  const ElementVector<float> &v = values.data->floats;
  const ElementVector<int64_t> &ix = indices.data->ints;
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = v.data() + r * cols;
    // The merge assumes sorted runs; an unsorted one is a kernel bug.
    for (int64_t c = 1; c < count; ++c)
      if (c % block != 0 && sortsBefore(row[c], row[c - 1]))
        return op.emitOpError()
               << "merges runs of " << block << " columns, but in row " << r
               << " column " << c << " (" << formatNumber(row[c])
               << ") ranks above column " << c - 1 << " ("
               << formatNumber(row[c - 1]) << "): the run is not sorted";
    for (int64_t begin = 0; begin < count; begin += 2 * block) {
      int64_t mid = std::min(begin + block, count);
      int64_t end = std::min(begin + 2 * block, count);
      int64_t i = begin, j = mid, to = begin;
      while (i < mid || j < end) {
        // A tie takes the left run's element.
        bool right = j < end && (i == mid || sortsBefore(row[j], row[i]));
        int64_t from = right ? j++ : i++;
        outValues.data->floats[r * cols + to] = row[from];
        outIndices.data->ints[r * cols + to] = ix[r * cols + from];
        ++to;
      }
    }
  }
  context.set(op.getSortedValues(), std::move(outValues));
  context.set(op.getSortedIndices(), std::move(outIndices));
  return success();
}

static LogicalResult runGather(ExecContext &context, Operation *raw) {
  auto op = cast<TileGatherOp>(raw);
  TileValue src = context.tile(op.getSrc());
  TileValue indices = context.tile(op.getIndices());
  TileValue out = resultTile(op.getResult(), indices.valid);
  int64_t numel = product(src.shape());
  forEachIndex(indices.valid, [&](ArrayRef<int64_t> index) {
    size_t at = linearIndex(indices.shape(), index);
    int64_t from = indices.data->ints[at];
    // An index outside the source box gives 0 (pto-isa's TGATHER reference).
    if (from >= 0 && from < numel)
      out.data->set(at, src.data->get(from));
  });
  context.set(op.getResult(), std::move(out));
  return success();
}

static LogicalResult runScatter(ExecContext &context, Operation *raw) {
  auto op = cast<TileScatterOp>(raw);
  TileValue src = context.tile(op.getSrc());
  TileValue indices = context.tile(op.getIndices());
  TileValue dst = context.tile(op.getDst());
  TileValue out = dst;
  out.data = std::make_shared<ArrayData>(*dst.data);
  out.buffer = 0;
  int64_t rows = dst.shape()[0], cols = dst.shape()[1];
  forEachIndex(src.valid, [&](ArrayRef<int64_t> index) {
    size_t at = linearIndex(src.shape(), index);
    int64_t row = indices.data->ints[at];
    // Each index names a destination row (pto-isa TSCATTER); later writes
    // win, and a row outside the tile writes nothing.
    if (row >= 0 && row < rows)
      out.data->set(row * cols + index[1], src.data->get(at));
  });
  context.set(op.getResult(), std::move(out));
  return success();
}

static LogicalResult runValidDim(ExecContext &context, Operation *raw) {
  auto op = cast<TileValidDimOp>(raw);
  TileValue tile = context.tile(op.getSrc());
  context.set(op.getResult(),
              Scalar::ofInt(ElementKind::Index, tile.valid[op.getDim()]));
  return success();
}

void interp::registerIndexHandlers(HandlerMap &map) {
  addHandler<TileIotaOp>(map, runIota);
  addHandler<TileRowCumsumOp>(map, runCumsum<true>);
  addHandler<TileColCumsumOp>(map, runCumsum<false>);
  addHandler<TileRowArgmaxOp>(map, runArgReduce<true>);
  addHandler<TileRowArgminOp>(map, runArgReduce<false>);
  addHandler<TileSort32Op>(map, runSort32);
  addHandler<TileMrgSortOp>(map, runMrgSort);
  addHandler<TileGatherOp>(map, runGather);
  addHandler<TileScatterOp>(map, runScatter);
  addHandler<TileValidDimOp>(map, runValidDim);
}
