//===- Indexing.h - Walking row-major boxes -----------------------*- C++
//-*-===//
//
// Internal to the executor: the index loops its op families share.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_INDEXING_H
#define TILEKIT_LIB_INTERP_INDEXING_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace tilekit::interp {

/// Calls `fn(index)` for every index of a box of `extent`, in row-major
/// order (nothing when an extent is zero).
template <typename Fn>
void forEachIndex(llvm::ArrayRef<int64_t> extent, Fn fn) {
  if (llvm::any_of(extent, [](int64_t e) { return e <= 0; }))
    return;
  llvm::SmallVector<int64_t, 4> index(extent.size(), 0);
  while (true) {
    fn(llvm::ArrayRef<int64_t>(index));
    int64_t d = static_cast<int64_t>(extent.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < extent[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// The row-major position of `index` in `shape`.
inline int64_t linearIndex(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<int64_t> index) {
  int64_t linear = 0;
  for (auto [dim, i] : llvm::zip(shape, index))
    linear = linear * dim + i;
  return linear;
}

/// Row-major strides of the trailing `rank` dimensions of `shape`.
inline llvm::SmallVector<int64_t, 4>
trailingStrides(llvm::ArrayRef<int64_t> shape, size_t rank) {
  llvm::SmallVector<int64_t, 4> strides(rank, 1);
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = stride;
    stride *= shape[shape.size() - rank + d];
  }
  return strides;
}

/// Walks the runs along the last dimension of a box of `extent` placed in
/// two row-major arrays: `fn(first, second, length)` gets each run's
/// position in both, from `firstBase` and `secondBase` with the given
/// strides (one per dimension of `extent`). No index vectors per run: the
/// positions advance by the strides.
template <typename Fn>
void forEachRunPair(llvm::ArrayRef<int64_t> extent, int64_t firstBase,
                    llvm::ArrayRef<int64_t> firstStrides, int64_t secondBase,
                    llvm::ArrayRef<int64_t> secondStrides, Fn fn) {
  if (extent.empty() || llvm::any_of(extent, [](int64_t e) { return e <= 0; }))
    return;
  size_t outer = extent.size() - 1;
  llvm::SmallVector<int64_t, 4> index(outer, 0);
  int64_t first = firstBase, second = secondBase;
  while (true) {
    fn(first, second, extent.back());
    size_t d = outer;
    for (; d-- > 0;) {
      first += firstStrides[d];
      second += secondStrides[d];
      if (++index[d] < extent[d])
        break;
      first -= firstStrides[d] * extent[d];
      second -= secondStrides[d] * extent[d];
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1))
      return;
  }
}

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_INDEXING_H
