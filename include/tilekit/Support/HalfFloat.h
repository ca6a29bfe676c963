//===- HalfFloat.h - f16 and bf16 conversions ---------------------*- C++
//-*-===//
//
// Conversions between f32 and the machine's 16-bit floats. The cores compute
// f16/bf16 ops in f32 and round the result to nearest, ties to even, so the
// executor keeps 16-bit values as floats that are exactly representable in
// the 16-bit type; these functions do the rounding and the bit packing.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_HALFFLOAT_H
#define TILEKIT_SUPPORT_HALFFLOAT_H

#include <cstdint>

namespace tilekit {

/// IEEE binary16 bits of `value`, rounded to nearest even (overflow gives
/// infinity, NaN stays NaN).
uint16_t f32ToF16Bits(float value);
/// The binary16 value `bits` as an f32 (exact).
float f16BitsToF32(uint16_t bits);

/// bfloat16 bits of `value`, rounded to nearest even.
uint16_t f32ToBF16Bits(float value);
/// The bfloat16 value `bits` as an f32 (exact).
float bf16BitsToF32(uint16_t bits);

/// `value` rounded to the nearest f16 / bf16, as an f32.
inline float roundToF16(float value) {
  return f16BitsToF32(f32ToF16Bits(value));
}
inline float roundToBF16(float value) {
  return bf16BitsToF32(f32ToBF16Bits(value));
}

} // namespace tilekit

#endif // TILEKIT_SUPPORT_HALFFLOAT_H
