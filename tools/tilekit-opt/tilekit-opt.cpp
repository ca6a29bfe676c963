//===- tilekit-opt.cpp - The tilekit IR driver ----------------------------===//
//
// `mlir-opt` for tilekit: parses, verifies, transforms and prints IR in the
// tilekit dialects and the upstream dialects tile programs use.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tilekit::ascendc::registerAscendCPasses();
  tilekit::ascendc::registerAscendCPipelines();
  mlir::DialectRegistry registry;
  registry.insert<tilekit::pto::PTODialect, tilekit::ascendc::AscendCDialect,
                  mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::scf::SCFDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilekit optimizer driver\n", registry));
}
