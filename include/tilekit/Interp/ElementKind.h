//===- ElementKind.h - Element types as the executor stores them -*- C++
//-*-===//
//
// The executor keeps float elements (f32, f16, bf16) as `float` values that
// are exact in their type, and integer elements (i1 to i64, ui8, index) as
// `int64_t` values already wrapped to their width.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERP_ELEMENTKIND_H
#define TILEKIT_INTERP_ELEMENTKIND_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tilekit::interp {

enum class ElementKind { F32, F16, BF16, I1, I8, U8, I16, I32, I64, Index };

/// The kind of an element or scalar type, or std::nullopt when the executor
/// has no such kind.
std::optional<ElementKind> getElementKind(mlir::Type type);

inline bool isFloatKind(ElementKind kind) {
  return kind == ElementKind::F32 || kind == ElementKind::F16 ||
         kind == ElementKind::BF16;
}

/// Bytes an element occupies in a buffer (i1 takes one).
unsigned getByteSize(ElementKind kind);

llvm::StringRef getKindName(ElementKind kind);

/// `value` (an f32 result) rounded to the kind, to nearest even.
float roundFloat(ElementKind kind, float value);
/// Rounds `count` f32 results in place to the kind (vectorized; nothing to
/// do for f32).
void roundFloats(ElementKind kind, float *values, size_t count);

/// `value` wrapped to the kind's width (two's complement; ui8 and i1 are
/// unsigned).
int64_t wrapInt(ElementKind kind, int64_t value);

/// The finite minimum / maximum of the kind, as a double.
double getLowest(ElementKind kind);
double getHighest(ElementKind kind);

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_ELEMENTKIND_H
