//===- KernelMutator.h - Mutations of kernel text that parse ----*- C++ -*-===//
//
// libFuzzer's byte mutations rarely survive the MLIR parser, so a fuzzer
// fed only with them tests the lexer. These mutations edit a kernel where
// the verifiers and the executor look: numbers (shapes, offsets, split
// codes, valid shapes, addresses, loop bounds), op names, element types,
// keywords, SSA operands and whole lines.
//
//===----------------------------------------------------------------------===//
#ifndef TILEKIT_FUZZ_KERNELMUTATOR_H
#define TILEKIT_FUZZ_KERNELMUTATOR_H

#include "llvm/ADT/ArrayRef.h"

#include <random>
#include <string>

namespace tilekit::fuzz {

enum class KernelMutation {
  Number,      // an integer literal or shape dimension
  OpName,      // an op name, replaced by another registered op
  ElementType, // f16, f32, bf16, i8, i16, i32, i64, index, i1
  Word,        // a bare keyword, replaced by another from the text
  Operand,     // an SSA use, replaced by another value's name
  Line,        // a line deleted or duplicated
};
constexpr unsigned kNumKernelMutations = 6;

/// Applies `kind` once at a random place in `text`; false (and `text`
/// unchanged) when the text has nothing that kind can change. `opNames`
/// are the registered op names (`pto.tile.add`, ...).
bool mutateKernelText(std::string &text, KernelMutation kind,
                      std::mt19937_64 &rng,
                      llvm::ArrayRef<std::string> opNames);

} // namespace tilekit::fuzz

#endif // TILEKIT_FUZZ_KERNELMUTATOR_H
