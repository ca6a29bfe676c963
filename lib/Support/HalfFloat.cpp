//===- HalfFloat.cpp - f16 and bf16 conversions ---------------------------===//

#include "tilekit/Support/HalfFloat.h"

#include <cstring>

using namespace tilekit;

static uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t tilekit::f32ToF16Bits(float value) {
  uint32_t bits = bitsOf(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;

  if (magnitude >= 0x7f800000u) // infinity or NaN (keep NaN quiet)
    return sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u);
  // 65520 and above round to infinity.
  if (magnitude >= 0x477ff000u)
    return sign | 0x7c00u;

  int32_t exponent = static_cast<int32_t>(magnitude >> 23) - 127 + 15;
  uint32_t mantissa = magnitude & 0x7fffffu;
  if (exponent <= 0) {
    // Subnormal f16 (or zero): shift the mantissa, with its implicit bit,
    // right and round to nearest even.
    if (exponent < -10)
      return sign;
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = 1u << (shift - 1);
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t result = mantissa >> shift;
    if (rest > half || (rest == half && (result & 1u)))
      ++result;
    return sign | static_cast<uint16_t>(result);
  }
  uint32_t result = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  // A carry out of the mantissa correctly bumps the exponent.
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u)))
    ++result;
  return sign | static_cast<uint16_t>(result);
}

float tilekit::f16BitsToF32(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1fu)
    return floatOf(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0)
      return floatOf(sign);
    // Subnormal: normalize into an f32.
    int shift = 0;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ffu;
    return floatOf(sign | (static_cast<uint32_t>(113 - shift) << 23) |
                   (mantissa << 13));
  }
  return floatOf(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t tilekit::f32ToBF16Bits(float value) {
  uint32_t bits = bitsOf(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float tilekit::bf16BitsToF32(uint16_t bits) {
  return floatOf(static_cast<uint32_t>(bits) << 16);
}
