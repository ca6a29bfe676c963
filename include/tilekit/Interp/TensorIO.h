//===- TensorIO.h - GM tensors to and from .npy arrays ------------*- C++
//-*-===//
//
// The conventions between kernel element types and NumPy dtypes:
//
//   f32 <-> <f4    f16 <-> <f2    i8/i16/i32/i64 <-> <i1../<i8
//   ui8 <-> |u1    i1  <-> |b1    index <-> <i8
//   bf16: read from <f4 (rounded to nearest even) or from <u2 (raw bf16
//         bits); written as <f4 (exact), since NumPy has no bfloat16.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERP_TENSORIO_H
#define TILEKIT_INTERP_TENSORIO_H

#include "tilekit/Interp/Values.h"
#include "tilekit/Support/Npy.h"

#include "llvm/Support/Error.h"

namespace tilekit::interp {

/// A GM tensor of `kind` holding `array`; fails when the dtype does not
/// match the kind (see the conventions above).
llvm::Expected<TensorValue> tensorFromNpy(const NpyArray &array,
                                          ElementKind kind);

/// The `.npy` image of a tensor.
NpyArray npyFromTensor(const TensorValue &tensor);

/// The elements of an array as doubles (any supported dtype).
std::vector<double> npyToDoubles(const NpyArray &array);

/// A tensor of `kind` filled as NumPy's RandomState(seed) fills it
/// (docs/executor.md): floats uniform in
/// [-1, 1), integers in [-8, 8] (ui8 in [0, 16], i1 in {0, 1}).
TensorValue randomTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape,
                         uint32_t seed);

/// Parses "16x128:f32"-style specs: a shape ("16x128", or "" for a scalar
/// shape []) and an element type name.
llvm::Expected<std::pair<llvm::SmallVector<int64_t, 4>, ElementKind>>
parseShapeAndType(llvm::StringRef shape, llvm::StringRef type);

/// The kind named `name` (f32, f16, bf16, i1, i8, ui8, i16, i32, i64).
std::optional<ElementKind> parseKindName(llvm::StringRef name);

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_TENSORIO_H
