//===- tilekit.cpp - The tilekit user driver ------------------------------===//
//
// `tilekit <command> [options]`. Each command lives in its own file and
// registers an llvm::cl::SubCommand; this file only dispatches.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "FailureReport.h"
#include "Progress.h"
#include "tilekit/Driver/BuildCache.h"

#include "tilekit/Interp/Interpreter.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

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
  recordMessage(message.str());
  return kExitBadInput;
}

static cl::extrahelp exitStatusHelp(R"(
EXIT STATUS (every command):
  0  success
  1  outputs differ from --expect (compile --verify-each: a pass changed them)
  2  bad kernel, input or option (the diagnostic names the op and its location)
  3  the kernel stalled: a deadlock, a timeout or --max-steps
  4  internal error in tilekit (a fatal error or a crash): please report it
)");

/// tilekit's own failures exit with kExitInternal, after LLVM has printed
/// the reason (and, for a crash, the stack).
static void installInternalErrorHandlers() {
  install_fatal_error_handler([](void *, const char *reason, bool) {
    errs() << "tilekit: internal error: " << reason
           << "\n(please report it with the command and the kernel)\n";
    errs().flush();
    std::_Exit(tilekit::driver::kExitInternal);
  });
  sys::AddSignalHandler(
      [](void *) {
        errs() << "tilekit: internal error (a crash; please report it with "
                  "the command and the kernel)\n";
        errs().flush();
        std::_Exit(tilekit::driver::kExitInternal);
      },
      nullptr);
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  installInternalErrorHandlers();
  tilekit::interp::initializeProcess();
  if (argc > 1 && StringRef(argv[1]) == "tune")
    return tilekit::driver::runTune(argc - 2, argv + 2);
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
  bool parsed = cl::ParseCommandLineOptions(
      argc, argv,
      "tilekit: check, run and time tile kernels for Ascend-style AI cores\n\n"
      "  tilekit check KERNEL.mlir   parse and verify a PTO kernel and list "
      "its functions\n"
      "  tilekit run KERNEL.mlir     execute it on the CPU, write and check "
      "its outputs\n"
      "  tilekit sim KERNEL.mlir     predict its time on the modelled machine "
      "and why\n"
      "  tilekit sim --arch=c220|c310 KERNEL.mlir\n"
      "                              time the compiled kernel: its "
      "instructions, flags and\n"
      "                              cross-core flags, beside the PTO "
      "schedule\n"
      "  tilekit emit --target=torch KERNEL.mlir\n"
      "                              write a readable PyTorch reference "
      "script\n"
      "  tilekit compile --arch=c220|c310 KERNEL.mlir [--verify-each]\n"
      "                              lower to AscendC and run the "
      "architecture's pass pipeline\n"
      "  tilekit compile --emit=vf-bundle KERNEL.mlir -o DIR\n"
      "                              compile its register scopes as "
      "separately linked\n"
      "                              helpers for tilekit-vf-worker\n"
      "  tilekit tune FILE.py:KERNEL --space NAME=V1,V2 --dims ...\n"
      "                              time every variant of a Python kernel "
      "and pick the fastest\n\n"
      "Run 'tilekit <command> --help' for the options of a command.\n",
      &errs());
  if (!parsed)
    return tilekit::driver::kExitBadInput;
  // A build takes seconds: say what is being built, as progress.
  tilekit::driver::setBuildNotice([](const tilekit::driver::BuildRequest &r) {
    if (tilekit::driver::progressEnabled())
      errs() << "tilekit " << tilekit::driver::getCommandName()
             << ": compiling the emitted C++ for " << r.option
             << " with clang++-22 (cached in "
             << tilekit::driver::buildCacheDir() << ")\n";
  });
  if (tilekit::driver::checkCommand())
    return tilekit::driver::runCheck();
  if (tilekit::driver::runCommand())
    return tilekit::driver::finishJson(tilekit::driver::runRun());
  if (tilekit::driver::simCommand())
    return tilekit::driver::finishJson(tilekit::driver::runSim());
  if (tilekit::driver::emitCommand())
    return tilekit::driver::runEmit();
  if (tilekit::driver::compileCommand())
    return tilekit::driver::runCompile();
  errs() << "tilekit: no command given; see 'tilekit --help'\n";
  return tilekit::driver::kExitBadInput;
}
