//===- InitAll.cpp - Every dialect and pass of tilekit --------------------===//

#include "tilekit/InitAll.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Conversion/PTOToVFBundle.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void tilekit::registerAllDialects(mlir::DialectRegistry &registry) {
  // memref: fixup-mmad-acc-params creates memref<1xi1> flags.
  registry.insert<pto::PTODialect, ascendc::AscendCDialect,
                  ascendc::AsctileDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::emitc::EmitCDialect>();
}

void tilekit::registerTilekitPasses() {
  ascendc::registerAscendCPasses();
  pto::registerPTOPasses();
  ascendc::registerAscendCPipelines();
  ascendc::registerAscendCTestPasses();
  registerPTOToAscendCPasses();
  registerConvertAscendCToEmitCPass();
  vf::registerVFAdmitPass();
}

void tilekit::registerUpstreamPasses() { mlir::registerTransformsPasses(); }

void tilekit::registerAllPasses() {
  registerTilekitPasses();
  registerUpstreamPasses();
}
