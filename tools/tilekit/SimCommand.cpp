//===- SimCommand.cpp - `tilekit sim` -------------------------------------===//
//
// Times a kernel: runs it like `tilekit run` (same inputs and checks) while
// the executor records a trace, or reads a trace file, then feeds the trace
// to the timing model and prints what it predicts.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "FailureReport.h"
#include "MemoryPlanning.h"
#include "Progress.h"

#include "tilekit/Driver/CompilePipeline.h"
#include "tilekit/Driver/KernelFile.h"
#include "tilekit/Driver/PlanModule.h"
#include "tilekit/Timing/Comparison.h"
#include "tilekit/Timing/Simulator.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilekit;
using tilekit::driver::fail;
namespace cl = llvm::cl;

cl::SubCommand &driver::simCommand() {
  static cl::SubCommand command(
      "sim", "Predict how fast a PTO kernel runs on the modelled machine");
  return command;
}

static cl::opt<unsigned>
    coreCount("cores",
              cl::desc("Cores to spread work items over (default: the "
                       "config's AIC count)"),
              cl::init(0), cl::sub(driver::simCommand()),
              cl::cat(driver::optionCategory()));
static cl::opt<std::string> archName(
    "arch",
    cl::desc("Compile the PTO kernel for this architecture (c220 or c310, as "
             "`tilekit compile --arch` does) and time the compiled kernel: "
             "its instructions, flags, buffer ids and cross-core flags. The "
             "report also gives the PTO program's ideal schedule"),
    cl::value_desc("c220|c310"), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<std::string> traceInput(
    "trace",
    cl::desc("Time this trace file (binary or text) instead of running a "
             "kernel"),
    cl::value_desc("FILE"), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<std::string> traceOutput(
    "trace-out",
    cl::desc("Also write the trace: text when FILE ends in .txt, else the "
             "binary form"),
    cl::value_desc("FILE"), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<std::string> timelinePath(
    "timeline",
    cl::desc("Write a Chrome trace-event timeline (open in Perfetto)"),
    cl::value_desc("FILE.json"), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<std::string> htmlReportPath(
    "report",
    cl::desc("Also write the report as one self-contained HTML page: pipes "
             "busy over time per core, bytes per path, cycles per source "
             "line (docs/timing-model.md)"),
    cl::value_desc("FILE.html"), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<bool> jsonOutput("json",
                                cl::desc("Print the statistics as JSON"),
                                cl::sub(driver::simCommand()),
                                cl::cat(driver::optionCategory()));
static cl::opt<bool> byLine(
    "by-line",
    cl::desc("Also print cycles per source line and pipe, most busy "
             "first: busy cycles, waiting cycles, what the waits were on "
             "(data, a flag, a buffer id, a slot, ...) and the lines they "
             "waited for, with the kernel's text (in --json: the \"lines\" "
             "array)"),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));

static cl::opt<std::string> diffKernel(
    "diff",
    cl::desc("Also time the kernel FILE (a variant: another tile size, slot "
             "count, ...) with the same inputs and options, and print the "
             "two side by side: cycles and bound of each, the speedup of "
             "FILE, the busy share of every pipe in both, and the source "
             "lines whose cycles changed most, matched by line and column "
             "(--json: the comparison as JSON)"),
    cl::value_desc("FILE"), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));
static cl::opt<unsigned> diffLines(
    "diff-lines",
    cl::desc("With --diff, how many changed lines to list (default 10)"),
    cl::init(10), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));

bool driver::simPrintsJson() { return simCommand() && jsonOutput; }

/// Says, once, which ops the config has no figure for: their time is the
/// config's default, a guess, and the prediction is only as good.
static void warnOfDefaultCosts(const timing::SimResult &result,
                               const timing::MachineConfig &config) {
  if (result.defaultCostOps.empty())
    return;
  llvm::errs() << "tilekit sim: warning: " << config.name
               << " has no cost for ";
  llvm::interleave(result.defaultCostOps, llvm::errs(), ", ");
  llvm::errs() << "; timed with its default vector cost "
                  "(docs/timing-model.md)\n";
}

/// Prints the result and writes the timeline.
static int report(const timing::SimResult &result,
                  const timing::MachineConfig &config,
                  const trace::TraceTables &tables) {
  warnOfDefaultCosts(result, config);
  if (jsonOutput) {
    timing::printJsonReport(llvm::outs(), result, config,
                            byLine ? &tables : nullptr);
    driver::noteJsonPrinted();
  } else {
    timing::printReport(llvm::outs(), result, config);
    if (byLine)
      timing::printLineReport(llvm::outs(), result, tables);
  }
  if (!timelinePath.empty())
    if (llvm::Error error =
            timing::writeTimeline(timelinePath, result, tables, config))
      return fail(toString(std::move(error)));
  if (!htmlReportPath.empty())
    if (llvm::Error error =
            timing::writeHtmlReport(htmlReportPath, result, tables, config))
      return fail(toString(std::move(error)));
  return 0;
}

/// With --arch, the kernel is compiled before it runs (the PTO kernel's
/// capacity gate, then the architecture's whole pipeline).
static driver::ExecuteHooks compileHooks(std::optional<ascendc::Arch> arch) {
  driver::ExecuteHooks hooks;
  if (!arch)
    return hooks;
  hooks.prepare = [arch](driver::KernelFile &kernel) -> mlir::LogicalResult {
    mlir::ModuleOp module = kernel.getModule();
    if (!driver::holdsPTO(module)) {
      fail("--arch compiles a PTO kernel; " + driver::getKernelPath() +
           " is AscendC already: time it without --arch");
      return mlir::failure();
    }
    auto config = driver::loadConfig();
    if (!config) {
      fail(toString(config.takeError()));
      return mlir::failure();
    }
    kernel.stampArgumentNames();
    // Compiled for the machine it is timed on: its buffers and AI cores.
    return driver::compileForArch(module, *arch, driver::getCapacities(*config),
                                  coreCount ? coreCount : config->cubeCores,
                                  driver::planOptions());
  };
  return hooks;
}

/// Runs the kernel at the command's path into `sink` (executor or compiled
/// producer, compiled for `arch` first when given); the exit status.
static int simulateKernel(timing::SimulatingSink &sink,
                          std::optional<ascendc::Arch> arch) {
  driver::CountingSink counted(sink);
  driver::ProgressLine progress("records simulated", counted.count);
  if (driver::usesCompiledProducer())
    return driver::runTraceProducer(counted, compileHooks(arch));
  return driver::executeKernel(&counted, compileHooks(arch));
}

/// The by-line JSON report of the kernel at the command's path.
static std::optional<llvm::json::Object>
timeForDiff(const timing::MachineConfig &config,
            const timing::SimOptions &options,
            std::optional<ascendc::Arch> arch) {
  timing::SimulatingSink sink(config, options);
  if (simulateKernel(sink, arch))
    return std::nullopt;
  auto result = sink.getSimulator().finish();
  if (!result) {
    fail(driver::getKernelPath().str() + ": " + toString(result.takeError()));
    return std::nullopt;
  }
  warnOfDefaultCosts(*result, config);
  std::string text;
  llvm::raw_string_ostream os(text);
  timing::printJsonReport(os, *result, config, &sink.getTables());
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    fail("internal: the report does not parse: " +
         toString(parsed.takeError()));
    return std::nullopt;
  }
  return std::move(*parsed->getAsObject());
}

/// `sim A --diff B`: both kernels timed with the same inputs and options.
static int runDiff(const timing::MachineConfig &config,
                   const timing::SimOptions &options,
                   std::optional<ascendc::Arch> arch) {
  std::string first = driver::getKernelPath().str();
  std::optional<llvm::json::Object> a = timeForDiff(config, options, arch);
  if (!a)
    return 1;
  driver::setKernelPath(diffKernel);
  std::optional<llvm::json::Object> b = timeForDiff(config, options, arch);
  driver::setKernelPath(first);
  if (!b)
    return 1;
  llvm::json::Object comparison = timing::compareReports(*a, *b, diffLines);
  if (jsonOutput) {
    comparison["a"].getAsObject()->try_emplace("kernel", first);
    comparison["b"].getAsObject()->try_emplace("kernel", diffKernel);
    llvm::outs() << llvm::formatv("{0:2}\n",
                                  llvm::json::Value(std::move(comparison)));
    driver::noteJsonPrinted();
    return 0;
  }
  llvm::outs() << "A: " << first << "\nB: " << diffKernel << "\n";
  timing::printComparison(llvm::outs(), comparison);
  return 0;
}

int driver::runSim() {
  // As many cores as a machine config may declare.
  if (coreCount > 65536)
    return fail("--cores " + std::to_string(coreCount) +
                ": expected 0 (the config's) to 65536");
  std::optional<ascendc::Arch> arch;
  if (!archName.empty()) {
    arch = ascendc::parseArchName(archName);
    if (!arch)
      return fail("--arch: expected c220 or c310, not '" + archName + "'");
    if (!traceInput.empty())
      return fail("--arch compiles the kernel and times the compiled "
                  "kernel; it does not apply to --trace");
    // Without --config, the architecture's own machine.
    setDefaultConfigForArch(*arch);
  }
  auto config = driver::loadConfig();
  if (!config)
    return fail(toString(config.takeError()));
  if (coreCount > config->cubeCores)
    return fail("--cores " + std::to_string(coreCount) + ": " + config->name +
                " has " + std::to_string(config->cubeCores) + " AI cores (" +
                std::to_string(2 * config->cubeCores) +
                " vector cores, which kernels of one vector core use "
                "already); --cores counts AI cores");

  timing::SimOptions options;
  options.cores = coreCount;
  options.timeline = !timelinePath.empty() || !htmlReportPath.empty();
  if (!diffKernel.empty()) {
    if (!traceInput.empty() || !traceOutput.empty() || options.timeline)
      return fail("--diff times two kernels and prints how they differ; it "
                  "does not apply to --trace, --trace-out, --timeline or "
                  "--report (time each kernel on its own for those)");
    return runDiff(*config, options, arch);
  }

  // Records stream from the reader (or the executor) into the timing model
  // and, with --trace-out, into the file as they come: memory stays bounded
  // by the open work items whatever the trace's length.
  timing::SimulatingSink sink(*config, options);
  std::unique_ptr<trace::TraceReader> reader;
  if (!traceInput.empty()) {
    auto opened = trace::TraceReader::open(traceInput);
    if (!opened)
      return fail(toString(opened.takeError()));
    reader = std::move(*opened);
    sink.getTables() = reader->getTables();
  }
  std::unique_ptr<trace::TraceFileWriter> writer;
  if (!traceOutput.empty()) {
    auto created =
        trace::TraceFileWriter::create(traceOutput, sink.getTables());
    if (!created)
      return fail(toString(created.takeError()));
    writer = std::move(*created);
    sink.tee(writer.get());
  }
  if (reader) {
    driver::CountingSink counted(sink);
    driver::ProgressLine progress("records simulated", counted.count);
    while (true) {
      llvm::Expected<const trace::Record *> record = reader->next();
      if (!record)
        return fail(toString(record.takeError()));
      if (!*record)
        break;
      counted.emit(**record);
    }
  } else if (int status = simulateKernel(sink, arch)) {
    return status;
  }
  auto result = sink.getSimulator().finish();
  if (!result)
    return fail(toString(result.takeError()));
  // The PTO program's own schedule, beside the compiled kernel's.
  if (arch) {
    timing::SimOptions idealOptions = options;
    idealOptions.timeline = false;
    timing::SimulatingSink ideal(*config, idealOptions);
    driver::ExecuteHooks quiet;
    quiet.quiet = true;
    if (int status = usesCompiledProducer() ? runTraceProducer(ideal)
                                            : executeKernel(&ideal, quiet))
      return status;
    auto idealResult = ideal.getSimulator().finish();
    if (!idealResult)
      return fail("the PTO schedule: " + toString(idealResult.takeError()));
    result->idealCycles = idealResult->cycles;
  }
  if (writer)
    if (llvm::Error error = writer->finish())
      return fail(toString(std::move(error)));
  return report(*result, *config, sink.getTables());
}
