//===- Folding.h - How the vector unit folds a line of elements -*- C++ -*-===//
//
// One definition of a reduction's order and arithmetic, shared by the tile
// reductions and the AscendC reduce ops so both compute the same bits:
// floats accumulate in f32 as a halving tree and round once at the end;
// integers fold in order in int64 (the order does not matter) and wrap.
// Internal to the executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_FOLDING_H
#define TILEKIT_LIB_INTERP_FOLDING_H

#include "tilekit/Interp/MachineArith.h"
#include "tilekit/Interp/Values.h"

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tilekit::interp {

enum class Reduction { Sum, Max, Min, Prod };

/// One step of a fold; float max/min ignore NaN as the elementwise Max/Min
/// do. Integer sums and products wrap.
inline float combine(Reduction reduction, float acc, float value) {
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

inline int64_t combine(Reduction reduction, int64_t acc, int64_t value) {
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

/// Folds `values[0, count)` (count > 0) as a tree that halves the line each
/// step: element i takes in element i + ceil(n / 2) while the line has
/// n > 1 elements. The torch script reproduces this order with whole-tile
/// adds (lib/Target/Torch/preamble.py, _fold), so sums agree to the bit.
inline float foldHalves(Reduction reduction, std::vector<float> &values,
                        int64_t count) {
  for (int64_t n = count; n > 1;) {
    int64_t half = (n + 1) / 2;
    for (int64_t i = 0; i + half < n; ++i)
      values[i] = combine(reduction, values[i], values[i + half]);
    n = half;
  }
  return values[0];
}

/// Folds the `count` elements of `in` at `first`, `first + stride`, ...
/// into `out[to]`: the f32 fold rounded to the kind, or the wrapped int64
/// fold. `line` is scratch space, reused across calls.
inline void foldLine(Reduction reduction, const ArrayData &in, int64_t first,
                     int64_t stride, int64_t count, ArrayData &out, int64_t to,
                     std::vector<float> &line) {
  if (isFloatKind(in.kind)) {
    line.resize(count);
    for (int64_t k = 0; k < count; ++k)
      line[k] = in.floats[first + k * stride];
    out.floats[to] = roundFloat(in.kind, foldHalves(reduction, line, count));
    return;
  }
  int64_t acc = in.ints[first];
  for (int64_t k = 1; k < count; ++k)
    acc = combine(reduction, acc, in.ints[first + k * stride]);
  out.ints[to] = wrapInt(in.kind, acc);
}

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_FOLDING_H
