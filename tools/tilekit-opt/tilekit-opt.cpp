//===- tilekit-opt.cpp - The tilekit IR driver ----------------------------===//
//
// `mlir-opt` for tilekit: parses, verifies, transforms and prints IR in the
// tilekit dialects and the upstream dialects tile programs use.
//
//===----------------------------------------------------------------------===//

#include "tilekit/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  tilekit::registerAllPasses();
  mlir::DialectRegistry registry;
  tilekit::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilekit optimizer driver\n", registry));
}
