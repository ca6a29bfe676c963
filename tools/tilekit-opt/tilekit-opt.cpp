//===- tilekit-opt.cpp - The tilekit IR driver ----------------------------===//
//
// `mlir-opt` for tilekit: parses, verifies, transforms and prints IR in the
// tilekit dialects and the upstream dialects tile programs use.
//
//===----------------------------------------------------------------------===//

#include "tilekit/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

bool asksForHelp(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--help" || arg == "-help" || arg == "-h")
      return true;
  }
  return false;
}

/// LLVM's help lists every pass in one alphabetical list, tilekit's between
/// upstream ones. A pipeline parser made while only tilekit's passes are
/// registered lists exactly ours, in MLIR's own format with their options;
/// it is printed and unregistered (with the `--pass-pipeline` option it
/// brings) before MLIR's options are made.
void printTilekitPasses() {
  mlir::PassPipelineCLParser tilekitOnly("", "tilekit's passes and pipelines");
  auto options = llvm::cl::getRegisteredOptions();
  // With no name of its own, the parser is found under any pass's name.
  llvm::cl::Option *option = options.lookup("ascendc-c220-pipeline");
  llvm::outs()
      << "tilekit-opt: parse, verify, transform and print IR in "
         "tilekit's dialects.\n\n"
         "Run a pass as --NAME or --NAME='OPT=VALUE ...', or a "
         "pipeline as\n--pass-pipeline='builtin.module(NAME{OPT=VALUE})'"
         ".\n\n";
  option->printOptionInfo(/*GlobalWidth=*/46); // the longest name aligns
  option->removeArgument();
  options.lookup("pass-pipeline")->removeArgument();
  llvm::outs() << "\nMLIR's passes and every general option follow.\n\n";
}

} // namespace

int main(int argc, char **argv) {
  tilekit::registerTilekitPasses();
  if (asksForHelp(argc, argv))
    printTilekitPasses();
  tilekit::registerUpstreamPasses();
  mlir::DialectRegistry registry;
  tilekit::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilekit optimizer driver\n", registry));
}
