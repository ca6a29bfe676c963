//===- Summary.cpp - One-line summaries of runtime values -----------------===//

#include "tilekit/Interp/Summary.h"

#include "llvm/Support/Format.h"

#include <cmath>

using namespace tilekit;
using namespace tilekit::interp;

/// min/max/mean over the leading `valid` region of a row-major `shape`.
static void printStats(llvm::raw_ostream &os, const ArrayData &data,
                       llvm::ArrayRef<int64_t> shape,
                       llvm::ArrayRef<int64_t> valid) {
  double low = INFINITY, high = -INFINITY, sum = 0;
  int64_t count = 0;
  for (size_t i = 0, e = data.size(); i < e; ++i) {
    size_t rest = i;
    bool inside = true;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (static_cast<int64_t>(rest % shape[d]) >= valid[d])
        inside = false;
      rest /= shape[d];
    }
    if (!inside)
      continue;
    double value = data.get(i);
    low = std::min(low, value);
    high = std::max(high, value);
    sum += value;
    ++count;
  }
  if (count == 0) {
    os << " (empty)";
    return;
  }
  os << llvm::format(" min %g max %g mean %g", low, high, sum / count);
}

static void printShape(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> shape) {
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
}

void interp::printSummary(llvm::raw_ostream &os, const RuntimeValue &value) {
  if (auto *scalar = std::get_if<Scalar>(&value)) {
    os << getKindName(scalar->kind) << ' ';
    if (isFloatKind(scalar->kind))
      os << llvm::format("%g", scalar->f);
    else
      os << scalar->i;
    return;
  }
  if (auto *tile = std::get_if<TileValue>(&value)) {
    os << "tile " << tile->type << " valid ";
    printShape(os, tile->valid);
    printStats(os, *tile->data, tile->shape(), tile->valid);
    return;
  }
  const auto &tensor = std::get<TensorValue>(value);
  os << "tensor " << getKindName(tensor.kind()) << ' ';
  printShape(os, tensor.shape);
  if (tensor.valid != tensor.shape) {
    os << " valid ";
    printShape(os, tensor.valid);
  }
  printStats(os, tensor.storage->data, tensor.shape, tensor.valid);
}
