//===- Commands.h - Subcommands of the tilekit driver -------------*- C++
//-*-===//

#ifndef TILEKIT_TOOLS_TILEKIT_COMMANDS_H
#define TILEKIT_TOOLS_TILEKIT_COMMANDS_H

#include "tilekit/Driver/Durations.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Interp/Values.h"
#include "tilekit/Trace/Trace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>

namespace tilekit::driver {

/// The category of every tilekit option; `--help` hides LLVM's own.
llvm::cl::OptionCategory &optionCategory();

/// The most blocks `--blocks` launches: blocks run one after another, and a
/// count beyond this is a typo, not a launch anyone waits for.
inline constexpr unsigned kMaxBlocks = 1u << 20;

/// `tilekit check`: parse and verify a kernel, summarize its functions.
llvm::cl::SubCommand &checkCommand();
int runCheck();

/// `tilekit run`: execute a kernel on the CPU, write and check its outputs.
llvm::cl::SubCommand &runCommand();
int runRun();

/// `tilekit sim`: execute a kernel (or read a trace) and time it.
llvm::cl::SubCommand &simCommand();
int runSim();

/// `tilekit emit`: emit a program in another form.
llvm::cl::SubCommand &emitCommand();
int runEmit();

/// `tilekit compile`: run an architecture's AscendC pass pipeline.
llvm::cl::SubCommand &compileCommand();
int runCompile();
/// `tilekit tune ARGS`: the Python package's tuner (TuneCommand.cpp); runs
/// before the command line is parsed, as its options are the tuner's.
int runTune(int argc, char **argv);

/// The subcommand given on the command line ("check", "run", "sim",
/// "emit"), for messages.
llvm::StringRef getCommandName();

/// Prints "tilekit <command>: <message>" to stderr and returns 1, so that
/// a message says which command failed even when commands share code
/// (`sim` runs the kernel as `run` does).
int fail(const llvm::Twine &message);

/// Where a command's messages beside its result go (expectation lines):
/// stdout, except when stdout carries JSON (run --json, sim --json).
llvm::raw_ostream &messageStream();
bool simPrintsJson();

/// The exit status of every command (listed by --help).
enum ExitStatus : int {
  kExitOk = 0,
  /// Outputs differ from --expect (or, in compile --verify-each, a pass
  /// changed them).
  kExitOutputsDiffer = 1,
  /// A bad kernel, input or option: the diagnostic says which.
  kExitBadInput = 2,
  /// A deadlock, a timeout or --max-steps stopped the kernel.
  kExitStalled = 3,
  /// tilekit itself failed (a fatal error or a crash): please report it.
  kExitInternal = 4,
};

class KernelFile;

/// What `sim --arch` changes in a run: the kernel is compiled before it
/// runs, and the ideal schedule's run writes and checks nothing.
struct ExecuteHooks {
  /// Rewrites the loaded kernel (compiles it); on failure it has reported
  /// why. Memory planning is then the compilation's.
  std::function<mlir::LogicalResult(KernelFile &)> prepare;
  /// Run only: no outputs, expectations or prints.
  bool quiet = false;
};

/// Runs the kernel named on the command line with the `run` options
/// (shared by `sim`), sending trace records to `traceSink` when given.
int executeKernel(tilekit::trace::TraceSink *traceSink,
                  const ExecuteHooks &hooks = {});

/// The function to run: --entry, else the only orchestration function,
/// else the only function (null after a message naming `path`).
mlir::FunctionOpInterface pickEntry(mlir::ModuleOp module,
                                    llvm::StringRef path);
/// Whether --entry names the function.
bool entryGiven();

/// The kernel file given to run or sim, their --blocks and
/// --unbounded-pipes.
llvm::StringRef getKernelPath();
/// Points the command at another kernel file (sim --diff times two).
void setKernelPath(llvm::StringRef path);
unsigned launchBlocks();
bool pipesUnbounded();
/// Their (and compile --verify-each's) --max-steps and --timeout, checked:
/// an error names the option.
llvm::Expected<RunLimits> runLimits();

/// sim --producer=compiled or --trace-so.
bool usesCompiledProducer();
/// compile --emit=vf-bundle: the bundle of `entry` built into the new
/// directory `outputDir` (VFBundle.cpp); the exit status.
int emitVFBundle(KernelFile &kernel, mlir::FunctionOpInterface entry,
                 llvm::StringRef outputDir);
/// Builds (or takes from --trace-so) and runs the producer into `sink`.
int runTraceProducer(tilekit::trace::TraceSink &sink,
                     const ExecuteHooks &hooks = {});
/// The entry's arguments, bound from the --input options by source name.
struct BoundEntry {
  llvm::SmallVector<interp::RuntimeValue> values;
  llvm::StringMap<unsigned> index; // source name -> argument number
  std::vector<std::string> names;
};
std::optional<BoundEntry> bindInputs(KernelFile &kernel,
                                     mlir::FunctionOpInterface entry);

} // namespace tilekit::driver

#endif // TILEKIT_TOOLS_TILEKIT_COMMANDS_H
