//===- RunFuzzer.cpp - `tilekit run` on small generated inputs ------------===//
//
// A verified kernel's entry (chosen as `tilekit run` chooses it, else the
// first function with a body) runs on random tensors of its argument
// shapes (dynamic dimensions get a size taken from the input) and small
// scalars, with a step budget and short timeouts so that endless kernels
// end as errors. Runtime errors are expected; crashes are findings.

#include "KernelFuzzer.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Interp/Binding.h"
#include "tilekit/Interp/ElementKind.h"
#include "tilekit/Interp/Interpreter.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

static FunctionOpInterface pickEntry(ModuleOp module) {
  FunctionOpInterface first;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    if (pto::getFunctionKind(func) == pto::FunctionKind::Orchestration)
      return func;
    if (!first)
      first = func;
  }
  return first;
}

/// The source `tilekit run --input` would take for `type`, or none when
/// the argument cannot be bound or is too large for a fuzz run.
static std::optional<std::string> sourceFor(Type type, int64_t dynamicSize,
                                            unsigned seed) {
  if (auto tensor = dyn_cast<pto::GMTensorType>(type)) {
    std::optional<ElementKind> kind = getElementKind(tensor.getElementType());
    if (!kind || tensor.getRank() == 0)
      return std::nullopt;
    std::string shape;
    int64_t elements = 1;
    for (int64_t dim : tensor.getShape()) {
      int64_t size = ShapedType::isDynamic(dim) ? dynamicSize : dim;
      elements *= std::max<int64_t>(size, 1);
      if (elements > (int64_t(1) << 16))
        return std::nullopt;
      shape += (shape.empty() ? "" : "x") + std::to_string(size);
    }
    return "rand:" + shape + ":" + getKindName(*kind).str() + ":" +
           std::to_string(seed);
  }
  if (isa<pto::TileType>(type))
    return std::nullopt;
  return std::to_string(dynamicSize % 5);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  OwningOpRef<ModuleOp> module = tilekit::fuzz::parseKernel(data, size);
  if (!module)
    return 0;
  FunctionOpInterface entry = pickEntry(*module);
  if (!entry)
    return 0;
  int64_t dynamicSize = 1 + (size > 0 ? data[0] % 64 : 16);
  SmallVector<RuntimeValue> args;
  for (auto [index, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::optional<std::string> source = sourceFor(type, dynamicSize, index);
    if (!source)
      return 0;
    llvm::Expected<RuntimeValue> value = bindArgument(*source, type);
    if (!value) {
      llvm::consumeError(value.takeError());
      return 0;
    }
    args.push_back(std::move(*value));
  }
  InterpreterOptions options;
  options.undefined = size % 3 == 0 ? UndefinedData::Check
                                    : UndefinedData::Zero;
  options.maxSteps = 20000;
  options.timeout = std::chrono::milliseconds(2000);
  options.popTimeout = std::chrono::milliseconds(200);
  options.groupTimeout = std::chrono::milliseconds(2000);
  Interpreter interpreter(*module, std::move(options));
  (void)interpreter.launch(entry, args, 1 + size % 2);
  return 0;
}
