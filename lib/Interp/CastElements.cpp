//===- CastElements.cpp - Element type conversions as the machine does ---===//
//
// One definition of a cast, for the tile casts and the AscendC cast ops.
//
//===----------------------------------------------------------------------===//

#include "ScalarFunctions.h"

#include "tilekit/Support/HalfFloat.h"

#include "llvm/Support/ErrorHandling.h"

using namespace tilekit;
using namespace tilekit::interp;
using tilekit::pto::RoundMode;

namespace {
/// The 16-bit neighbours of a value that does not round exactly.
uint16_t (*toBits(ElementKind kind))(float) {
  using Narrow = uint16_t (*)(float);
  return kind == ElementKind::F16 ? Narrow(f32ToF16Bits)
                                  : Narrow(f32ToBF16Bits);
}
float (*fromBits(ElementKind kind))(uint16_t) {
  using Widen = float (*)(uint16_t);
  return kind == ElementKind::F16 ? Widen(f16BitsToF32) : Widen(bf16BitsToF32);
}

/// The next 16-bit float after `bits` towards +infinity or -infinity.
uint16_t step16(uint16_t bits, bool up) {
  bool negative = bits & 0x8000u;
  if ((bits & 0x7fffu) == 0) // zero: the smallest subnormal of the direction
    return up ? 0x0001u : 0x8001u;
  return (up != negative) ? bits + 1 : bits - 1;
}

/// Rounds an f32 to a 16-bit float with the cast's rounding mode.
float roundTo16(ElementKind kind, float value, RoundMode mode) {
  uint16_t nearest = toBits(kind)(value);
  float rounded = fromBits(kind)(nearest);
  if (rounded == value || std::isnan(value) || std::isinf(rounded))
    return rounded;
  // `value` lies strictly between two neighbours `low` < `high`.
  uint16_t lowBits = rounded < value ? nearest : step16(nearest, false);
  uint16_t highBits = rounded < value ? step16(nearest, true) : nearest;
  float low = fromBits(kind)(lowBits), high = fromBits(kind)(highBits);
  switch (mode) {
  case RoundMode::None:
  case RoundMode::Rint:
    return rounded;
  case RoundMode::Floor:
    return low;
  case RoundMode::Ceil:
    return high;
  case RoundMode::Trunc:
    return value > 0 ? low : high;
  case RoundMode::Round: // to nearest, ties away from zero
    if (value - low == high - value)
      return value > 0 ? high : low;
    return rounded;
  case RoundMode::Odd:
    return (lowBits & 1u) ? low : high;
  }
  llvm_unreachable("unknown round mode");
}

double roundToIntegral(double value, RoundMode mode) {
  switch (mode) {
  case RoundMode::None:
  case RoundMode::Rint:
    return std::nearbyint(value); // ties to even in the default FP mode
  case RoundMode::Round:
    return std::round(value);
  case RoundMode::Floor:
    return std::floor(value);
  case RoundMode::Ceil:
    return std::ceil(value);
  case RoundMode::Trunc:
  case RoundMode::Odd:
    return std::trunc(value);
  }
  llvm_unreachable("unknown round mode");
}

} // namespace

ArrayData interp::castElements(const ArrayData &src, ElementKind to,
                               RoundMode mode) {
  ElementKind from = src.kind;
  size_t size = src.size();
  ArrayData out(to, size);
  if (isFloatKind(to) && (to == ElementKind::F32 || mode == RoundMode::None ||
                          mode == RoundMode::Rint)) {
    // To nearest even: one vectorized pass.
    float *o = out.floats.data();
    if (isFloatKind(from))
      std::copy_n(src.floats.data(), size, o);
    else
      for (size_t i = 0; i < size; ++i)
        o[i] = static_cast<float>(src.ints[i]);
    roundFloats(to, o, size);
    return out;
  }
  for (size_t i = 0; i < size; ++i) {
    if (isFloatKind(to)) {
      float value =
          isFloatKind(from) ? src.floats[i] : static_cast<float>(src.ints[i]);
      out.floats[i] =
          to == ElementKind::F32 ? value : roundTo16(to, value, mode);
      continue;
    }
    if (!isFloatKind(from)) {
      out.ints[i] = wrapInt(to, src.ints[i]);
      continue;
    }
    // Float to integer saturates; NaN becomes 0.
    double integral = roundToIntegral(src.floats[i], mode);
    out.ints[i] =
        wrapInt(to, saturateToInt(integral, getLowest(to), getHighest(to)));
  }
  return out;
}
