//===- tilekit.cpp - The tilekit user driver ------------------------------===//
//
// `tilekit <command> [options]`. Each command lives in its own file and
// registers an llvm::cl::SubCommand; this file only dispatches.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tilekit/Interp/Interpreter.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static void printVersion(raw_ostream &os) {
  os << "tilekit " << TILEKIT_VERSION << " (MLIR " << LLVM_VERSION_STRING
     << ")\n";
}

cl::OptionCategory &tilekit::driver::optionCategory() {
  static cl::OptionCategory category("tilekit options");
  return category;
}

StringRef tilekit::driver::getCommandName() {
  using namespace tilekit::driver;
  for (cl::SubCommand *command : {&checkCommand(), &runCommand(), &simCommand(),
                                  &emitCommand(), &compileCommand()})
    if (*command)
      return command->getName();
  return "";
}

int tilekit::driver::fail(const Twine &message) {
  errs() << "tilekit " << getCommandName() << ": " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  tilekit::interp::initializeProcess();
  cl::SetVersionPrinter(printVersion);
  // libLLVM registers hundreds of codegen options; show only ours.
  cl::HideUnrelatedOptions(tilekit::driver::optionCategory());
  cl::HideUnrelatedOptions(tilekit::driver::optionCategory(),
                           tilekit::driver::checkCommand());
  cl::HideUnrelatedOptions(tilekit::driver::optionCategory(),
                           tilekit::driver::runCommand());
  cl::HideUnrelatedOptions(tilekit::driver::optionCategory(),
                           tilekit::driver::simCommand());
  cl::HideUnrelatedOptions(tilekit::driver::optionCategory(),
                           tilekit::driver::emitCommand());
  cl::HideUnrelatedOptions(tilekit::driver::optionCategory(),
                           tilekit::driver::compileCommand());
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilekit: check, run and time tile kernels for Ascend-style AI cores\n\n"
      "  tilekit check KERNEL.mlir   parse and verify a PTO kernel and list "
      "its functions\n"
      "  tilekit run KERNEL.mlir     execute it on the CPU, write and check "
      "its outputs\n"
      "  tilekit sim KERNEL.mlir     predict its time on the modelled machine "
      "and why\n"
      "  tilekit emit --target=torch KERNEL.mlir\n"
      "                              write a readable PyTorch reference "
      "script\n"
      "  tilekit compile --arch=c220|c310 KERNEL.mlir [--verify-each]\n"
      "                              lower to AscendC and run the "
      "architecture's pass pipeline\n"
      "  tilekit compile --emit=vf-bundle KERNEL.mlir -o DIR\n"
      "                              compile its register scopes as "
      "separately linked\n"
      "                              helpers for tilekit-vf-worker\n\n"
      "Run 'tilekit <command> --help' for the options of a command.\n");
  if (tilekit::driver::checkCommand())
    return tilekit::driver::runCheck();
  if (tilekit::driver::runCommand())
    return tilekit::driver::runRun();
  if (tilekit::driver::simCommand())
    return tilekit::driver::runSim();
  if (tilekit::driver::emitCommand())
    return tilekit::driver::runEmit();
  if (tilekit::driver::compileCommand())
    return tilekit::driver::runCompile();
  errs() << "tilekit: no command given; see 'tilekit --help'\n";
  return 2;
}
