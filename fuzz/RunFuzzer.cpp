//===- RunFuzzer.cpp - `tilekit run` on small generated inputs ------------===//
//
// A verified kernel's entry (chosen as `tilekit run` chooses it, else the
// first function with a body) runs on random tensors of its argument
// shapes (dynamic dimensions get a size taken from the input) and small
// scalars, with a step budget and short timeouts so that endless kernels
// end as errors. Runtime errors are expected; crashes are findings.
//
// Differential: when the kernel ran reading no undefined data, it runs
// again after memory planning (pto-plan-memory, tiles sharing storage);
// both runs must give the same bits, or planning changed what it computes.

#include "FuzzInputs.h"
#include "KernelFuzzer.h"

#include "tilekit/Dialect/PTO/Transforms/MemoryPlan.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Interp/TensorIO.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

/// What a run leaves: its results and its tensor arguments, as .npy bytes.
static std::optional<std::vector<NpyArray>>
runOnce(ModuleOp module, StringRef entryName, int64_t dynamicSize,
        UndefinedData undefined, unsigned blocks) {
  auto entry = dyn_cast_or_null<FunctionOpInterface>(
      SymbolTable::lookupSymbolIn(module, entryName));
  if (!entry)
    return std::nullopt;
  std::optional<SmallVector<RuntimeValue>> args =
      tilekit::fuzz::bindArguments(entry, dynamicSize);
  if (!args)
    return std::nullopt;
  InterpreterOptions options;
  options.undefined = undefined;
  options.maxSteps = 20000;
  options.timeout = std::chrono::milliseconds(2000);
  options.popTimeout = std::chrono::milliseconds(200);
  options.groupTimeout = std::chrono::milliseconds(2000);
  Interpreter interpreter(module, std::move(options));
  FailureOr<SmallVector<RuntimeValue>> results =
      interpreter.launch(entry, *args, blocks);
  if (failed(results))
    return std::nullopt;
  std::vector<NpyArray> left;
  for (ArrayRef<RuntimeValue> values :
       {ArrayRef<RuntimeValue>(*args), ArrayRef<RuntimeValue>(*results)})
    for (const RuntimeValue &value : values)
      if (const auto *tensor = std::get_if<TensorValue>(&value))
        left.push_back(npyFromTensor(*tensor));
  return left;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  OwningOpRef<ModuleOp> module = tilekit::fuzz::parseKernel(data, size);
  if (!module || tilekit::fuzz::hasHugeTensor(*module))
    return 0;
  FunctionOpInterface entry = tilekit::fuzz::pickEntry(*module);
  if (!entry)
    return 0;
  std::string entryName = entry.getName().str();
  int64_t dynamicSize = 1 + (size > 0 ? data[0] % 64 : 16);
  unsigned blocks = 1 + size % 2;
  bool check = size % 3 == 0;
  auto before =
      runOnce(*module, entryName, dynamicSize,
              check ? UndefinedData::Check : UndefinedData::Zero, blocks);
  if (!before || !check)
    return 0;

  OwningOpRef<ModuleOp> planned = cast<ModuleOp>((*module)->clone());
  for (auto func : planned->getOps<FunctionOpInterface>()) {
    if (!pto::isPlannable(func))
      continue;
    FailureOr<pto::MemoryPlan> plan =
        pto::computeMemoryPlan(func, pto::BufferCapacities());
    if (failed(plan) || failed(pto::reportOverflow(func, *plan)))
      return 0;
    pto::applyMemoryPlan(func, *plan);
  }
  if (failed(verify(*planned))) {
    llvm::errs() << "memory planning produced invalid IR:\n" << *planned;
    abort();
  }
  auto after =
      runOnce(*planned, entryName, dynamicSize, UndefinedData::Check, blocks);
  if (!after)
    return 0; // e.g. the copies planning added ran past the step budget
  for (auto [a, b] : llvm::zip_equal(*before, *after))
    if (a.descr != b.descr || a.shape != b.shape || a.data != b.data) {
      llvm::errs() << "memory planning changed what the kernel computes:\n"
                   << *planned;
      abort();
    }
  return 0;
}
