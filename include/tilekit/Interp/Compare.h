//===- Compare.h - Checking results against expectations ----------*- C++
//-*-===//

#ifndef TILEKIT_INTERP_COMPARE_H
#define TILEKIT_INTERP_COMPARE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace tilekit::interp {

/// How far `actual` is from `expected`, element by element.
struct Comparison {
  double maxAbsError = 0;
  /// Largest |actual - expected| / |expected| over nonzero expectations.
  double maxRelError = 0;
  /// Elements failing |actual - expected| <= atol + rtol * |expected| (NaN
  /// matches only NaN, infinities only themselves).
  int64_t mismatches = 0;
  /// The first failing element, when there is one.
  int64_t firstMismatch = -1;
  /// Mismatches where exactly one side is NaN, or an infinity differs
  /// (not in the error maxima, which are over finite pairs).
  int64_t specialMismatches = 0;

  bool ok() const { return mismatches == 0; }
};

Comparison compareValues(llvm::ArrayRef<double> actual,
                         llvm::ArrayRef<double> expected, double rtol,
                         double atol);

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_COMPARE_H
