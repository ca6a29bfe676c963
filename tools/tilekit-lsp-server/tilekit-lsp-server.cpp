//===- tilekit-lsp-server.cpp - The language server for tilekit IR --------===//
//
// MLIR's language server with every dialect tilekit kernels use: an editor
// gets diagnostics as the kernel is typed, hover with types, go to
// definition and the document outline (docs/editor.md).
//
//===----------------------------------------------------------------------===//

#include "tilekit/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilekit::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
