//===- FuzzInputs.h - Arguments for a fuzzed kernel's entry -----*- C++ -*-===//
//
// What the targets that run kernels share: the entry `tilekit run` would
// choose, random tensors of its argument shapes (dynamic dimensions get a
// size the input chooses), small scalars, and the guard against kernels
// that would allocate more than a fuzzer's memory limit.
//
//===----------------------------------------------------------------------===//
#ifndef TILEKIT_FUZZ_FUZZINPUTS_H
#define TILEKIT_FUZZ_FUZZINPUTS_H

#include "tilekit/Interp/Values.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>
#include <string>

namespace tilekit::fuzz {

/// The orchestration function, else the first function with a body.
mlir::FunctionOpInterface pickEntry(mlir::ModuleOp module);

/// The source `tilekit run --input` would take for `type` (argument
/// `seed`), or none when the argument cannot be bound or is too large for
/// a fuzz run: GM tensors of at most `maxElements` elements, scalars in
/// [0, 5).
std::optional<std::string> sourceFor(mlir::Type type, int64_t dynamicSize,
                                     unsigned seed,
                                     int64_t maxElements = int64_t(1) << 16);

/// Every argument of `entry` bound so, or none.
std::optional<llvm::SmallVector<interp::RuntimeValue>>
bindArguments(mlir::FunctionOpInterface entry, int64_t dynamicSize,
              int64_t maxElements = int64_t(1) << 16);

/// Whether `module` names a static GM tensor of more than 2^24 elements: a
/// kernel may ask for as much memory as the machine has (`tilekit run`
/// refuses only more), which a fuzzer's memory limit reports as a finding.
bool hasHugeTensor(mlir::ModuleOp module);

} // namespace tilekit::fuzz

#endif // TILEKIT_FUZZ_FUZZINPUTS_H
