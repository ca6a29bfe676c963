//===- KernelFuzzer.h - What the kernel fuzz targets share ------*- C++ -*-===//
//
// One MLIR context per process with every tilekit dialect, diagnostics
// swallowed (errors are the expected outcome of most inputs; crashes,
// hangs and sanitizer reports are the findings), and the parse + verify
// step every kernel target starts with. Linking this file's object also
// installs the structure-aware mutator (KernelMutator.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEKIT_FUZZ_KERNELFUZZER_H
#define TILEKIT_FUZZ_KERNELFUZZER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstddef>
#include <cstdint>

namespace tilekit::fuzz {

mlir::MLIRContext &getContext();

/// The module `data` holds (top-level ops are wrapped, as the driver does),
/// verified; null when it does not parse or verify.
mlir::OwningOpRef<mlir::ModuleOp> parseKernel(const uint8_t *data, size_t size);

} // namespace tilekit::fuzz

#endif // TILEKIT_FUZZ_KERNELFUZZER_H
