//===- Compare.cpp - Checking results against expectations ----------------===//
//
// The same criterion as numpy.allclose: |a - e| <= atol + rtol * |e|.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Interp/Compare.h"

#include <cmath>

using namespace tilekit;
using namespace tilekit::interp;

Comparison interp::compareValues(llvm::ArrayRef<double> actual,
                                 llvm::ArrayRef<double> expected, double rtol,
                                 double atol) {
  Comparison result;
  for (size_t i = 0, e = std::min(actual.size(), expected.size()); i < e; ++i) {
    double a = actual[i], x = expected[i];
    bool match;
    if (std::isnan(a) || std::isnan(x) || std::isinf(a) || std::isinf(x)) {
      match = (std::isnan(a) && std::isnan(x)) || a == x;
      result.specialMismatches += !match;
    } else {
      double error = std::fabs(a - x);
      result.maxAbsError = std::max(result.maxAbsError, error);
      if (x != 0)
        result.maxRelError = std::max(result.maxRelError, error / std::fabs(x));
      match = error <= atol + rtol * std::fabs(x);
    }
    if (!match) {
      if (result.mismatches == 0)
        result.firstMismatch = static_cast<int64_t>(i);
      ++result.mismatches;
    }
  }
  return result;
}
