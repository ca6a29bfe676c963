//===- TraceProducer.cpp - Compiled trace producers in the driver ---------===//
//
// `tilekit compile --emit=trace-producer` writes a kernel's producer;
// `tilekit sim --producer=compiled` builds it (BuildCache.h) and runs it
// into the timing model with the shapes of --dims and the values of
// --scalar, no data involved; `--trace-so FILE` runs a producer built
// before. The kernel is planned as `tilekit sim` plans it (--plan-memory),
// so that both producers see the same buffers.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Driver/TraceProducer.h"
#include "Commands.h"
#include "FailureReport.h"
#include "MemoryPlanning.h"
#include "tilekit/Driver/BuildCache.h"
#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Trace/ProducerLibrary.h"
#include "tilekit/Trace/TraceABI.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace tilekit;
using tilekit::driver::fail;
namespace cl = llvm::cl;

static cl::opt<std::string> producerKind(
    "producer",
    cl::desc("Where the trace comes from: interp (run the kernel in the "
             "executor, with its data; default) or compiled (the kernel "
             "compiled to a trace producer and run at native speed without "
             "data, for any --dims)"),
    cl::value_desc("interp|compiled"), cl::init("interp"),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));
static cl::list<std::string> dimSpecs(
    "dims",
    cl::desc("With --producer=compiled or --trace-so: the shape of tensor "
             "argument NAME, like a=8192x8192 (comma-separated or "
             "repeated); static extents may be left out"),
    cl::value_desc("NAME=SHAPE,..."), cl::CommaSeparated,
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));
static cl::list<std::string> scalarSpecs(
    "scalar",
    cl::desc("With --producer=compiled or --trace-so: the value of scalar "
             "argument NAME"),
    cl::value_desc("NAME=VALUE,..."), cl::CommaSeparated,
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));
static cl::opt<std::string> traceSo(
    "trace-so",
    cl::desc("Run this compiled trace producer (a .so built from `tilekit "
             "compile --emit=trace-producer`) instead of a kernel"),
    cl::value_desc("FILE.so"), cl::sub(driver::simCommand()),
    cl::cat(driver::optionCategory()));

static cl::opt<uint64_t> memoryBudget(
    "memory-budget",
    cl::desc("With --producer=compiled or --trace-so: the MiB of trace "
             "records held at once (a group launch keeps its cores' records "
             "until it ends, the timing model an open work item's); past it "
             "the run stops (default 2048, 0: no limit)"),
    cl::value_desc("MiB"), cl::init(driver::kDefaultProducerMemoryMiB),
    cl::sub(driver::simCommand()), cl::cat(driver::optionCategory()));

bool driver::usesCompiledProducer() {
  return producerKind == "compiled" || !traceSo.empty();
}

/// The producer's arguments from --dims and --scalar, in its parameters'
/// order.
static std::optional<std::vector<int64_t>>
bindArguments(const std::vector<trace::ProducerParameter> &parameters) {
  llvm::StringMap<std::string> dims, scalars;
  for (auto [specs, into, option] :
       {std::tuple(&dimSpecs, &dims, "dims"),
        std::tuple(&scalarSpecs, &scalars, "scalar")})
    for (const std::string &spec : *specs) {
      auto [name, value] = StringRef(spec).split('=');
      if (value.empty() || name.empty()) {
        fail(Twine("--") + option + " " + spec + ": expected NAME=VALUE");
        return std::nullopt;
      }
      (*into)[name] = value.str();
    }
  llvm::Expected<std::vector<int64_t>> args = driver::bindProducerArguments(
      parameters, dims, scalars, {"--producer=compiled", "--dims", "--scalar"});
  if (!args) {
    fail(toString(args.takeError()));
    return std::nullopt;
  }
  return std::move(*args);
}

int driver::runTraceProducer(trace::TraceSink &sink,
                             const ExecuteHooks &hooks) {
  if (producerKind != "interp" && producerKind != "compiled")
    return fail("--producer: expected interp or compiled, not '" +
                producerKind + "'");
  std::string library = traceSo;
  if (library.empty()) {
    StringRef path = getKernelPath();
    if (path.empty())
      return fail("expected a kernel file (or --trace-so FILE.so)");
    KernelFile kernel;
    SourceMgrDiagnosticHandler diagnostics(kernel.getSourceMgr(),
                                           &kernel.getContext());
    recordDiagnostics(kernel.getContext());
    if (failed(kernel.load(path, "tilekit " + getCommandName().str())))
      return kExitBadInput;
    // With --arch the kernel is compiled first; the compilation plans it.
    if (hooks.prepare ? failed(hooks.prepare(kernel))
                      : failed(planAsSimPlans(kernel)))
      return kExitBadInput;
    FunctionOpInterface entry = pickEntry(kernel.getModule(), path);
    if (!entry)
      return kExitBadInput;
    FailureOr<std::string> object = driver::buildTraceProducer(
        kernel, entry, llvm::sys::path::filename(path), "--producer=compiled");
    if (failed(object))
      return kExitBadInput;
    library = *object;
  }
  auto producer = trace::ProducerLibrary::open(library);
  if (!producer)
    return fail(toString(producer.takeError()));
  std::optional<std::vector<int64_t>> args =
      bindArguments((*producer)->getParameters());
  if (!args)
    return kExitBadInput;
  llvm::Expected<RunLimits> limits = runLimits();
  if (!limits)
    return fail(toString(limits.takeError()));
  if (memoryBudget > (uint64_t(1) << 40))
    return fail("--memory-budget " + std::to_string(memoryBudget) +
                ": expected 0 (no limit) to 2^40 MiB");
  tilekit_trace_limits bounds{limits->maxSteps, memoryBudget << 20,
                              static_cast<uint64_t>(limits->timeout.count())};
  llvm::Expected<uint64_t> records = (*producer)->produce(
      sink, *args, launchBlocks(),
      pipesUnbounded() ? TILEKIT_PRODUCE_UNBOUNDED_PIPES : 0u, bounds);
  if (!records) {
    bool stopped = records.errorIsA<trace::ProducerStopped>();
    fail(toString(records.takeError()));
    return stopped ? kExitStalled : kExitBadInput;
  }
  return 0;
}
