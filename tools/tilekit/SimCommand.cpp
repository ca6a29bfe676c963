//===- SimCommand.cpp - `tilekit sim` -------------------------------------===//
//
// Times a kernel: runs it like `tilekit run` (same inputs and checks) while
// the executor records a trace, or reads a trace file, then feeds the trace
// to the timing model and prints what it predicts.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "MemoryPlanning.h"

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
static cl::opt<bool> jsonOutput("json",
                                cl::desc("Print the statistics as JSON"),
                                cl::sub(driver::simCommand()),
                                cl::cat(driver::optionCategory()));

int driver::runSim() {
  // As many cores as a machine config may declare.
  if (coreCount > 65536)
    return fail("--cores " + std::to_string(coreCount) +
                ": expected 0 (the config's) to 65536");
  auto config = driver::loadConfig();
  if (!config)
    return fail(toString(config.takeError()));

  trace::TraceCollector collector;
  if (!traceInput.empty()) {
    auto read = trace::readTrace(traceInput);
    if (!read)
      return fail(toString(read.takeError()));
    collector.trace = std::move(*read);
  } else if (int status = executeKernel(&collector)) {
    return status;
  }
  const trace::Trace &trace = collector.trace;

  if (!traceOutput.empty()) {
    llvm::Error error = llvm::StringRef(traceOutput).ends_with(".txt")
                            ? trace::writeTextTrace(traceOutput, trace)
                            : trace::writeBinaryTrace(traceOutput, trace);
    if (error)
      return fail(toString(std::move(error)));
  }

  timing::SimOptions options;
  options.cores = coreCount;
  options.timeline = !timelinePath.empty();
  auto result = timing::simulate(trace, *config, options);
  if (!result)
    return fail(toString(result.takeError()));
  if (jsonOutput)
    timing::printJsonReport(llvm::outs(), *result, *config);
  else
    timing::printReport(llvm::outs(), *result, *config);
  if (!timelinePath.empty())
    if (llvm::Error error =
            timing::writeTimeline(timelinePath, *result, trace, *config))
      return fail(toString(std::move(error)));
  return 0;
}
