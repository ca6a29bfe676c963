//===- RunCommand.cpp - `tilekit run` -------------------------------------===//
//
// Executes a kernel's entry function on the CPU: binds each argument from a
// .npy file, a random or zero fill, or a scalar; writes the requested
// outputs (tensor arguments after the run, or results) atomically; and
// compares them against expected arrays, exiting non-zero on a mismatch.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "FailureReport.h"
#include "MemoryPlanning.h"
#include "Progress.h"
#include "tilekit/Driver/CompilePipeline.h"
#include "tilekit/Driver/CompiledKernels.h"
#include "tilekit/Driver/Durations.h"
#include "tilekit/Driver/KernelFile.h"
#include "tilekit/Driver/VerifyEach.h"

#include "tilekit/Support/AtomicFile.h"
#include "tilekit/Support/Npy.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Interp/Binding.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Interp/Summary.h"
#include "tilekit/Interp/TensorIO.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using tilekit::driver::fail;
namespace cl = llvm::cl;

cl::SubCommand &driver::runCommand() {
  static cl::SubCommand command(
      "run", "Execute a PTO kernel on the CPU as the machine would");
  return command;
}

static cl::opt<std::string> kernelPath(cl::Positional,
                                       cl::desc("<kernel.mlir>"),
                                       cl::sub(driver::runCommand()),
                                       cl::sub(driver::simCommand()),
                                       cl::cat(driver::optionCategory()));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: the only orchestration "
                       "function, else the only function); compile: the "
                       "function to compile, with what it calls or launches"),
              cl::value_desc("name"), cl::sub(driver::runCommand()),
              cl::sub(driver::compileCommand()), cl::sub(driver::simCommand()),
              cl::cat(driver::optionCategory()));
static cl::list<std::string> inputSpecs(
    "input",
    cl::desc("Bind argument NAME (%NAME in the kernel): FILE.npy, "
             "rand:SHAPE:TYPE[:SEED], zeros:SHAPE:TYPE, or a number for "
             "scalars. SHAPE is like 64x128, TYPE like f32"),
    cl::value_desc("NAME=SOURCE"), cl::sub(driver::runCommand()),
    cl::sub(driver::compileCommand()), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::list<std::string> outputSpecs(
    "output",
    cl::desc("Write NAME (a tensor argument after the run, or result / "
             "resultN) to FILE.npy"),
    cl::value_desc("NAME=FILE.npy"), cl::sub(driver::runCommand()),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));
static cl::opt<bool> runJson(
    "json",
    cl::desc("Print the run as JSON on stdout: each result's summary, each "
             "--expect's outcome and errors, the files written and the "
             "times taken; a run that fails prints {\"ok\": false, "
             "\"status\", \"diagnostics\", \"waiters\"} instead (other "
             "messages go to stderr)"),
    cl::sub(driver::runCommand()), cl::cat(driver::optionCategory()));

bool driver::printsJson() {
  return (runCommand() && runJson) || simPrintsJson();
}

llvm::raw_ostream &driver::messageStream() {
  return printsJson() ? llvm::errs() : llvm::outs();
}

/// What run --json reports, filled as the run goes.
static llvm::json::Array jsonExpectations;

static cl::list<std::string> expectSpecs(
    "expect", cl::desc("Compare NAME against FILE.npy; exit 1 on mismatch"),
    cl::value_desc("NAME=FILE.npy"), cl::sub(driver::runCommand()),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));
static cl::opt<double>
    rtolOption("rtol",
               cl::desc("Relative tolerance of --expect (default by "
                        "type: f32 1e-5, f16 1e-3, bf16 8e-3, integers 0)"),
               cl::init(-1), cl::sub(driver::runCommand()),
               cl::sub(driver::simCommand()),
               cl::cat(driver::optionCategory()));
static cl::opt<double>
    atolOption("atol",
               cl::desc("Absolute tolerance of --expect (default by type: "
                        "f32 1e-6, f16 1e-3, bf16 8e-3, integers 0)"),
               cl::init(-1), cl::sub(driver::runCommand()),
               cl::sub(driver::simCommand()),
               cl::cat(driver::optionCategory()));
static cl::list<std::string> printNames(
    "print",
    cl::desc("Print the elements of NAME (a tensor argument after the run, "
             "or a result) as text, one row per line (floats to 6 "
             "significant digits; use --output for exact values); a scalar "
             "result prints its value (floats to 9 digits)"),
    cl::value_desc("NAME"), cl::sub(driver::runCommand()),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));
llvm::StringRef driver::getKernelPath() { return kernelPath; }
void driver::setKernelPath(llvm::StringRef path) { kernelPath = path.str(); }

static cl::opt<unsigned> blockCount(
    "blocks",
    cl::desc("Launch the entry as N blocks: block i sees get_block_idx = i "
             "and get_block_num = N; each block is a work item (default 1)"),
    cl::init(1), cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));

unsigned driver::launchBlocks() { return blockCount; }
static cl::opt<bool> runCompiled(
    "compiled",
    cl::desc("Run a compiled AscendC kernel (from `tilekit compile`) as its "
             "emitted C++: built with clang++-22 against runtime/ascendc-cpu "
             "into a cached shared object and called on the same inputs, a "
             "block's cube and vector cores as threads; races and deadlocks "
             "are errors at the op (docs/emit-cpp.md)"),
    cl::sub(driver::runCommand()), cl::cat(driver::optionCategory()));
static cl::opt<bool> verifyPerItem(
    "verify-per-item",
    cl::desc("With --compiled: run each work item (a block, or a kernel call "
             "of the orchestration) in the executor too, on copies of its "
             "arguments, and stop at the first whose GM tensors differ, "
             "naming it, the tensor, the first differing index and both "
             "values (exact, cube sums included; --atol/--rtol "
             "override)"),
    cl::sub(driver::runCommand()), cl::cat(driver::optionCategory()));
static cl::opt<unsigned> threadCount(
    "threads",
    cl::desc("Run the in-core calls of an orchestration function (and the "
             "blocks of an in-core launch) on N threads where their GM "
             "accesses do not conflict; results are bit-identical to "
             "--threads=1. Default: one per CPU. --print-ops and "
             "--max-steps run on one thread"),
    cl::value_desc("N"), cl::init(0), cl::sub(driver::runCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<double> popTimeout(
    "pop-timeout",
    cl::desc("Seconds a cross-core pop may wait before its group is stopped "
             "(deadlocks are reported at once; default 10)"),
    cl::init(10), cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<double> groupTimeout(
    "group-timeout", cl::desc("Seconds a group launch may run (default 30)"),
    cl::init(30), cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<uint64_t> maxSteps(
    "max-steps",
    cl::desc("Stop with an error naming the op after N ops (0: no limit; "
             "a compiled kernel counts instructions, a compiled trace "
             "producer records; compile --verify-each applies it to each "
             "run)"),
    cl::init(0), cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::sub(driver::compileCommand()), cl::cat(driver::optionCategory()));
static cl::opt<double> runTimeout(
    "timeout",
    cl::desc("Stop with an error naming the op after this many seconds "
             "(0: no limit; compile --verify-each applies it to each run)"),
    cl::init(0), cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::sub(driver::compileCommand()), cl::cat(driver::optionCategory()));
static cl::opt<UndefinedData> undefinedData(
    "undefined",
    cl::desc("What the machine's undefined data (pto.tile.create contents, "
             "the padding of loads) holds"),
    cl::values(
        clEnumValN(UndefinedData::Zero, "zero",
                   "zeros, as the reference script (default)"),
        clEnumValN(UndefinedData::NaN, "nan",
                   "NaN (integers 0x5A5A...), so dependent results show it"),
        clEnumValN(UndefinedData::Check, "check",
                   "fail at the first op that reads an undefined element "
                   "into its result's valid region")),
    cl::init(UndefinedData::Zero), cl::sub(driver::runCommand()),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));
static cl::opt<bool> unboundedPipes(
    "unbounded-pipes",
    cl::desc("Cross-core pushes never block, whatever slot counts the "
             "pipes' initialize_pipe declares (the reference runtime's "
             "unbounded queues; the machine blocks a push while every slot "
             "is full)"),
    cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));

bool driver::pipesUnbounded() { return unboundedPipes; }

llvm::Expected<driver::RunLimits> driver::runLimits() {
  auto timeout = parseSeconds("--timeout", runTimeout, /*zeroAllowed=*/true);
  if (!timeout)
    return timeout.takeError();
  return RunLimits{maxSteps, *timeout};
}
static cl::opt<bool> checkRaces(
    "check-races",
    cl::desc("AscendC kernels: every instruction runs on its pipe, and an "
             "access that no flag, barrier or buffer id orders after a "
             "conflicting access of another pipe or core is an error naming "
             "both ops (default on; --check-races=false runs the ops in "
             "program order without checking)"),
    cl::init(true), cl::sub(driver::runCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<bool>
    printOps("print-ops",
             cl::desc("Print each op's results (shape, valid shape, "
                      "min/max/mean) as it runs"),
             cl::sub(driver::runCommand()), cl::sub(driver::simCommand()),
             cl::cat(driver::optionCategory()));

namespace {
/// A NAME=VALUE option split in two.
struct NamedSpec {
  std::string name, value, option;
};
} // namespace

static std::optional<std::vector<NamedSpec>>
splitSpecs(const cl::list<std::string> &specs, llvm::StringRef option) {
  std::vector<NamedSpec> result;
  for (const std::string &spec : specs) {
    auto [name, value] = llvm::StringRef(spec).split('=');
    if (name.empty() || value.empty()) {
      fail("--" + option + " " + spec + ": expected NAME=VALUE");
      return std::nullopt;
    }
    result.push_back({name.str(), value.str(), option.str()});
  }
  return result;
}

bool driver::entryGiven() { return !entryName.empty(); }

FunctionOpInterface driver::pickEntry(ModuleOp module, StringRef path) {
  std::string why;
  FunctionOpInterface entry = findEntry(module, entryName, why);
  if (!entry)
    fail(entryName.empty()
             ? "choose the function to run with --entry (" + why + ")"
             : why + " in " + path.str());
  return entry;
}

/// Builds the value of an argument of `type` from its --input source.
static FailureOr<RuntimeValue> bindArgument(const NamedSpec &spec, Type type) {
  llvm::Expected<RuntimeValue> value = interp::bindArgument(spec.value, type);
  if (!value) {
    fail("--input " + spec.name + "=" + spec.value + ": " +
         toString(value.takeError()));
    return failure();
  }
  return std::move(*value);
}

/// Prints "name: f32 [2, 3]" and then one line per row of the last
/// dimension.
/// A scalar result: integers exactly, floats to 9 significant digits (enough
/// to tell any two f32 values apart).
static void printScalar(llvm::StringRef name, const Scalar &scalar) {
  llvm::raw_ostream &os = llvm::outs();
  os << name << ": " << getKindName(scalar.kind) << ' ';
  if (isFloatKind(scalar.kind))
    os << llvm::format("%.9g", scalar.f);
  else
    os << scalar.i;
  os << "\n";
}

static void printTensor(llvm::StringRef name, const TensorValue &tensor) {
  llvm::raw_ostream &os = llvm::outs();
  os << name << ": " << getKindName(tensor.kind()) << ' '
     << formatShape(tensor.shape) << "\n";
  int64_t cols = tensor.shape.empty() ? 1 : tensor.shape.back();
  int64_t count = tensor.numElements();
  const ArrayData &data = tensor.storage->data;
  for (int64_t start = 0; start < count; start += std::max<int64_t>(cols, 1)) {
    os << "  [";
    for (int64_t i = start; i < start + cols; ++i) {
      os << (i == start ? "" : ", ");
      if (isFloatKind(data.kind))
        os << llvm::format("%g", data.floats[i]);
      else
        os << data.ints[i];
    }
    os << "]\n";
  }
}

/// Compares one output against its expectation; prints a line; returns
/// whether it matched.
static bool checkExpectation(const NamedSpec &spec, const TensorValue &tensor) {
  auto expected = readNpy(spec.value);
  if (!expected) {
    fail("--expect " + spec.name + ": " + toString(expected.takeError()));
    return false;
  }
  auto [rtol, atol] = defaultTolerances(tensor.kind());
  if (rtolOption >= 0)
    rtol = rtolOption;
  if (atolOption >= 0)
    atol = atolOption;
  ExpectationReport report = compareWithExpected(tensor, *expected, rtol, atol);
  driver::messageStream() << spec.name << ": " << report.text << "\n";
  llvm::json::Object entry{{"name", spec.name}, {"file", spec.value},
                           {"ok", report.ok},   {"rtol", rtol},
                           {"atol", atol},      {"text", report.text}};
  if (report.comparison) {
    entry["max_abs_err"] = report.comparison->maxAbsError;
    entry["max_rel_err"] = report.comparison->maxRelError;
    entry["mismatches"] = report.comparison->mismatches;
    entry["elements"] = report.elements;
  }
  jsonExpectations.push_back(std::move(entry));
  return report.ok;
}

std::optional<driver::BoundEntry>
driver::bindInputs(KernelFile &kernel, FunctionOpInterface entry) {
  auto inputs = splitSpecs(inputSpecs, "input");
  if (!inputs)
    return std::nullopt;
  // Arguments by source name.
  BoundEntry bound;
  bound.index = kernel.getArgumentIndex(entry, bound.names);
  std::vector<std::optional<RuntimeValue>> args(bound.names.size());
  for (const NamedSpec &spec : *inputs) {
    auto it = bound.index.find(spec.name);
    if (it == bound.index.end()) {
      fail("--input " + spec.name + ": @" + entry.getName() +
           " has no argument %" + spec.name);
      return std::nullopt;
    }
    FailureOr<RuntimeValue> value =
        bindArgument(spec, entry.getArgumentTypes()[it->second]);
    if (failed(value))
      return std::nullopt;
    args[it->second] = std::move(*value);
  }
  for (auto [index, value] : llvm::enumerate(args)) {
    if (!value) {
      std::string type;
      llvm::raw_string_ostream os(type);
      os << entry.getArgumentTypes()[index];
      fail("argument %" + bound.names[index] + " (" + type + ") of @" +
           entry.getName() + " needs a value: --input " + bound.names[index] +
           "=...");
      return std::nullopt;
    }
    bound.values.push_back(std::move(*value));
  }
  return bound;
}

int driver::runRun() { return executeKernel(nullptr); }

int driver::executeKernel(trace::TraceSink *traceSink,
                          const ExecuteHooks &hooks) {
  auto started = std::chrono::steady_clock::now();
  auto millisecondsSince = [](std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - from)
        .count();
  };
  if (kernelPath.empty())
    return fail("expected a kernel file: tilekit " + getCommandName() +
                " KERNEL.mlir ...");
  KernelFile kernel;
  SourceMgrDiagnosticHandler diagnostics(kernel.getSourceMgr(),
                                         &kernel.getContext());
  recordDiagnostics(kernel.getContext());
  if (failed(kernel.load(kernelPath, "tilekit " + getCommandName().str())))
    return kExitBadInput;
  if (hooks.prepare && failed(hooks.prepare(kernel)))
    return kExitBadInput;
  // sim times what compile makes of the orchestration's own data ops: the
  // kernels it writes for them (the same results; run keeps the ops).
  // Where compile refuses them (a slice whose valid region reaches a
  // call), the executor still runs them, untimed as before, with a warning.
  if (getCommandName() == "sim")
    (void)outlineForTiming(kernel.getModule());
  if (shouldPlanMemory() && !hooks.prepare) {
    auto config = loadConfig();
    if (!config)
      return fail(toString(config.takeError()));
    if (failed(planModule(kernel.getModule(), getCapacities(*config),
                          /*apply=*/true, planOptions())))
      return kExitBadInput;
  } else if (!hooks.prepare && shouldCheckCapacity() &&
             holdsPTO(kernel.getModule())) {
    // What would not fit the machine is refused here too, by the gate
    // compile runs (the plan, on a copy, decides).
    auto config = loadConfig();
    if (!config)
      return fail(toString(config.takeError()));
    if (failed(checkWorkItemsFit(kernel.getModule(), getCapacities(*config),
                                 /*warnHalfBuffers=*/false)))
      return kExitBadInput;
  }
  FunctionOpInterface entry = pickEntry(kernel.getModule(), kernelPath);
  if (!entry)
    return kExitBadInput;

  auto outputs = splitSpecs(outputSpecs, "output");
  auto expects = splitSpecs(expectSpecs, "expect");
  if (!outputs || !expects)
    return kExitBadInput;
  std::optional<BoundEntry> bound = bindInputs(kernel, entry);
  if (!bound)
    return kExitBadInput;
  llvm::StringMap<unsigned> &argumentIndex = bound->index;
  SmallVector<RuntimeValue> &argValues = bound->values;

  // Names of what can be written or checked after the run.
  unsigned numResults = entry.getResultTypes().size();
  auto lookupOutput = [&](llvm::StringRef name) -> std::optional<int> {
    if (auto it = argumentIndex.find(name); it != argumentIndex.end())
      return static_cast<int>(it->second);
    unsigned n;
    if (name == "result" && numResults == 1)
      return -1;
    if (name.consume_front("result") && !name.getAsInteger(10, n) &&
        n < numResults)
      return -1 - static_cast<int>(n);
    return std::nullopt;
  };
  std::vector<NamedSpec> prints;
  for (const std::string &name : printNames)
    prints.push_back({name, "", "print"});
  for (const std::vector<NamedSpec> *list : {&*outputs, &*expects, &prints})
    for (const NamedSpec &spec : *list)
      if (!lookupOutput(spec.name))
        return fail("--" + spec.option + " " + spec.name +
                    ": not an argument "
                    "or result of @" +
                    entry.getName() +
                    " (results are named result or result0, result1, ...)");

  InterpreterOptions options;
  auto pop = parseSeconds("--pop-timeout", popTimeout, false);
  auto group = parseSeconds("--group-timeout", groupTimeout, false);
  for (llvm::Expected<std::chrono::milliseconds> *limit : {&pop, &group})
    if (!*limit)
      return fail(toString(limit->takeError()));
  llvm::Expected<RunLimits> limits = runLimits();
  if (!limits)
    return fail(toString(limits.takeError()));
  options.undefined = undefinedData;
  options.popTimeout = *pop;
  options.groupTimeout = *group;
  options.timeout = limits->timeout;
  options.maxSteps = limits->maxSteps;
  std::atomic<uint64_t> opsRun{0};
  if (progressEnabled() && !traceSink)
    options.opsRun = &opsRun;
  options.unboundedPipes = unboundedPipes;
  options.checkRaces = checkRaces;
  options.threads = threadCount
                        ? threadCount
                        : std::max(1u, std::thread::hardware_concurrency());
  if (printOps)
    options.observeOp = [](Operation *op, ArrayRef<RuntimeValue> results) {
      // Group launches run their cores on several threads.
      static std::mutex outputMutex;
      std::lock_guard<std::mutex> lock(outputMutex);
      llvm::raw_ostream &os = llvm::outs();
      if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
        os << loc.getFilename().getValue() << ':' << loc.getLine() << ':'
           << loc.getColumn();
      else
        op->getLoc().print(os);
      os << ": " << op->getName();
      for (const RuntimeValue &result : results) {
        os << "\n    ";
        printSummary(os, result);
      }
      os << "\n";
    };
  options.trace = traceSink;
  // --compiled: the host functions run here, the kernels as their C++, on
  // the executor's threads where their GM accesses allow (one at a time
  // under --verify-per-item, so that the first divergent item is the first
  // in program order).
  std::optional<CompiledKernels> compiled;
  if (runCompiled && !traceSink) {
    compiled.emplace(kernel.getModule(), "--compiled");
    options.external = &*compiled;
    if (verifyPerItem)
      options.threads = 1;
  }
  if (verifyPerItem && !compiled)
    return fail("--verify-per-item checks a --compiled run");
  // The CPU runtime does not track which bytes an instruction wrote: under
  // --undefined=check the executor runs the same compiled kernel first, and
  // the C++ runs only when no undefined data is read or stored.
  if (compiled && undefinedData == UndefinedData::Check) {
    if (blockCount == 0 || blockCount > kMaxBlocks)
      return fail("--blocks " + std::to_string(blockCount) +
                  ": expected 1 to " + std::to_string(kMaxBlocks));
    RunResult checked = runKernel(
        kernel.getModule(), entry.getName(), argValues,
        /*checkRaces=*/false, blockCount, *limits, UndefinedData::Check);
    if (!checked.error.empty()) {
      llvm::errs() << checked.error;
      return fail("--undefined=check: the compiled kernel reads or stores "
                  "undefined data (the executor's run of it, above); its C++ "
                  "did not run");
    }
  }
  // The reference of --verify-per-item: the executor with no external calls.
  std::optional<Interpreter> reference;
  if (verifyPerItem) {
    InterpreterOptions plain = options;
    plain.external = nullptr;
    plain.observeOp = nullptr;
    reference.emplace(kernel.getModule(), std::move(plain));
    compiled->verifyPerItem(
        *reference,
        rtolOption >= 0 ? std::optional<double>(rtolOption) : std::nullopt,
        atolOption >= 0 ? std::optional<double>(atolOption) : std::nullopt);
  }
  Interpreter interpreter(kernel.getModule(), std::move(options));
  if (blockCount == 0 || blockCount > kMaxBlocks)
    return fail("--blocks " + std::to_string(blockCount) + ": expected 1 to " +
                std::to_string(kMaxBlocks));
  FailureOr<SmallVector<RuntimeValue>> results = failure();
  std::optional<ProgressLine> progress;
  if (options.opsRun)
    progress.emplace("ops run", opsRun);
  auto launched = std::chrono::steady_clock::now();
  double loadMs = millisecondsSince(started);
  if (compiled)
    results = compiled->launch(interpreter, entry, argValues, blockCount);
  else
    results = interpreter.launch(entry, argValues, blockCount);
  progress.reset();
  if (failed(results)) {
    if (!interpreter.hasStalled())
      return kExitBadInput;
    recordWaits(interpreter.getStalledWaits());
    return kExitStalled;
  }
  double runMs = millisecondsSince(launched);
  if (hooks.quiet)
    return kExitOk;
  if (verifyPerItem)
    messageStream() << "verify-per-item: " << compiled->itemsVerified()
                    << " work items, each equal to the executor's\n";

  auto valueOf = [&](llvm::StringRef name) -> const RuntimeValue & {
    int slot = *lookupOutput(name);
    return slot >= 0 ? argValues[slot] : (*results)[-1 - slot];
  };
  auto tensorOf = [&](const NamedSpec &spec) -> const TensorValue * {
    const auto *tensor = std::get_if<TensorValue>(&valueOf(spec.name));
    if (!tensor)
      fail("--" + spec.option + " " + spec.name + ": not a GM tensor");
    return tensor;
  };
  int status = 0;
  // Every output or none: all are staged before any is moved into place.
  AtomicFileSet files;
  for (const NamedSpec &spec : *outputs) {
    const TensorValue *tensor = tensorOf(spec);
    if (!tensor)
      return kExitBadInput;
    llvm::Expected<std::string> bytes = encodeNpy(npyFromTensor(*tensor));
    if (!bytes)
      return fail("--output " + spec.name + ": " + toString(bytes.takeError()));
    if (llvm::Error error = files.add(spec.value, *bytes))
      return fail("--output " + spec.name + ": " + toString(std::move(error)));
  }
  if (llvm::Error error = files.commit())
    return fail(toString(std::move(error)));
  for (const NamedSpec &spec : prints) {
    if (const auto *scalar = std::get_if<Scalar>(&valueOf(spec.name))) {
      printScalar(spec.name, *scalar);
      continue;
    }
    const TensorValue *tensor = tensorOf(spec);
    if (!tensor)
      return kExitBadInput;
    printTensor(spec.name, *tensor);
  }
  // Each result's summary: printed when nothing is written, checked or
  // printed, and in --json.
  llvm::json::Array summaries;
  for (auto [index, result] : llvm::enumerate(*results)) {
    std::string name =
        numResults == 1 ? "result" : "result" + std::to_string(index);
    std::string summary;
    llvm::raw_string_ostream os(summary);
    printSummary(os, result);
    summaries.push_back(
        llvm::json::Object{{"name", name}, {"summary", summary}});
    if (outputs->empty() && expects->empty() && prints.empty() && !runJson &&
        !traceSink)
      llvm::outs() << name << ": " << summary << "\n";
  }
  for (const NamedSpec &spec : *expects) {
    const TensorValue *tensor = tensorOf(spec);
    if (!tensor)
      status = kExitBadInput;
    else if (!checkExpectation(spec, *tensor) && status == kExitOk)
      status = kExitOutputsDiffer;
  }
  if (runJson && !traceSink) {
    llvm::json::Array written;
    for (const NamedSpec &spec : *outputs)
      written.push_back(
          llvm::json::Object{{"name", spec.name}, {"file", spec.value}});
    llvm::json::Object report{
        {"kernel", kernelPath},
        {"entry", entry.getName()},
        {"status", status},
        {"results", std::move(summaries)},
        {"outputs", std::move(written)},
        {"expectations", std::move(jsonExpectations)},
        {"timings_ms",
         llvm::json::Object{{"load", loadMs},
                            {"run", runMs},
                            {"total", millisecondsSince(started)}}}};
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
                 << "\n";
    noteJsonPrinted();
  }
  return status;
}
