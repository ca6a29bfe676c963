//===- FuzzInputs.cpp - Arguments for a fuzzed kernel's entry -------------===//

#include "FuzzInputs.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Interp/Binding.h"
#include "tilekit/Interp/ElementKind.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

FunctionOpInterface fuzz::pickEntry(ModuleOp module) {
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

/// The shape and element type of a GM tensor argument, PTO or AscendC.
static std::optional<std::pair<ArrayRef<int64_t>, Type>> gmShape(Type type) {
  if (auto tensor = dyn_cast<pto::GMTensorType>(type))
    return std::pair(tensor.getShape(), tensor.getElementType());
  if (auto tensor = dyn_cast<ascendc::GlobalTensorType>(type))
    return std::pair(tensor.getShape(), tensor.getElementType());
  return std::nullopt;
}

std::optional<std::string> fuzz::sourceFor(Type type, int64_t dynamicSize,
                                           unsigned seed, int64_t maxElements) {
  if (auto gm = gmShape(type)) {
    auto [dims, elementType] = *gm;
    std::optional<ElementKind> kind = getElementKind(elementType);
    if (!kind || dims.empty())
      return std::nullopt;
    std::string shape;
    int64_t elements = 1;
    for (int64_t dim : dims) {
      int64_t size = ShapedType::isDynamic(dim) ? dynamicSize : dim;
      elements *= std::max<int64_t>(size, 1);
      if (elements > maxElements)
        return std::nullopt;
      shape += (shape.empty() ? "" : "x") + std::to_string(size);
    }
    return "rand:" + shape + ":" + getKindName(*kind).str() + ":" +
           std::to_string(seed);
  }
  if (isa<pto::TileType, ascendc::LocalTensorType>(type))
    return std::nullopt;
  return std::to_string(dynamicSize % 5);
}

std::optional<SmallVector<RuntimeValue>>
fuzz::bindArguments(FunctionOpInterface entry, int64_t dynamicSize,
                    int64_t maxElements) {
  SmallVector<RuntimeValue> args;
  for (auto [index, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::optional<std::string> source =
        sourceFor(type, dynamicSize, index, maxElements);
    if (!source)
      return std::nullopt;
    llvm::Expected<RuntimeValue> value = bindArgument(*source, type);
    if (!value) {
      llvm::consumeError(value.takeError());
      return std::nullopt;
    }
    args.push_back(std::move(*value));
  }
  return args;
}

bool fuzz::hasHugeTensor(ModuleOp module) {
  WalkResult result = module->walk([](Operation *op) {
    auto huge = [](Type type) {
      auto gm = gmShape(type);
      if (!gm)
        return false;
      int64_t elements = 1;
      for (int64_t dim : gm->first)
        if (!ShapedType::isDynamic(dim) &&
            (__builtin_mul_overflow(elements, std::max<int64_t>(dim, 1),
                                    &elements) ||
             elements > (int64_t(1) << 24)))
          return true;
      return false;
    };
    return llvm::any_of(op->getResultTypes(), huge) ||
                   llvm::any_of(op->getOperandTypes(), huge)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}
