//===- Comparison.h - Two timing reports side by side -----------*- C++ -*-===//
//
// What a kernel engineer asks of a change (`tilekit sim --diff`,
// `tilekit.compare`): each kernel's cycles and bound, the busy share of
// every pipe in both, and the source lines whose cost changed most.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TIMING_COMPARISON_H
#define TILEKIT_TIMING_COMPARISON_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tilekit::timing {

/// Compares two by-line reports as printJsonReport writes them. Lines are
/// matched by line and column, as they are in two variants of one source (a
/// tile size or a slot count changed); a line only one kernel has counts as
/// zero in the other. Keeps the `top` lines whose cycles changed most.
llvm::json::Object compareReports(const llvm::json::Object &a,
                                  const llvm::json::Object &b, unsigned top);

/// The comparison as text: cycles, speedup, pipes (A -> B), lines.
void printComparison(llvm::raw_ostream &os,
                     const llvm::json::Object &comparison);

} // namespace tilekit::timing

#endif // TILEKIT_TIMING_COMPARISON_H
