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

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_INDEXING_H
