//===- VectorMath.cpp - Transcendental functions over whole arrays --------===//
//
// exp: x = n ln2 + r with n = round(x / ln2) and |r| <= ln2 / 2 (ln2 split
// in two so that n ln2 is exact to 32 bits), e^r from a degree-7 polynomial
// (Cephes' minimax coefficients), then scaled by 2^n in two steps so that
// results down to the smallest subnormal round only once.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Support/VectorMath.h"

#include "tilekit/Support/VectorClones.h"

#include <cstdint>
#include <cstring>

using namespace tilekit;

static inline uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static inline float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

static inline float expOne(float x) {
  // Past these bounds the result is 0 or +inf whatever the scaling.
  float clamped = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  // Adding 1.5 * 2^23 rounds to an integer, to nearest even.
  const float shifter = 12582912.0f;
  float shifted = clamped * 1.44269504088896341f + shifter;
  float n = shifted - shifter;
  int32_t exponent = static_cast<int32_t>(bitsOf(shifted) - bitsOf(shifter));
  float r = clamped - n * 0.693145751953125f;
  r = r - n * 1.428606765330187045e-06f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  float y = p * r * r + r + 1.0f;
  // 2^n as two normal powers: n is in [-150, 129].
  int32_t half = exponent / 2;
  float low = floatOf(static_cast<uint32_t>(half + 127) << 23);
  float high = floatOf(static_cast<uint32_t>(exponent - half + 127) << 23);
  float result = y * low * high;
  return x != x ? x : result;
}

TILEKIT_VECTOR_CLONES void tilekit::expArray(const float *in, float *out,
                                             size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = expOne(in[i]);
}

float tilekit::expScalar(float value) { return expOne(value); }
