//===- EmitCommand.cpp - `tilekit emit` -----------------------------------===//
//
// Emits a PTO program in another form. `--target=torch` writes a standalone
// PyTorch reference script (docs/torch-emitter.md).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Support/AtomicFile.h"
#include "tilekit/Target/TorchEmitter.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using tilekit::driver::fail;
namespace cl = llvm::cl;

cl::SubCommand &driver::emitCommand() {
  static cl::SubCommand command(
      "emit", "Emit a PTO program in another form (--target=torch)");
  return command;
}

namespace {
enum class Target { Torch };
} // namespace

static cl::opt<std::string> emitInput(cl::Positional, cl::Required,
                                      cl::desc("<kernel.mlir>"),
                                      cl::sub(driver::emitCommand()),
                                      cl::cat(driver::optionCategory()));
static cl::opt<Target>
    emitTarget("target", cl::desc("What to emit"), cl::Required,
               cl::values(clEnumValN(Target::Torch, "torch",
                                     "a standalone PyTorch reference script")),
               cl::sub(driver::emitCommand()),
               cl::cat(driver::optionCategory()));
static cl::opt<std::string>
    emitOutput("o", cl::desc("Output file (default: standard output)"),
               cl::value_desc("FILE"), cl::sub(driver::emitCommand()),
               cl::cat(driver::optionCategory()));
static cl::opt<bool> checkShapes(
    "check-shapes",
    cl::desc("Check parameter dtypes and the dtype and static shape of every "
             "tile and tensor assignment in the script"),
    cl::sub(driver::emitCommand()), cl::cat(driver::optionCategory()));

int driver::runEmit() {
  KernelFile kernel;
  SourceMgrDiagnosticHandler diagnostics(kernel.getSourceMgr(),
                                         &kernel.getContext());
  if (failed(kernel.load(emitInput, "tilekit " + getCommandName().str())))
    return kExitBadInput;
  TorchEmitOptions options;
  options.checkShapes = checkShapes;
  options.sourceFile = emitInput;
  options.sourceName = [&](Value value) { return kernel.getValueName(value); };
  std::string script;
  llvm::raw_string_ostream os(script);
  if (failed(emitTorchScript(kernel.getModule(), os, options)))
    return kExitBadInput;
  os.flush();
  if (emitOutput.empty() || emitOutput == "-") {
    llvm::outs() << script;
    return 0;
  }
  // Written completely or not at all.
  if (llvm::Error error = writeFileAtomically(emitOutput, script)) {
    return fail(toString(std::move(error)));
  }
  return 0;
}
