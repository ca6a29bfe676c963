//===- ScalarFunctions.h - What each elementwise op computes -----*- C++
//-*-===//
//
// The scalar semantics of the elementwise families, as the vector unit
// computes them, shared by the tile ops and the AscendC vector ops so that
// both compute the same bits. Internal to the executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_SCALARFUNCTIONS_H
#define TILEKIT_LIB_INTERP_SCALARFUNCTIONS_H

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Interp/ElementKind.h"
#include "tilekit/Interp/MachineArith.h"
#include "tilekit/Interp/Values.h"
#include "tilekit/Support/VectorMath.h"

#include <cmath>
#include <cstdint>

namespace tilekit::interp {

/// Whether `a predicate b` holds (tile, AscendC and register compares).
template <typename T>
bool comparePredicate(pto::CmpPredicate predicate, T a, T b) {
  switch (predicate) {
  case pto::CmpPredicate::EQ:
    return a == b;
  case pto::CmpPredicate::NE:
    return a != b;
  case pto::CmpPredicate::LT:
    return a < b;
  case pto::CmpPredicate::LE:
    return a <= b;
  case pto::CmpPredicate::GT:
    return a > b;
  case pto::CmpPredicate::GE:
    return a >= b;
  }
  llvm_unreachable("unknown predicate");
}

/// The scalar semantics of one binary op.
struct BinaryFn {
  float (*onFloat)(float, float);
  /// Returns false for a division by zero.
  bool (*onInt)(int64_t, int64_t, ElementKind, int64_t &);
  /// When set, applied to the whole f32 result of `onFloat` (before the
  /// rounding to the element type): a fused op's second step.
  void (*thenFloats)(const float *, float *, size_t) = nullptr;
};

inline float notForFloat(float, float) { return NAN; }

#define INT_FN(EXPR)                                                           \
  [](int64_t a, int64_t b, ElementKind k, int64_t &out) -> bool {              \
    (void)k;                                                                   \
    EXPR;                                                                      \
    return true;                                                               \
  }

inline const BinaryFn kAdd = {
    [](float a, float b) { return a + b; },
    INT_FN(out = static_cast<int64_t>(uint64_t(a) + uint64_t(b)))};
inline const BinaryFn kSub = {
    [](float a, float b) { return a - b; },
    INT_FN(out = static_cast<int64_t>(uint64_t(a) - uint64_t(b)))};
inline const BinaryFn kMul = {
    [](float a, float b) { return a * b; },
    INT_FN(out = static_cast<int64_t>(uint64_t(a) * uint64_t(b)))};
inline const BinaryFn kDiv = {
    [](float a, float b) { return a / b; },
    INT_FN(if (b == 0) return false; out = divideWrapping(a, b))};
inline const BinaryFn kMax = {maxNum, INT_FN(out = std::max(a, b))};
inline const BinaryFn kMin = {minNum, INT_FN(out = std::min(a, b))};
inline const BinaryFn kRem = {
    [](float a, float b) { return std::fmod(a, b); },
    INT_FN(if (b == 0) return false; out = remainderWrapping(a, b))};
inline const BinaryFn kAnd = {notForFloat, INT_FN(out = a & b)};
inline const BinaryFn kOr = {notForFloat, INT_FN(out = a | b)};
inline const BinaryFn kXor = {notForFloat, INT_FN(out = a ^ b)};
inline const BinaryFn kShl = {notForFloat, INT_FN(out = shiftLeft(a, b))};
inline const BinaryFn kShr = {notForFloat,
                              INT_FN(out = shiftRightArithmetic(a, b))};

struct UnaryFn {
  float (*onFloat)(float);
  int64_t (*onInt)(int64_t, ElementKind);
  /// When set, computes `onFloat` over a whole array (vectorized).
  void (*onFloats)(const float *, float *, size_t) = nullptr;
};

inline int64_t intUnsupported(int64_t a, ElementKind) { return a; }

// Integer negation and abs wrap: the minimum stays the minimum.
inline int64_t negateWrapping(int64_t a) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
}

inline const UnaryFn kNeg = {
    [](float a) { return -a; },
    [](int64_t a, ElementKind) { return negateWrapping(a); }};
// exp as the vector unit computes it, over whole rows (VectorMath.h).
inline const UnaryFn kExp = {expScalar, intUnsupported, expArray};
inline const UnaryFn kLog = {[](float a) { return std::log(a); },
                             intUnsupported};
inline const UnaryFn kSqrt = {[](float a) { return std::sqrt(a); },
                              intUnsupported};
inline const UnaryFn kRsqrt = {[](float a) { return 1.0f / std::sqrt(a); },
                               intUnsupported};
inline const UnaryFn kRecip = {[](float a) { return 1.0f / a; },
                               intUnsupported};
inline const UnaryFn kAbs = {
    [](float a) { return std::fabs(a); },
    [](int64_t a, ElementKind) { return a < 0 ? negateWrapping(a) : a; }};
inline const UnaryFn kRelu = {
    [](float a) { return a > 0 ? a : 0.0f; },
    [](int64_t a, ElementKind) { return a > 0 ? a : int64_t(0); }};
inline const UnaryFn kNot = {[](float a) { return a; },
                             [](int64_t a, ElementKind k) {
                               return k == ElementKind::I1 ? int64_t(!a) : ~a;
                             }};

inline const UnaryFn kTanh = {[](float a) { return std::tanh(a); },
                              intUnsupported};
// 1 / (1 + exp(-a)), in f32 like the vector unit's exp and reciprocal.
inline const UnaryFn kSigmoid = {
    [](float a) { return 1.0f / (1.0f + expScalar(-a)); }, intUnsupported};
inline const UnaryFn kErf = {[](float a) { return std::erf(a); },
                             intUnsupported};

/// A scalar operand converted to a vector op's element kind, as the float
/// and the integer the elements are combined with (tile and AscendC ops
/// alike). A float converted to an integer saturates and NaN becomes 0, as
/// casts do.
inline std::pair<float, int64_t> convertScalar(const Scalar &scalar,
                                               ElementKind kind) {
  float f = roundFloat(kind, static_cast<float>(scalar.asDouble()));
  if (isFloatKind(kind))
    return {f, 0}; // float elements use only f
  int64_t n = isFloatKind(scalar.kind)
                  ? saturateToInt(std::trunc(scalar.f), getLowest(kind),
                                  getHighest(kind))
                  : scalar.i;
  return {f, wrapInt(kind, n)};
}

/// `src` converted to `to` as the machine's cast does: float results
/// rounded with `mode` (none and rint: to nearest even), floats to integers
/// rounded with `mode` and saturated (NaN to 0), integers wrapped.
ArrayData castElements(const ArrayData &src, ElementKind to,
                       pto::RoundMode mode);

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_SCALARFUNCTIONS_H
