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

#include "BuildCache.h"
#include "Commands.h"
#include "MemoryPlanning.h"
#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Conversion/PTOToTraceProducer.h"
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

bool driver::usesCompiledProducer() {
  return producerKind == "compiled" || !traceSo.empty();
}

void driver::nameArguments(KernelFile &kernel) {
  ModuleOp module = kernel.getModule();
  module.walk([&](FunctionOpInterface func) {
    if (func.isExternal())
      return;
    for (BlockArgument arg : func.getArguments())
      func.setArgAttr(
          arg.getArgNumber(), kArgumentNameAttr,
          StringAttr::get(module.getContext(), kernel.getArgumentName(arg)));
  });
}

LogicalResult driver::emitTraceProducer(KernelFile &kernel,
                                        FunctionOpInterface entry,
                                        StringRef source, std::string &text) {
  if (shouldPlanMemory()) {
    auto config = loadConfig();
    if (!config) {
      fail(toString(config.takeError()));
      return failure();
    }
    if (failed(planModule(kernel.getModule(), getCapacities(*config),
                          /*apply=*/true, planOptions())))
      return failure();
  }
  nameArguments(kernel);
  llvm::raw_string_ostream os(text);
  return translatePTOToTraceProducer(kernel.getModule(), entry.getName(),
                                     source, os);
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
  std::string known;
  for (const trace::ProducerParameter &parameter : parameters)
    known +=
        (known.empty() ? "" : ", ") + parameter.kind + " " + parameter.name;
  for (auto [map, option] :
       {std::pair(&dims, "dims"), std::pair(&scalars, "scalar")})
    for (const auto &entry : *map)
      if (llvm::none_of(parameters, [&](const trace::ProducerParameter &p) {
            return p.name == entry.getKey() &&
                   (p.kind == "tensor") == (StringRef(option) == "dims");
          })) {
        fail(Twine("--") + option + " " + entry.getKey() +
             ": the kernel has no such " +
             (StringRef(option) == "dims" ? "tensor" : "scalar") +
             " argument (its arguments: " + known + ")");
        return std::nullopt;
      }
  std::vector<int64_t> args;
  for (const trace::ProducerParameter &parameter : parameters) {
    if (parameter.kind == "tensor") {
      auto it = dims.find(parameter.name);
      std::vector<int64_t> shape = parameter.shape;
      if (it != dims.end()) {
        SmallVector<StringRef> extents;
        StringRef(it->second).split(extents, 'x');
        if (extents.size() != parameter.shape.size()) {
          fail("--dims " + parameter.name + "=" + it->second + ": tensor " +
               parameter.name + " has rank " + Twine(parameter.shape.size()));
          return std::nullopt;
        }
        for (auto [i, text] : llvm::enumerate(extents))
          if (text.getAsInteger(10, shape[i]) || shape[i] < 0) {
            fail("--dims " + parameter.name + "=" + it->second +
                 ": extents are non-negative integers");
            return std::nullopt;
          }
      } else if (llvm::is_contained(shape, -1)) {
        fail("--producer=compiled needs the shape of tensor " + parameter.name +
             ": --dims " + parameter.name + "=SHAPE");
        return std::nullopt;
      }
      args.insert(args.end(), shape.begin(), shape.end());
      continue;
    }
    auto it = scalars.find(parameter.name);
    if (it == scalars.end()) {
      fail("--producer=compiled needs the value of " + parameter.kind + " " +
           parameter.name + ": --scalar " + parameter.name + "=VALUE");
      return std::nullopt;
    }
    StringRef text = it->second;
    if (parameter.kind == "float") {
      double value;
      if (text.getAsDouble(value)) {
        fail("--scalar " + parameter.name + "=" + text + ": not a number");
        return std::nullopt;
      }
      int64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      args.push_back(bits);
      continue;
    }
    int64_t value;
    if (text.getAsInteger(10, value)) {
      fail("--scalar " + parameter.name + "=" + text + ": not an integer");
      return std::nullopt;
    }
    args.push_back(value);
  }
  return args;
}

int driver::runTraceProducer(trace::TraceSink &sink) {
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
    if (failed(kernel.load(path, "tilekit " + getCommandName().str())))
      return kExitBadInput;
    FunctionOpInterface entry = pickEntry(kernel.getModule(), path);
    if (!entry)
      return kExitBadInput;
    BuildRequest request;
    request.option = "--producer=compiled";
    request.prefix = "producer";
    // A store's result tensor may go unused (the kernel returns another), a
    // loop-carried scalar be set but never read.
    request.flags = {"-std=c++20",
                     "-O2",
                     "-fPIC",
                     "-shared",
                     "-Wall",
                     "-Werror",
                     "-Wno-unused-variable",
                     "-Wno-unused-but-set-variable"};
    request.includeDirs = {"include"};
    if (failed(emitTraceProducer(kernel, entry, llvm::sys::path::filename(path),
                                 request.source)))
      return kExitBadInput;
    FailureOr<std::string> object =
        buildSharedObject(kernel.getModule(), request);
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
  llvm::Expected<uint64_t> records = (*producer)->produce(
      sink, *args, launchBlocks(),
      pipesUnbounded() ? TILEKIT_PRODUCE_UNBOUNDED_PIPES : 0u);
  if (!records)
    return fail(toString(records.takeError()));
  return 0;
}
