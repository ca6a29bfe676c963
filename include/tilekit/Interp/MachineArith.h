//===- MachineArith.h - Results at the edges of arithmetic ------*- C++ -*-===//
//
// Where C++ leaves a result undefined or implementation-defined, the
// executor uses these rules, and the torch script's runtime
// (lib/Target/Torch/preamble.py) implements the same ones. docs/executor.md,
// "Edge cases", lists them with their sources.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERP_MACHINEARITH_H
#define TILEKIT_INTERP_MACHINEARITH_H

#include <cmath>
#include <cstdint>
#include <limits>

namespace tilekit::interp {

/// IEEE 754-2008 maxNum/minNum as the vector unit's Max/Min compute them: a
/// NaN operand is ignored (NaN only when both are), and +0 is greater than
/// -0.
inline float maxNum(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return std::signbit(a) ? b : a;
  return b > a ? b : a;
}

inline float minNum(float a, float b) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return std::signbit(a) ? a : b;
  return b < a ? b : a;
}

/// IEEE 754-2019 maximum/minimum (arith.maximumf/minimumf): a NaN operand
/// gives NaN, and +0 is greater than -0.
inline float maximumPropagatingNaN(float a, float b) {
  return std::isnan(a) || std::isnan(b) ? NAN : maxNum(a, b);
}

inline float minimumPropagatingNaN(float a, float b) {
  return std::isnan(a) || std::isnan(b) ? NAN : minNum(a, b);
}

/// Truncating signed division of two's complement values; the one overflow,
/// the minimum divided by -1, wraps to the minimum (the caller wraps to the
/// element width). The divisor is not zero.
inline int64_t divideWrapping(int64_t a, int64_t b) {
  if (b == -1)
    return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
  return a / b;
}

/// The remainder that goes with divideWrapping: the minimum rem -1 is 0.
inline int64_t remainderWrapping(int64_t a, int64_t b) {
  return b == -1 ? 0 : a % b;
}

/// Shifts by an amount outside [0, 64) give 0 to the left and the sign to
/// the right; values are sign-extended to 64 bits, so this also covers an
/// amount at or past a narrower element's width.
inline int64_t shiftLeft(int64_t a, int64_t b) {
  return b < 0 || b >= 64 ? 0
                          : static_cast<int64_t>(static_cast<uint64_t>(a) << b);
}

inline int64_t shiftRightArithmetic(int64_t a, int64_t b) {
  return b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a >> b;
}

/// The order of the vector unit's sorts (Sort32, MrgSort): descending,
/// NaN above every number; a stable sort keeps equal scores in index order.
inline bool sortsBefore(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && !std::isnan(b);
  return a > b;
}

/// A float already rounded to an integral value, converted to an integer in
/// [lowest, highest]: out of range saturates, NaN becomes 0. A highest past
/// 2^63 is the unsigned 64-bit range, returned as its two's complement bits.
inline int64_t saturateToInt(double integral, double lowest, double highest) {
  constexpr double two63 = 9223372036854775808.0;
  if (std::isnan(integral))
    return 0;
  if (integral <= lowest)
    return static_cast<int64_t>(lowest);
  if (integral >= highest) {
    if (highest > two63)
      return -1; // all ones: the unsigned maximum
    if (highest >= two63)
      return std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(highest);
  }
  if (integral >= two63)
    return static_cast<int64_t>(static_cast<uint64_t>(integral));
  return static_cast<int64_t>(integral);
}

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_MACHINEARITH_H
