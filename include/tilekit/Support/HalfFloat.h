//===- HalfFloat.h - f16 and bf16 conversions ---------------------*- C++
//-*-===//
//
// Conversions between f32 and the machine's 16-bit floats. The cores compute
// f16/bf16 ops in f32 and round the result to nearest, ties to even, so the
// executor keeps 16-bit values as floats that are exactly representable in
// the 16-bit type; these functions do the rounding and the bit packing.
//
// The scalar conversions are branch-free (selects, and the FPU's own
// round-to-nearest-even for f16 subnormals) and inline, so that the loops
// over whole arrays below compile to vector code on any x86-64 or AArch64
// CPU, with no dependence on F16C and bit for bit the results of the scalar
// definitions (NaN becomes the quiet NaN 0x7e00 with its sign).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_HALFFLOAT_H
#define TILEKIT_SUPPORT_HALFFLOAT_H

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tilekit {

namespace half_detail {
inline uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}
inline float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}
} // namespace half_detail

/// IEEE binary16 bits of `value`, rounded to nearest even (overflow gives
/// infinity, NaN stays NaN).
inline uint16_t f32ToF16Bits(float value) {
  using namespace half_detail;
  uint32_t bits = bitsOf(value);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  // 65536 and above (infinity, NaN included) saturate; 65520 up to it
  // round to infinity in the normal path.
  uint32_t special = magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u;
  // Below 2^-14 the result is subnormal: adding 0.5 lets the FPU round the
  // value to a multiple of 2^-24, whose count is the f16 bits.
  const float half = 0.5f;
  uint32_t subnormal = bitsOf(floatOf(magnitude) + half) - bitsOf(half);
  // Normal: rebias the exponent and round the 13 dropped bits to nearest
  // even (a carry out of the mantissa correctly bumps the exponent).
  uint32_t odd = (magnitude >> 13) & 1u;
  uint32_t normal = (magnitude - 0x38000000u + 0xfffu + odd) >> 13;
  uint32_t result = magnitude >= 0x47800000u
                        ? special
                        : (magnitude < 0x38800000u ? subnormal : normal);
  return static_cast<uint16_t>(sign | result);
}

/// The binary16 value `bits` as an f32 (exact).
inline float f16BitsToF32(uint16_t bits) {
  using namespace half_detail;
  uint32_t shifted = static_cast<uint32_t>(bits & 0x7fffu) << 13;
  uint32_t exponent = shifted & 0x0f800000u;
  uint32_t normal = shifted + 0x38000000u; // rebias 15 -> 127
  uint32_t infOrNaN = normal + 0x38000000u;
  // Subnormal: the mantissa as a float with exponent -14, minus 2^-14.
  uint32_t subnormal =
      bitsOf(floatOf(normal + 0x00800000u) - floatOf(0x38800000u));
  uint32_t magnitude =
      exponent == 0x0f800000u ? infOrNaN : (exponent == 0 ? subnormal : normal);
  return floatOf(magnitude | (static_cast<uint32_t>(bits & 0x8000u) << 16));
}

/// bfloat16 bits of `value`, rounded to nearest even.
inline uint16_t f32ToBF16Bits(float value) {
  uint32_t bits = half_detail::bitsOf(value);
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  uint32_t rounded = (bits + rounding) >> 16;
  uint32_t quietNaN = (bits >> 16) | 0x40u; // NaN: keep it quiet
  return static_cast<uint16_t>((bits & 0x7fffffffu) > 0x7f800000u ? quietNaN
                                                                  : rounded);
}

/// The bfloat16 value `bits` as an f32 (exact).
inline float bf16BitsToF32(uint16_t bits) {
  return half_detail::floatOf(static_cast<uint32_t>(bits) << 16);
}

/// `value` rounded to the nearest f16 / bf16, as an f32.
inline float roundToF16(float value) {
  return f16BitsToF32(f32ToF16Bits(value));
}
inline float roundToBF16(float value) {
  return bf16BitsToF32(f32ToBF16Bits(value));
}

/// Whole arrays, vectorized (`in` and `out` may be the same array for the
/// rounding functions).
void f16BitsToF32(const uint16_t *in, float *out, size_t count);
void f32ToF16Bits(const float *in, uint16_t *out, size_t count);
void bf16BitsToF32(const uint16_t *in, float *out, size_t count);
void f32ToBF16Bits(const float *in, uint16_t *out, size_t count);
void roundToF16(const float *in, float *out, size_t count);
void roundToBF16(const float *in, float *out, size_t count);

} // namespace tilekit

#endif // TILEKIT_SUPPORT_HALFFLOAT_H
