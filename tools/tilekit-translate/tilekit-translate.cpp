//===- tilekit-translate.cpp - tilekit's MLIR translations ----------------===//
//
// `mlir-translate` for tilekit: the code generators as MLIR translations
// from a module in the tilekit dialects to text: the PyTorch reference
// script and Ascend C C++. `tilekit emit` is the user-facing form of the same.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/InitAll.h"
#include "tilekit/Target/TorchEmitter.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

static llvm::cl::opt<bool>
    checkShapes("torch-check-shapes",
                llvm::cl::desc("--pto-to-torch: guard every assignment's "
                               "dtype and static shape"),
                llvm::cl::init(false));

int main(int argc, char **argv) {
  mlir::TranslateFromMLIRRegistration torch(
      "pto-to-torch", "PTO program to a PyTorch reference script",
      [](mlir::Operation *op, llvm::raw_ostream &os) -> mlir::LogicalResult {
        auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
        if (!module)
          return op->emitError() << "pto-to-torch translates a module";
        tilekit::TorchEmitOptions options;
        options.checkShapes = checkShapes;
        return tilekit::emitTorchScript(module, os, options);
      },
      [](mlir::DialectRegistry &registry) {
        tilekit::registerAllDialects(registry);
      });
  mlir::TranslateFromMLIRRegistration cpp(
      "ascendc-to-cpp",
      "planned, synchronized AscendC kernels to Ascend C C++ (via EmitC)",
      [](mlir::Operation *op, llvm::raw_ostream &os) -> mlir::LogicalResult {
        auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
        if (!module)
          return op->emitError() << "ascendc-to-cpp translates a module";
        return tilekit::translateAscendCToCpp(module, os);
      },
      [](mlir::DialectRegistry &registry) {
        tilekit::registerAllDialects(registry);
      });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tilekit translation driver\n"));
}
