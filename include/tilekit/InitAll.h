//===- InitAll.h - Every dialect and pass of tilekit ------------*- C++ -*-===//
//
// The one place that says which dialects a tilekit tool understands and
// which passes it offers: tilekit-opt, the tilekit driver and later tools
// register through these, so a file one of them prints the others parse.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INITALL_H
#define TILEKIT_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilekit {

/// The tilekit dialects (PTO, AscendC) and the upstream dialects their
/// programs and passes use (arith, func, scf, memref).
void registerAllDialects(mlir::DialectRegistry &registry);

/// The tilekit passes and pipelines only (what `tilekit-opt --help` lists
/// first).
void registerTilekitPasses();

/// The upstream MLIR transforms (canonicalize, cse, inline, ...) a pipeline
/// may name beside tilekit's.
void registerUpstreamPasses();

/// Both of the above.
void registerAllPasses();

} // namespace tilekit

#endif // TILEKIT_INITALL_H
