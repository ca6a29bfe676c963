//===- TilekitModule.cpp - The tilekit Python module's native part -------===//
//
// `tilekit._native`: each function loads a kernel (a file or text), does
// what the matching `tilekit` command does, and returns plain Python
// values. A kernel that fails (parse, verify, run, lowering) raises
// `_native.KernelFailure(diagnostics, stalled)`; `tilekit/__init__.py` turns
// it into `tilekit.Error` or `tilekit.DeadlockError` (docs/python.md).
//
//===----------------------------------------------------------------------===//

#include "IRBindings.h"

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Driver/BuildCache.h"
#include "tilekit/Driver/CompilePipeline.h"
#include "tilekit/Driver/CompiledKernels.h"
#include "tilekit/Driver/Durations.h"
#include "tilekit/Driver/KernelFile.h"
#include "tilekit/Driver/KernelSummary.h"
#include "tilekit/Driver/PlanModule.h"
#include "tilekit/Driver/TraceProducer.h"
#include "tilekit/Driver/VerifyEach.h"
#include "tilekit/InitAll.h"
#include "tilekit/Interp/Binding.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Interp/TensorIO.h"
#include "tilekit/Target/TorchEmitter.h"
#include "tilekit/Timing/Comparison.h"
#include "tilekit/Timing/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

namespace {

/// A kernel that failed: its diagnostics (each a dict), whether it stalled
/// (deadlock, timeout, step limit) and the cores it left waiting.
struct KernelFailure {
  py::list diagnostics;
  bool stalled = false;
  py::list waiters;
  /// verify_each: the pass that broke the kernel, what it broke, the IR
  /// before and after it (None otherwise).
  py::object brokenBy = py::none();
};

/// The diagnostics of one call, as dicts with severity, file, line,
/// column, message and notes.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          py::gil_scoped_acquire gil;
          py::dict entry = toDict(diag);
          py::list notes;
          for (Diagnostic &note : diag.getNotes())
            notes.append(toDict(note));
          entry["notes"] = notes;
          (diag.getSeverity() == DiagnosticSeverity::Error ? errors : warnings)
              .append(entry);
          return success();
        }) {}

  /// Raises the errors seen so far.
  [[noreturn]] void raiseCollected() { raise(/*stalled=*/false, py::list()); }
  /// Raises the errors of a run that stalled, with the cores left waiting.
  [[noreturn]] void raiseStalled(llvm::ArrayRef<interp::StalledWait> waits) {
    py::list waiters;
    for (const interp::StalledWait &wait : waits) {
      auto [file, line, column] = whereIs(wait.op->getLoc());
      waiters.append(
          py::dict(py::arg("core") = wait.core,
                   py::arg("op") = wait.op->getName().getStringRef().str(),
                   py::arg("file") = file, py::arg("line") = line,
                   py::arg("column") = column));
    }
    raise(/*stalled=*/true, waiters);
  }
  [[noreturn]] void raise(bool stalled, py::list waiters) {
    if (errors.empty())
      errors.append(py::dict(
          py::arg("severity") = "error", py::arg("file") = "",
          py::arg("line") = 0, py::arg("column") = 0,
          py::arg("message") = "failed", py::arg("notes") = py::list()));
    throw KernelFailure{errors, stalled, waiters};
  }
  /// Raises `message` as an error of the kernel as a whole (as a stall,
  /// DeadlockError, when a limit stopped it).
  [[noreturn]] void raiseMessage(const std::string &message,
                                 bool stalled = false) {
    errors.append(py::dict(py::arg("severity") = "error", py::arg("file") = "",
                           py::arg("line") = 0, py::arg("column") = 0,
                           py::arg("message") = message,
                           py::arg("notes") = py::list()));
    raise(stalled, py::list());
  }
  py::list warnings;

private:
  static std::tuple<std::string, unsigned, unsigned> whereIs(Location where) {
    if (auto loc = where->findInstanceOf<FileLineColLoc>())
      return {loc.getFilename().str(), loc.getLine(), loc.getColumn()};
    return {"", 0, 0};
  }
  static py::dict toDict(Diagnostic &diag) {
    auto [file, line, column] = whereIs(diag.getLocation());
    const char *severity =
        diag.getSeverity() == DiagnosticSeverity::Error     ? "error"
        : diag.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                                                            : "note";
    return py::dict(py::arg("severity") = severity, py::arg("file") = file,
                    py::arg("line") = line, py::arg("column") = column,
                    py::arg("message") = diag.str());
  }

  ScopedDiagnosticHandler handler;
  py::list errors;
};

/// A kernel loaded for one call, with its diagnostics collected.
struct LoadedKernel {
  LoadedKernel(const std::string &source, bool isText, const std::string &name)
      : diagnostics(kernel.getContext()), name(name) {
    if (failed(isText ? kernel.loadText(source, name)
                      : kernel.load(source, "tilekit")))
      diagnostics.raiseCollected();
  }
  FunctionOpInterface entry(const std::string &name) {
    std::string why;
    FunctionOpInterface func = driver::findEntry(kernel.getModule(), name, why);
    if (!func)
      diagnostics.raiseMessage(
          name.empty() ? "choose the function to run with entry= (" + why + ")"
                       : why);
    return func;
  }
  void planMemory(const timing::MachineConfig &config) {
    if (failed(driver::planModule(kernel.getModule(),
                                  driver::getCapacities(config),
                                  /*apply=*/true)))
      diagnostics.raiseCollected();
  }
  /// Planned for a compiled trace producer as `tilekit sim` plans it: the
  /// kernels compile writes for the orchestration's data ops are written
  /// first, so that their tiles are planned with the rest.
  void planForProducer(const timing::MachineConfig &config) {
    if (driver::holdsPTO(kernel.getModule()) &&
        failed(driver::outlineTensorCompute(kernel.getModule())))
      diagnostics.raiseCollected();
    planMemory(config);
  }
  void checkBlocks(unsigned blocks) {
    if (blocks == 0 || blocks > 65536)
      diagnostics.raiseMessage("blocks=" + std::to_string(blocks) +
                               ": expected 1 to 65536");
  }
  /// The file name generated code cites (`<string>` for text).
  std::string sourceName() const {
    return llvm::sys::path::filename(name).str();
  }
  timing::MachineConfig loadConfig(const std::string &path) {
    auto config = timing::loadMachineConfig(path);
    if (!config)
      diagnostics.raiseMessage(toString(config.takeError()));
    return std::move(*config);
  }

  driver::KernelFile kernel;
  DiagnosticCollector diagnostics;
  std::string name;
};

/// NumPy's dtype string in the form NpyArray holds ("<i1" for "|i1").
std::string descrOf(const py::array &array) {
  std::string descr = py::str(array.dtype().attr("str"));
  if (descr[0] == '=' || descr[0] == '|')
    descr[0] = '<';
  return descr;
}

/// The arguments of `entry` from `inputs` (name -> ndarray, or a string the
/// command line takes: a number, FILE.npy, rand:..., zeros:...).
SmallVector<RuntimeValue> bindInputs(LoadedKernel &loaded,
                                     FunctionOpInterface entry,
                                     const py::dict &inputs,
                                     std::vector<std::string> &names) {
  llvm::StringMap<unsigned> index =
      loaded.kernel.getArgumentIndex(entry, names);
  std::vector<std::optional<RuntimeValue>> values(names.size());
  for (auto [key, value] : inputs) {
    std::string name = py::str(key);
    auto it = index.find(name);
    if (it == index.end())
      loaded.diagnostics.raiseMessage("inputs['" + name + "']: @" +
                                      entry.getName().str() +
                                      " has no argument %" + name);
    Type type = entry.getArgumentTypes()[it->second];
    llvm::Expected<RuntimeValue> bound = llvm::createStringError(
        llvm::inconvertibleErrorCode(), "unsupported input");
    if (py::isinstance<py::array>(value)) {
      auto array =
          py::array::ensure(value, py::array::c_style | py::array::forcecast);
      NpyArray npy;
      npy.descr = descrOf(array);
      npy.shape.assign(array.shape(), array.shape() + array.ndim());
      // Viewed in place: bindArray copies the elements once, into the
      // executor's storage.
      npy.file = llvm::MemoryBuffer::getMemBuffer(
          llvm::StringRef(static_cast<const char *>(array.data()),
                          array.nbytes()),
          name, /*RequiresNullTerminator=*/false);
      npy.fileElements = static_cast<const uint8_t *>(array.data());
      bound = bindArray(npy, type);
    } else {
      bound = bindArgument(std::string(py::str(value)), type);
    }
    if (!bound)
      loaded.diagnostics.raiseMessage("inputs['" + name +
                                      "']: " + toString(bound.takeError()));
    values[it->second] = std::move(*bound);
  }
  SmallVector<RuntimeValue> args;
  for (auto [i, value] : llvm::enumerate(values)) {
    if (!value)
      loaded.diagnostics.raiseMessage(
          "argument %" + names[i] + " of @" + entry.getName().str() +
          " needs a value: inputs['" + names[i] + "']");
    args.push_back(std::move(*value));
  }
  return args;
}

/// A tensor as a new NumPy array owning its elements (f16 as float16, bf16
/// as float32, integers in their own width).
py::object toPython(const RuntimeValue &value) {
  if (const auto *scalar = std::get_if<Scalar>(&value)) {
    if (isFloatKind(scalar->kind))
      return py::float_(scalar->f);
    return py::int_(scalar->i);
  }
  const auto *tensor = std::get_if<TensorValue>(&value);
  if (!tensor)
    return py::none(); // tiles do not leave the kernel
  auto npy = std::make_unique<NpyArray>(npyFromTensor(*tensor));
  py::dtype dtype(npy->descr);
  std::vector<py::ssize_t> shape(npy->shape.begin(), npy->shape.end());
  void *data = npy->data.data();
  // The array keeps the elements where npyFromTensor put them.
  py::capsule owner(npy.release(),
                    [](void *p) { delete static_cast<NpyArray *>(p); });
  return py::array(dtype, shape, data, owner);
}

UndefinedData parseUndefined(LoadedKernel &loaded, const std::string &name) {
  if (name == "zero")
    return UndefinedData::Zero;
  if (name == "nan")
    return UndefinedData::NaN;
  if (name == "check")
    return UndefinedData::Check;
  loaded.diagnostics.raiseMessage("undefined='" + name +
                                  "': expected 'zero', 'nan' or 'check'");
}

struct RunSettings {
  std::string entry, undefined;
  unsigned blocks;
  double timeout;
  uint64_t maxSteps;
  /// Compiled AscendC kernels run as their C++ (run --compiled), each call
  /// checked against the executor with verifyPerItem.
  bool compiled = false, verifyPerItem = false;
};

/// Runs the kernel; returns every argument and result by name.
py::dict execute(LoadedKernel &loaded, const py::dict &inputs,
                 const RunSettings &settings, trace::TraceSink *trace) {
  FunctionOpInterface entry = loaded.entry(settings.entry);
  std::vector<std::string> names;
  SmallVector<RuntimeValue> args = bindInputs(loaded, entry, inputs, names);
  InterpreterOptions options;
  options.undefined = parseUndefined(loaded, settings.undefined);
  options.trace = trace;
  options.maxSteps = settings.maxSteps;
  llvm::Expected<std::chrono::milliseconds> timeout =
      driver::parseSeconds("timeout", settings.timeout, /*zeroAllowed=*/true);
  if (!timeout)
    loaded.diagnostics.raiseMessage(toString(timeout.takeError()));
  options.timeout = *timeout;
  loaded.checkBlocks(settings.blocks);
  std::optional<driver::CompiledKernels> compiled;
  std::optional<Interpreter> reference;
  if (settings.compiled && !trace) {
    compiled.emplace(loaded.kernel.getModule(), "compiled=True");
    if (settings.verifyPerItem) {
      reference.emplace(loaded.kernel.getModule(), options);
      compiled->verifyPerItem(*reference, std::nullopt, std::nullopt);
      options.threads = 1; // the first divergent item is the first in order
    }
    options.external = &*compiled;
  } else if (settings.verifyPerItem) {
    loaded.diagnostics.raiseMessage(
        "verify_per_item checks a compiled=True run");
  }
  Interpreter interpreter(loaded.kernel.getModule(), std::move(options));
  FailureOr<SmallVector<RuntimeValue>> results = failure();
  {
    // Other Python threads run while the kernel does.
    py::gil_scoped_release release;
    results = compiled
                  ? compiled->launch(interpreter, entry, args, settings.blocks)
                  : interpreter.launch(entry, args, settings.blocks);
  }
  if (failed(results)) {
    if (interpreter.hasStalled())
      loaded.diagnostics.raiseStalled(interpreter.getStalledWaits());
    loaded.diagnostics.raiseCollected();
  }
  py::dict outputs;
  for (auto [name, value] : llvm::zip(names, args))
    if (std::holds_alternative<TensorValue>(value))
      outputs[py::str(name)] = toPython(value);
  for (auto [i, value] : llvm::enumerate(*results))
    outputs[py::str(results->size() == 1 ? std::string("result")
                                         : "result" + std::to_string(i))] =
        toPython(value);
  return outputs;
}

py::dict checkKernel(const std::string &source, bool isText,
                     const std::string &name, const std::string &config) {
  LoadedKernel loaded(source, isText, name);
  // Counted as written, before planning adds copies or unrolls loops.
  std::vector<driver::FunctionSummary> summaries =
      driver::summarizeKernel(loaded.kernel);
  timing::MachineConfig machine = loaded.loadConfig(config);
  auto plans = driver::planModule(loaded.kernel.getModule(),
                                  driver::getCapacities(machine),
                                  /*apply=*/false);
  if (failed(plans))
    loaded.diagnostics.raiseCollected();
  for (const driver::FunctionPlan &plan : *plans)
    pto::warnHalfBuffers(plan.func, plan.plan);
  driver::addPlans(summaries, *plans, loaded.kernel);
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::json::Value(driver::toJson(summaries));
  return py::dict(py::arg("summary") = json,
                  py::arg("warnings") = loaded.diagnostics.warnings);
}

py::dict runKernel(const std::string &source, bool isText,
                   const std::string &name, const py::dict &inputs,
                   const RunSettings &settings, const std::string &config) {
  LoadedKernel loaded(source, isText, name);
  if (!config.empty())
    loaded.planMemory(loaded.loadConfig(config));
  py::dict outputs = execute(loaded, inputs, settings, nullptr);
  return py::dict(py::arg("outputs") = outputs,
                  py::arg("warnings") = loaded.diagnostics.warnings);
}

/// Runs `entry`'s compiled trace producer (built or found in the cache)
/// into `sink`, with each tensor's shape from `dims` and each scalar's
/// value from `scalars` (names to text, as the command line's --dims and
/// --scalar take them).
void produceCompiled(LoadedKernel &loaded, const RunSettings &settings,
                     const std::map<std::string, std::string> &dims,
                     const std::map<std::string, std::string> &scalars,
                     trace::TraceSink &sink) {
  constexpr driver::ProducerOptionNames names{"producer='compiled'", "dims",
                                              "scalars"};
  FunctionOpInterface entry = loaded.entry(settings.entry);
  FailureOr<std::string> object = driver::buildTraceProducer(
      loaded.kernel, entry, loaded.sourceName(), names.producer);
  if (failed(object))
    loaded.diagnostics.raiseCollected();
  auto producer = trace::ProducerLibrary::open(*object);
  if (!producer)
    loaded.diagnostics.raiseMessage(toString(producer.takeError()));
  llvm::StringMap<std::string> shapeOf, valueOf;
  for (auto [from, into] :
       {std::pair(&dims, &shapeOf), std::pair(&scalars, &valueOf)})
    for (const auto &[key, text] : *from)
      (*into)[key] = text;
  llvm::Expected<std::vector<int64_t>> args = driver::bindProducerArguments(
      (*producer)->getParameters(), shapeOf, valueOf, names);
  if (!args)
    loaded.diagnostics.raiseMessage(toString(args.takeError()));
  llvm::Expected<std::chrono::milliseconds> timeout =
      driver::parseSeconds("timeout", settings.timeout, /*zeroAllowed=*/true);
  if (!timeout)
    loaded.diagnostics.raiseMessage(toString(timeout.takeError()));
  tilekit_trace_limits limits{settings.maxSteps,
                              driver::kDefaultProducerMemoryMiB << 20,
                              static_cast<uint64_t>(timeout->count())};
  llvm::Expected<uint64_t> records = [&] {
    py::gil_scoped_release release;
    return (*producer)->produce(sink, *args, settings.blocks, 0, limits);
  }();
  if (!records) {
    bool stopped = records.errorIsA<trace::ProducerStopped>();
    loaded.diagnostics.raiseMessage(toString(records.takeError()), stopped);
  }
}

py::dict simulateKernel(const std::string &source, bool isText,
                        const std::string &name, const py::dict &inputs,
                        const RunSettings &settings, const std::string &config,
                        unsigned cores, bool byLine,
                        const std::string &timelinePath,
                        const std::string &reportPath, bool compiled,
                        const std::map<std::string, std::string> &dims,
                        const std::map<std::string, std::string> &scalars,
                        const std::string &archName) {
  LoadedKernel loaded(source, isText, name);
  timing::MachineConfig machine = loaded.loadConfig(config);
  if (!archName.empty()) {
    // As `tilekit sim --arch`: the compiled kernel is what is timed.
    std::optional<ascendc::Arch> arch = ascendc::parseArchName(archName);
    if (!arch)
      loaded.diagnostics.raiseMessage("arch: expected c220 or c310, not '" +
                                      archName + "'");
    if (!driver::holdsPTO(loaded.kernel.getModule()))
      loaded.diagnostics.raiseMessage(
          "arch compiles a PTO kernel; this one is AscendC already");
    loaded.kernel.stampArgumentNames();
    if (failed(driver::compileForArch(loaded.kernel.getModule(), *arch,
                                      driver::getCapacities(machine),
                                      cores ? cores : machine.cubeCores)))
      loaded.diagnostics.raiseCollected();
  } else if (compiled) {
    loaded.planForProducer(machine);
  } else {
    // As `tilekit sim` does: the orchestration's data ops are timed as the
    // kernels compile writes for them.
    (void)driver::outlineForTiming(loaded.kernel.getModule());
    loaded.planMemory(machine);
  }
  timing::SimOptions options;
  options.cores = cores;
  options.timeline = !timelinePath.empty() || !reportPath.empty();
  timing::SimulatingSink sink(machine, options);
  py::dict outputs;
  if (compiled)
    produceCompiled(loaded, settings, dims, scalars, sink);
  else
    outputs = execute(loaded, inputs, settings, &sink);
  auto result = sink.getSimulator().finish();
  if (!result)
    loaded.diagnostics.raiseMessage(toString(result.takeError()));
  std::string json;
  llvm::raw_string_ostream os(json);
  timing::printJsonReport(os, *result, machine,
                          byLine ? &sink.getTables() : nullptr);
  if (!timelinePath.empty())
    if (llvm::Error error = timing::writeTimeline(timelinePath, *result,
                                                  sink.getTables(), machine))
      loaded.diagnostics.raiseMessage(toString(std::move(error)));
  if (!reportPath.empty())
    if (llvm::Error error = timing::writeHtmlReport(reportPath, *result,
                                                    sink.getTables(), machine))
      loaded.diagnostics.raiseMessage(toString(std::move(error)));
  return py::dict(py::arg("report") = os.str(), py::arg("outputs") = outputs,
                  py::arg("warnings") = loaded.diagnostics.warnings);
}

std::string emitTorch(const std::string &source, bool isText,
                      const std::string &name) {
  LoadedKernel loaded(source, isText, name);
  TorchEmitOptions options;
  options.sourceFile = name;
  options.sourceName = [&](Value value) {
    return loaded.kernel.getValueName(value);
  };
  std::string script;
  llvm::raw_string_ostream os(script);
  if (failed(emitTorchScript(loaded.kernel.getModule(), os, options)))
    loaded.diagnostics.raiseCollected();
  return os.str();
}

/// What `tilekit compile` takes besides the kernel.
struct CompileSettings {
  std::string arch, emit, entry, stopAfter, config, passPipeline;
  bool lowerToL0;
  /// verify_each: run the kernel on these inputs after every pass.
  bool verifyEach = false;
  unsigned blocks = 1;
};

/// compile(verify_each=inputs): runs the kernel on `inputs` now and adds
/// the instrumentation that runs it after every pass of `pm`.
driver::VerifyEach *addVerifyEach(LoadedKernel &loaded, PassManager &pm,
                                  const CompileSettings &settings,
                                  const py::dict &inputs) {
  loaded.checkBlocks(settings.blocks);
  FunctionOpInterface entry = loaded.entry(settings.entry);
  std::vector<std::string> names;
  SmallVector<RuntimeValue> args = bindInputs(loaded, entry, inputs, names);
  driver::RunResult reference = driver::runReference(
      loaded.kernel.getModule(), entry.getName(), args, settings.blocks);
  if (!reference.error.empty())
    loaded.diagnostics.raiseMessage(
        "verify_each: the kernel does not run before the pipeline:\n" +
        reference.error);
  // One pass at a time, so that each runs (and is checked) alone.
  loaded.kernel.getContext().disableMultithreading();
  auto instrumentation = std::make_unique<driver::VerifyEach>(
      entry.getName().str(), std::move(args), std::move(names),
      std::move(reference), settings.blocks);
  driver::VerifyEach *check = instrumentation.get();
  pm.addInstrumentation(std::move(instrumentation));
  return check;
}

std::string compileKernel(const std::string &source, bool isText,
                          const std::string &name,
                          const CompileSettings &settings,
                          const py::dict &inputs) {
  LoadedKernel loaded(source, isText, name);
  const std::string &emit = settings.emit;
  bool traceProducer = emit == "trace-producer";
  if (emit != "cpp" && emit != "mlir" && !traceProducer)
    loaded.diagnostics.raiseMessage("emit='" + emit +
                                    "': expected cpp, mlir or trace-producer");
  if (!settings.stopAfter.empty() && emit != "mlir")
    loaded.diagnostics.raiseMessage(
        "stop_after: only with emit='mlir' (a stopped pipeline leaves the "
        "kernel unplanned or unsynchronized)");
  ModuleOp module = loaded.kernel.getModule();
  // The compiled kernel runs with the kernel's argument names.
  loaded.kernel.stampArgumentNames();
  // The C++ names its variables after the kernel's values, as the CLI's.
  if (emit == "cpp")
    loaded.kernel.nameLocations();
  if (!settings.entry.empty() || traceProducer) {
    FunctionOpInterface entry = loaded.entry(settings.entry);
    if (traceProducer) {
      // Planned as `tilekit sim` plans it, so both producers see the same
      // buffers.
      loaded.planForProducer(loaded.loadConfig(settings.config));
      std::string text;
      if (failed(driver::emitTraceProducer(loaded.kernel, entry,
                                           loaded.sourceName(), text)))
        loaded.diagnostics.raiseCollected();
      return text;
    }
    driver::keepReachable(module, entry);
  }
  ascendc::Arch arch;
  if (settings.arch == "c220")
    arch = ascendc::Arch::C220;
  else if (settings.arch == "c310")
    arch = ascendc::Arch::C310;
  else
    loaded.diagnostics.raiseMessage("arch='" + settings.arch +
                                    "': expected c220 or c310");
  pto::BufferCapacities capacities =
      driver::getCapacities(loaded.loadConfig(settings.config));
  if (driver::holdsPTO(module) &&
      failed(driver::checkWorkItemsFit(module, capacities)))
    loaded.diagnostics.raiseCollected();
  PassManager pm(&loaded.kernel.getContext(), ModuleOp::getOperationName());
  std::string pipelineError;
  if (!settings.passPipeline.empty()) {
    // A PTO kernel's lowering in the pipeline targets the arch too.
    if (driver::holdsPTO(module))
      driver::markArch(module, arch);
    if (failed(driver::addTextualPipeline(pm, settings.passPipeline,
                                          pipelineError)))
      loaded.diagnostics.raiseMessage("pass_pipeline: " + pipelineError);
  } else if (!driver::buildCompilePipeline(pm, module, arch, settings.lowerToL0,
                                           settings.stopAfter, capacities))
    loaded.diagnostics.raiseMessage("stop_after='" + settings.stopAfter +
                                    "': the " + settings.arch +
                                    " pipeline has no such pass");
  driver::VerifyEach *check = settings.verifyEach
                                  ? addVerifyEach(loaded, pm, settings, inputs)
                                  : nullptr;
  LogicalResult compiled = success();
  {
    py::gil_scoped_release release;
    compiled = pm.run(module);
  }
  if (failed(compiled))
    loaded.diagnostics.raiseCollected();
  if (check && check->divergent)
    throw KernelFailure{py::list(), false, py::list(),
                        py::dict(py::arg("pass") = *check->divergent,
                                 py::arg("report") = check->report,
                                 py::arg("before") = check->before,
                                 py::arg("after") = check->after)};
  std::string text;
  llvm::raw_string_ostream os(text);
  if (emit == "cpp") {
    os << "// GENERATED by tilekit.compile(arch='" << settings.arch
       << "') from " << name << " -- DO NOT EDIT\n";
    if (failed(translateAscendCToCpp(module, os)))
      loaded.diagnostics.raiseCollected();
  } else {
    module->print(os);
    os << "\n";
  }
  return os.str();
}

} // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "tilekit's native part; use the tilekit package (docs/python.md)";
  registerAllPasses(); // pass_pipeline= names any of them
  python::bindIR(m);
  static py::exception<KernelFailure> failureType(m, "KernelFailure");
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error)
        std::rethrow_exception(error);
    } catch (const KernelFailure &failure) {
      py::tuple args = py::make_tuple(failure.diagnostics, failure.stalled,
                                      failure.waiters, failure.brokenBy);
      PyErr_SetObject(failureType.ptr(), args.ptr());
    }
  });
  py::class_<RunSettings>(m, "RunSettings")
      .def(py::init<std::string, std::string, unsigned, double, uint64_t, bool,
                    bool>(),
           py::arg("entry"), py::arg("undefined"), py::arg("blocks"),
           py::arg("timeout"), py::arg("max_steps"), py::arg("compiled"),
           py::arg("verify_per_item"));
  m.def("check", &checkKernel, py::arg("source"), py::arg("is_text"),
        py::arg("name"), py::arg("config"));
  m.def("run", &runKernel, py::arg("source"), py::arg("is_text"),
        py::arg("name"), py::arg("inputs"), py::arg("settings"),
        py::arg("config"));
  m.def("sim", &simulateKernel, py::arg("source"), py::arg("is_text"),
        py::arg("name"), py::arg("inputs"), py::arg("settings"),
        py::arg("config"), py::arg("cores"), py::arg("by_line"),
        py::arg("timeline"), py::arg("html_report"), py::arg("compiled"),
        py::arg("dims"), py::arg("scalars"), py::arg("arch"));
  // Two reports (JSON text, as sim returns them) compared as sim --diff
  // compares them: the comparison as JSON text, and as the text it prints.
  m.def(
      "compare_reports",
      [](const std::string &a, const std::string &b, unsigned top) {
        auto parse = [](const std::string &text) {
          llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
          if (!value || !value->getAsObject())
            throw py::value_error(
                "compare_reports: expected tilekit.sim reports");
          return std::move(*value->getAsObject());
        };
        return llvm::formatv("{0}", llvm::json::Value(timing::compareReports(
                                        parse(a), parse(b), top)))
            .str();
      },
      py::arg("a"), py::arg("b"), py::arg("top"));
  m.def(
      "format_comparison",
      [](const std::string &comparison) {
        llvm::Expected<llvm::json::Value> value = llvm::json::parse(comparison);
        if (!value || !value->getAsObject())
          throw py::value_error("format_comparison: expected a comparison");
        std::string text;
        llvm::raw_string_ostream os(text);
        timing::printComparison(os, *value->getAsObject());
        return text;
      },
      py::arg("comparison"));
  m.def("set_runtime_root",
        [](const std::string &root) { driver::setRuntimeRoot(root); });
  m.def("emit_torch", &emitTorch, py::arg("source"), py::arg("is_text"),
        py::arg("name"));
  py::class_<CompileSettings>(m, "CompileSettings")
      .def(py::init<std::string, std::string, std::string, std::string,
                    std::string, std::string, bool, bool, unsigned>(),
           py::arg("arch"), py::arg("emit"), py::arg("entry"),
           py::arg("stop_after"), py::arg("config"), py::arg("pass_pipeline"),
           py::arg("lower_to_l0"), py::arg("verify_each"), py::arg("blocks"));
  m.def("compile", &compileKernel, py::arg("source"), py::arg("is_text"),
        py::arg("name"), py::arg("settings"), py::arg("inputs"));
}
