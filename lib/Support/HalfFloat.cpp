//===- HalfFloat.cpp - f16 and bf16 conversions of whole arrays -----------===//
//
// The loops are compiled twice, for the x86-64 baseline and for AVX2 (eight
// lanes), and the loader picks the clone the CPU runs; both compute the
// inline scalar definitions exactly.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Support/HalfFloat.h"

#include "tilekit/Support/VectorClones.h"

using namespace tilekit;

TILEKIT_VECTOR_CLONES void tilekit::f16BitsToF32(const uint16_t *in, float *out,
                                                 size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = f16BitsToF32(in[i]);
}

TILEKIT_VECTOR_CLONES void tilekit::f32ToF16Bits(const float *in, uint16_t *out,
                                                 size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = f32ToF16Bits(in[i]);
}

TILEKIT_VECTOR_CLONES void tilekit::bf16BitsToF32(const uint16_t *in,
                                                  float *out, size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = bf16BitsToF32(in[i]);
}

TILEKIT_VECTOR_CLONES void tilekit::f32ToBF16Bits(const float *in,
                                                  uint16_t *out, size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = f32ToBF16Bits(in[i]);
}

TILEKIT_VECTOR_CLONES void tilekit::roundToF16(const float *in, float *out,
                                               size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = roundToF16(in[i]);
}

TILEKIT_VECTOR_CLONES void tilekit::roundToBF16(const float *in, float *out,
                                                size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = roundToBF16(in[i]);
}
