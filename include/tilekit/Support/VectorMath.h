//===- VectorMath.h - Transcendental functions over whole arrays --*- C++
//-*-===//
//
// The vector unit computes exp over a whole row at once; so does the
// executor. The functions here are branch-free per element and vectorize;
// their results are the same bits on every CPU and in every clone (no
// fused multiply-add: see lib/Support/CMakeLists.txt), and each states its
// error bound, which unittests/Support/VectorMathTest.cpp checks against
// libm on every f16 value and a dense sample of f32.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_VECTORMATH_H
#define TILEKIT_SUPPORT_VECTORMATH_H

#include <cstddef>

namespace tilekit {

/// out[i] = exp(in[i]), at most 1 ulp from the correctly rounded result
/// (subnormal results included); overflow gives +inf, NaN stays NaN. `in`
/// and `out` may be the same array.
void expArray(const float *in, float *out, size_t count);

/// exp of one value, the same bits as expArray.
float expScalar(float value);

} // namespace tilekit

#endif // TILEKIT_SUPPORT_VECTORMATH_H
