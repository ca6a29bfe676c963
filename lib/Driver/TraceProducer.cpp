//===- TraceProducer.cpp - Compiled trace producers for the tools ---------===//

#include "tilekit/Driver/TraceProducer.h"
#include "tilekit/Driver/BuildCache.h"
#include "tilekit/Driver/KernelFile.h"

#include "tilekit/Conversion/AscendCToTraceProducer.h"
#include "tilekit/Conversion/PTOToTraceProducer.h"
#include "tilekit/Driver/CompilePipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace tilekit;

LogicalResult driver::emitTraceProducer(KernelFile &kernel,
                                        FunctionOpInterface entry,
                                        StringRef sourceName,
                                        std::string &text) {
  kernel.stampArgumentNames();
  llvm::raw_string_ostream os(text);
  // A compiled kernel (AscendC) or the PTO program.
  if (!holdsPTO(kernel.getModule()))
    return translateAscendCToTraceProducer(kernel.getModule(), entry.getName(),
                                           sourceName, os);
  // The orchestration's own data ops become the kernels compile writes for
  // them, which the producer times like any other.
  if (failed(outlineTensorCompute(kernel.getModule())))
    return failure();
  return translatePTOToTraceProducer(kernel.getModule(), entry.getName(),
                                     sourceName, os);
}

FailureOr<std::string> driver::buildTraceProducer(KernelFile &kernel,
                                                  FunctionOpInterface entry,
                                                  StringRef sourceName,
                                                  StringRef option) {
  BuildRequest request;
  request.option = option.str();
  request.prefix = "producer";
  request.symbol = "tilekit_trace_produce";
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
  if (failed(emitTraceProducer(kernel, entry, sourceName, request.source)))
    return failure();
  return buildSharedObject(kernel.getModule(), request);
}

static llvm::Error bindingError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::vector<int64_t>> driver::bindProducerArguments(
    const std::vector<trace::ProducerParameter> &parameters,
    const llvm::StringMap<std::string> &dims,
    const llvm::StringMap<std::string> &scalars,
    const ProducerOptionNames &names) {
  std::string known;
  for (const trace::ProducerParameter &parameter : parameters)
    known +=
        (known.empty() ? "" : ", ") + parameter.kind + " " + parameter.name;
  for (auto [map, isDims] :
       {std::pair(&dims, true), std::pair(&scalars, false)})
    for (const auto &given : *map)
      if (llvm::none_of(parameters, [&](const trace::ProducerParameter &p) {
            return p.name == given.getKey() && (p.kind == "tensor") == isDims;
          }))
        return bindingError((isDims ? names.dims : names.scalar) + " " +
                            given.getKey() + ": the kernel has no such " +
                            (isDims ? "tensor" : "scalar") +
                            " argument (its arguments: " + known + ")");
  std::vector<int64_t> args;
  for (const trace::ProducerParameter &parameter : parameters) {
    if (parameter.kind == "tensor") {
      auto it = dims.find(parameter.name);
      std::vector<int64_t> shape = parameter.shape;
      if (it != dims.end()) {
        SmallVector<StringRef> extents;
        StringRef(it->second).split(extents, 'x');
        if (extents.size() != parameter.shape.size())
          return bindingError(names.dims + " " + parameter.name + "=" +
                              it->second + ": tensor " + parameter.name +
                              " has rank " + Twine(parameter.shape.size()));
        for (auto [i, text] : llvm::enumerate(extents))
          if (text.getAsInteger(10, shape[i]) || shape[i] < 0)
            return bindingError(names.dims + " " + parameter.name + "=" +
                                it->second +
                                ": extents are non-negative integers");
      } else if (llvm::is_contained(shape, -1)) {
        return bindingError(names.producer + " needs the shape of tensor " +
                            parameter.name + ": " + names.dims + " " +
                            parameter.name + "=SHAPE");
      }
      args.insert(args.end(), shape.begin(), shape.end());
      continue;
    }
    auto it = scalars.find(parameter.name);
    if (it == scalars.end())
      return bindingError(names.producer + " needs the value of " +
                          parameter.kind + " " + parameter.name + ": " +
                          names.scalar + " " + parameter.name + "=VALUE");
    StringRef text = it->second;
    if (parameter.kind == "float") {
      double value;
      if (text.getAsDouble(value))
        return bindingError(names.scalar + " " + parameter.name + "=" + text +
                            ": not a number");
      int64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      args.push_back(bits);
      continue;
    }
    int64_t value;
    if (text.getAsInteger(10, value))
      return bindingError(names.scalar + " " + parameter.name + "=" + text +
                          ": not an integer");
    args.push_back(value);
  }
  return args;
}
