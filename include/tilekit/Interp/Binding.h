//===- Binding.h - Kernel arguments in, outputs out -------------*- C++ -*-===//
//
// What `tilekit run` does around an execution, as a library the driver and
// (later) the Python module share: building an argument's value from a
// source text, and comparing an output with its expected array.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERP_BINDING_H
#define TILEKIT_INTERP_BINDING_H

#include "tilekit/Interp/Compare.h"
#include "tilekit/Interp/Values.h"
#include "tilekit/Support/Npy.h"

#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace tilekit::interp {

/// The value of an argument of `type` from `source`: a GM tensor from
/// FILE.npy, `rand:SHAPE:TYPE[:SEED]` or `zeros:SHAPE:TYPE`; a scalar from
/// a number. The error says what is wrong with the source.
llvm::Expected<RuntimeValue> bindArgument(llvm::StringRef source,
                                          mlir::Type type);
/// The value of a GM tensor argument of `type` from an array in memory
/// (the Python module's inputs): its dtype must be the kind's (bf16 also
/// takes raw bits as <u2) and its shape must fit.
llvm::Expected<RuntimeValue> bindArray(const NpyArray &array, mlir::Type type);

/// The default (rtol, atol) for comparing elements of `kind`: f32 1e-5 /
/// 1e-6, f16 1e-3 / 1e-3, bf16 8e-3 / 8e-3, integers exact.
std::pair<double, double> defaultTolerances(ElementKind kind);

/// An output compared with its expectation by `allclose`.
struct ExpectationReport {
  bool ok;
  /// One line: "ok (max abs err ...)" or "MISMATCH ...: where and what".
  std::string text;
  /// The numbers behind it (none when the shapes differ).
  std::optional<Comparison> comparison;
  int64_t elements = 0;
};
ExpectationReport compareWithExpected(const TensorValue &tensor,
                                      const NpyArray &expected, double rtol,
                                      double atol);

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_BINDING_H
