//===- CompileCommand.cpp - tilekit compile -------------------------------===//
//
// Runs an architecture's AscendC pipeline on a kernel and writes the
// result. With --verify-each it runs the kernel on the given inputs before
// the pipeline and after every pass, and stops at the first pass that
// changes an output or leaves a race or a deadlock, naming it, the output,
// the first differing element with both values, and saving the IR before
// and after that pass.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "MemoryPlanning.h"
#include "Progress.h"
#include "tilekit/Driver/CompilePipeline.h"
#include "tilekit/Driver/KernelFile.h"
#include "tilekit/Driver/TraceProducer.h"
#include "tilekit/Driver/VerifyEach.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/InitAll.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Support/AtomicFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::driver;
using namespace tilekit::interp;
namespace cl = llvm::cl;

cl::SubCommand &driver::compileCommand() {
  static cl::SubCommand command(
      "compile", "lower a kernel to AscendC (PTO kernels) and run an "
                 "architecture's pass pipeline on it");
  return command;
}

static cl::opt<std::string> compileInput(cl::Positional,
                                         cl::desc("<kernel.mlir>"),
                                         cl::sub(driver::compileCommand()),
                                         cl::cat(driver::optionCategory()));
static cl::opt<std::string>
    archName("arch",
             cl::desc("Target architecture: c220 (910B, set/wait flags) or "
                      "c310 (buffer ids)"),
             cl::value_desc("c220|c310"), cl::sub(driver::compileCommand()),
             cl::cat(driver::optionCategory()));
static cl::opt<std::string> outputPath(
    "o", cl::desc("Write the compiled kernel here (default: stdout)"),
    cl::value_desc("OUT.mlir|OUT.cpp"), cl::init("-"),
    cl::sub(driver::compileCommand()), cl::cat(driver::optionCategory()));
static cl::opt<std::string> emitFormat(
    "emit",
    cl::desc("What to write: mlir (the compiled AscendC IR, default), cpp "
             "(Ascend C C++ of its kernels, through EmitC), host (the host "
             "side of each launch: tiling struct, block count, workspace "
             "size, launch function), cmake (a CMake file building the "
             "--emit=cpp file, named by --kernel-file, with the CANN "
             "toolkit) or trace-producer "
             "(C++ that emits the kernel's trace for any shape, without "
             "data, for `tilekit sim --producer=compiled`, of a PTO kernel "
             "or of a compiled AscendC one; needs no --arch) "
             "or vf-bundle (the kernel's register scopes as separately "
             "compiled helpers, its caller, their linked image and its "
             ".text, into the new directory -o DIR; needs no --arch)"),
    cl::value_desc("mlir|cpp|host|cmake|trace-producer|vf-bundle"),
    cl::init("mlir"), cl::sub(driver::compileCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<std::string>
    kernelFile("kernel-file",
               cl::desc("--emit=cmake: the kernel file it builds (default: the "
                        "kernel's name with .cpp)"),
               cl::value_desc("FILE.cpp"), cl::sub(driver::compileCommand()),
               cl::cat(driver::optionCategory()));
static cl::opt<std::string> stopAfter(
    "stop-after",
    cl::desc("Stop after this pass of the pipeline (its argument, e.g. "
             "ascendc-allocate-tensor)"),
    cl::value_desc("PASS"), cl::sub(driver::compileCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<bool>
    lowerToL0("lower-to-l0",
              cl::desc("Rewrite simple-level (L2) vector ops as low-level "
                       "(L0) ones: mask, repeat and strides"),
              cl::sub(driver::compileCommand()),
              cl::cat(driver::optionCategory()));
static cl::opt<bool>
    printIrAfterAll("mlir-print-ir-after-all",
                    cl::desc("Print the IR after every pass (to stderr)"),
                    cl::sub(driver::compileCommand()),
                    cl::cat(driver::optionCategory()));
static cl::opt<std::string> passPipeline(
    "pass-pipeline",
    cl::desc("Run this textual pass pipeline instead of the architecture's "
             "(for experiments and tests, e.g. the pipeline followed by a "
             "test pass)"),
    cl::value_desc("PIPELINE"), cl::sub(driver::compileCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Run the kernel on the --input values before the pipeline and "
             "after every pass; stop at the first pass that changes an "
             "output, or after which the kernel races or deadlocks, and save "
             "the IR before and after it"),
    cl::sub(driver::compileCommand()), cl::cat(driver::optionCategory()));
static cl::opt<bool> allowUndefined(
    "allow-undefined",
    cl::desc("With --verify-each, verify a kernel that reads undefined data "
             "(what `tilekit run --undefined=check` refuses, such as an "
             "accumulator used before its first init); by default that is an "
             "error at the op that reads it, since the compiled kernel would "
             "compute on whatever the machine holds there"),
    cl::sub(driver::compileCommand()), cl::cat(driver::optionCategory()));
static cl::opt<unsigned> verifyBlocks(
    "blocks",
    cl::desc("With --verify-each, launch the entry as N blocks, as `tilekit "
             "run --blocks` does (get_block_idx / get_block_num; default 1)"),
    cl::init(1), cl::sub(driver::compileCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<std::string> saveIrDir(
    "save-ir",
    cl::desc("Where --verify-each saves the IR before and after the "
             "divergent pass, created if need be (default: the current "
             "directory)"),
    cl::value_desc("DIR"), cl::init("."), cl::sub(driver::compileCommand()),
    cl::cat(driver::optionCategory()));

/// Writes `text` to -o (whole or not at all) or stdout.
static int writeOutput(const std::string &text) {
  if (outputPath == "-") {
    llvm::outs() << text;
    return 0;
  }
  AtomicFileSet files;
  if (llvm::Error error = files.add(outputPath, text))
    return fail("-o " + outputPath + ": " + toString(std::move(error)));
  if (llvm::Error error = files.commit())
    return fail("-o " + outputPath + ": " + toString(std::move(error)));
  return 0;
}

int driver::runCompile() {
  if (compileInput.empty())
    return fail("expected a kernel file: tilekit compile KERNEL.mlir "
                "--arch=c220|c310");
  std::optional<ascendc::Arch> arch = ascendc::parseArchName(archName);
  bool vfBundle = emitFormat == "vf-bundle";
  bool traceProducer = emitFormat == "trace-producer" || vfBundle;
  if (!arch && passPipeline.empty() && !traceProducer)
    return fail(
        "--arch: expected c220 or c310" +
        (archName.empty() ? std::string() : ", not '" + archName + "'"));

  bool cppLike =
      emitFormat == "cpp" || emitFormat == "host" || emitFormat == "cmake";
  if (emitFormat != "mlir" && !cppLike && !traceProducer)
    return fail("--emit: expected mlir, cpp, host, cmake, trace-producer or "
                "vf-bundle, not '" +
                emitFormat + "'");
  if (traceProducer && (!passPipeline.empty() || !stopAfter.empty()))
    return fail("--emit=" + emitFormat +
                " compiles the PTO kernel itself; "
                "--pass-pipeline and --stop-after do not apply");
  if (cppLike && !stopAfter.empty())
    return fail("--emit=" + emitFormat +
                " needs a whole compiled kernel; --stop-after "
                "leaves it unplanned or unsynchronized");

  KernelFile kernel;
  SourceMgrDiagnosticHandler diagnostics(kernel.getSourceMgr(),
                                         &kernel.getContext());
  if (failed(kernel.load(compileInput, "tilekit " + getCommandName().str())))
    return kExitBadInput;
  ModuleOp module = kernel.getModule();
  // The compiled kernel keeps its arguments' source names, so that it runs
  // with the same --input names as the kernel it came from.
  kernel.stampArgumentNames();
  // The C++ names its variables after the kernel's values.
  if (emitFormat == "cpp")
    kernel.nameLocations();
  // --entry compiles the entry and what it reaches, so that one kernel of
  // a file compiles whatever the file's others do (a group written to
  // deadlock, say).
  if (entryGiven()) {
    FunctionOpInterface entry = pickEntry(module, compileInput);
    if (!entry)
      return kExitBadInput;
    keepReachable(module, entry);
  }
  // The machine's buffers (--config; by default the arch's machine: the
  // 910B's for c220, the 950's for c310) bound the gate before anything is
  // lowered and the pipeline's capacity check.
  if (arch)
    setDefaultConfigForArch(*arch);
  auto config = loadConfig();
  if (!config)
    return fail(toString(config.takeError()));
  pto::BufferCapacities capacities = getCapacities(*config);
  bool ptoInput = holdsPTO(module);
  if (ptoInput && passPipeline.empty() &&
      failed(checkWorkItemsFit(module, capacities)))
    return kExitBadInput;

  if (vfBundle) {
    FunctionOpInterface entry = pickEntry(module, compileInput);
    if (!entry)
      return kExitBadInput;
    return emitVFBundle(kernel, entry, outputPath);
  }
  if (traceProducer) {
    FunctionOpInterface entry = pickEntry(module, compileInput);
    if (!entry)
      return kExitBadInput;
    std::string text;
    if (failed(planAsSimPlans(kernel)) ||
        failed(emitTraceProducer(
            kernel, entry, llvm::sys::path::filename(compileInput), text)))
      return kExitBadInput;
    return writeOutput(text);
  }

  registerAllPasses(); // --pass-pipeline names any of them
  PassManager pm(&kernel.getContext(), ModuleOp::getOperationName());
  if (!passPipeline.empty()) {
    // With --arch, a PTO kernel's lowering in the pipeline targets it too.
    if (ptoInput && arch)
      markArch(module, *arch);
    // The passes run on the module: "builtin.module(...)" or the list.
    std::string error;
    if (failed(addTextualPipeline(pm, passPipeline, error)))
      return fail("--pass-pipeline: " + error);
  } else if (!buildCompilePipeline(pm, module, *arch, lowerToL0, stopAfter,
                                   capacities, /*cores=*/0, planOptions())) {
    return fail("--stop-after " + stopAfter + ": the " + archName +
                " pipeline has no such pass (see tilekit-opt --help, "
                "ascendc-*)");
  }
  if (printIrAfterAll) {
    kernel.getContext().disableMultithreading();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; });
  }

  VerifyEach *check = nullptr;
  if (verifyEach) {
    if (verifyBlocks == 0 || verifyBlocks > kMaxBlocks)
      return fail("--blocks " + std::to_string(verifyBlocks) +
                  ": expected 1 to " + std::to_string(kMaxBlocks));
    FunctionOpInterface entry = pickEntry(module, compileInput);
    if (!entry)
      return kExitBadInput;
    std::optional<BoundEntry> bound = bindInputs(kernel, entry);
    if (!bound)
      return kExitBadInput;
    llvm::Expected<RunLimits> limits = runLimits();
    if (!limits)
      return fail(toString(limits.takeError()));
    RunResult reference = runReference(module, entry.getName(), bound->values,
                                       verifyBlocks, *limits);
    if (!reference.error.empty()) {
      llvm::errs() << reference.error;
      fail("the kernel does not run before the pipeline");
      return reference.stalled ? kExitStalled : kExitBadInput;
    }
    if (reference.readsUndefined && !allowUndefined) {
      llvm::errs() << reference.undefinedError;
      return fail("--verify-each: the kernel reads undefined data before the "
                  "pipeline (above); on the machine that is whatever the "
                  "buffer holds. Define it, or pass --allow-undefined");
    }
    // One pass at a time, so that each runs (and is checked) alone.
    kernel.getContext().disableMultithreading();
    auto instrumentation = std::make_unique<VerifyEach>(
        entry.getName().str(), std::move(bound->values),
        std::move(bound->names), std::move(reference), verifyBlocks, *limits);
    check = instrumentation.get();
    pm.addInstrumentation(std::move(instrumentation));
  }

  LogicalResult compiled = success();
  {
    std::optional<ProgressLine> progress;
    if (check)
      progress.emplace("passes verified", check->passesChecked);
    compiled = pm.run(module);
  }
  if (failed(compiled))
    return kExitBadInput;
  if (check && check->divergent) {
    llvm::SmallString<128> beforePath(saveIrDir), afterPath(saveIrDir);
    llvm::sys::path::append(beforePath,
                            "before-" + *check->divergent + ".mlir");
    llvm::sys::path::append(afterPath, "after-" + *check->divergent + ".mlir");
    if (std::error_code error = llvm::sys::fs::create_directories(saveIrDir))
      return fail("--save-ir " + saveIrDir + ": " + error.message());
    AtomicFileSet files;
    for (auto [path, text] : {std::pair(beforePath, &check->before),
                              std::pair(afterPath, &check->after)})
      if (llvm::Error error = files.add(path, *text))
        return fail(toString(std::move(error)));
    if (llvm::Error error = files.commit())
      return fail(toString(std::move(error)));
    llvm::errs() << check->report;
    fail("--verify-each: " + *check->divergent +
         " broke the kernel (the IR before and after it: " + beforePath + ", " +
         afterPath + ")");
    return kExitOutputsDiffer;
  }
  if (check)
    llvm::errs() << "verify-each: " << check->passesChecked
                 << " passes, the outputs equal before and after each"
                 << (check->readsUndefined()
                         ? " where they do not depend on undefined data "
                           "(the kernel reads some: see tilekit run "
                           "--undefined=check)"
                         : "")
                 << "\n";

  // A kernel that compiles has C++: compile refuses what --emit=cpp
  // would, whatever it writes.
  if (passPipeline.empty() && stopAfter.empty() && emitFormat == "mlir" &&
      failed(translateAscendCToCpp(module, llvm::nulls())))
    return kExitBadInput;

  std::string text;
  llvm::raw_string_ostream os(text);
  if (emitFormat == "cpp") {
    os << "// GENERATED by tilekit compile --arch=" << archName
       << " --emit=cpp from " << llvm::sys::path::filename(compileInput)
       << " -- DO NOT EDIT\n";
    if (failed(translateAscendCToCpp(module, os)))
      return kExitBadInput;
  } else if (emitFormat == "host") {
    os << "// GENERATED by tilekit compile --arch=" << archName
       << " --emit=host from " << llvm::sys::path::filename(compileInput)
       << " -- DO NOT EDIT\n";
    if (failed(translateHostCode(module,
                                 llvm::sys::path::filename(compileInput), os)))
      return kExitBadInput;
  } else if (emitFormat == "cmake") {
    os << "# GENERATED by tilekit compile --arch=" << archName
       << " --emit=cmake from " << llvm::sys::path::filename(compileInput)
       << " -- DO NOT EDIT\n";
    std::string kernel =
        kernelFile.empty()
            ? (llvm::sys::path::stem(compileInput) + ".cpp").str()
            : kernelFile.getValue();
    if (failed(translateHostCMake(module, kernel, os)))
      return kExitBadInput;
  } else {
    module->print(os);
    os << "\n"; // as tilekit-opt writes it
  }
  return writeOutput(text);
}
