//===- VerifyEachFuzzer.cpp - `tilekit compile --verify-each` -------------===//
//
// A verified kernel (PTO or AscendC) that runs on random inputs (as
// fuzz-run binds them, at most 4096 elements per tensor) reading no
// undefined data is compiled for C220 or C310, with or without L0 lowering
// (the input's last byte chooses), and run after every pass as
// `compile --verify-each` runs it.
// A pass may refuse the kernel; a pass after which an output bit changes,
// undefined data reaches an output, or the kernel races or deadlocks is a
// finding, reported with the IR before and after it.

#include "FuzzInputs.h"
#include "KernelFuzzer.h"

#include "tilekit/Driver/CompilePipeline.h"
#include "tilekit/Driver/VerifyEach.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace tilekit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  uint8_t choice = data[size - 1];
  OwningOpRef<ModuleOp> module = fuzz::parseKernel(data, size - 1);
  if (!module || fuzz::hasHugeTensor(*module))
    return 0;
  FunctionOpInterface entry = fuzz::pickEntry(*module);
  if (!entry)
    return 0;
  // As `tilekit compile --entry` does: the entry and what it reaches (a
  // group's member picked as the entry compiles alone, not merged away).
  driver::keepReachable(*module, entry);
  int64_t dynamicSize = 1 + data[0] % 64;
  std::optional<SmallVector<interp::RuntimeValue>> args =
      fuzz::bindArguments(entry, dynamicSize, /*maxElements=*/4096);
  if (!args)
    return 0;
  pto::BufferCapacities capacities;
  if (driver::holdsPTO(*module) &&
      failed(driver::checkWorkItemsFit(*module, capacities)))
    return 0;
  // The kernel gets a small budget; the runs after the passes a large one
  // (synchronization and L0 lowering add ops), and no clock: a pass that
  // makes it endless is a hang libFuzzer reports.
  driver::RunLimits limits;
  limits.maxSteps = 20000;
  limits.timeout = std::chrono::milliseconds(1000);
  std::string entryName = entry.getName().str();
  driver::RunResult reference =
      driver::runReference(*module, entryName, *args, /*blocks=*/1, limits);
  limits.maxSteps = 50 * limits.maxSteps;
  limits.timeout = {};
  // A kernel that reads undefined data has no one right answer: what the
  // zeros in its undefined places give is not what it must compute.
  if (!reference.error.empty() || reference.readsUndefined)
    return 0;
  PassManager pm(&fuzz::getContext(), ModuleOp::getOperationName());
  driver::buildCompilePipeline(
      pm, *module, choice & 1 ? ascendc::Arch::C310 : ascendc::Arch::C220,
      /*lowerToL0=*/choice & 2, /*stopAfter=*/"", capacities);
  std::vector<std::string> names;
  for (unsigned i = 0; i < args->size(); ++i)
    names.push_back("arg" + std::to_string(i));
  auto instrumentation = std::make_unique<driver::VerifyEach>(
      entryName, *args, std::move(names), std::move(reference), /*blocks=*/1,
      limits);
  driver::VerifyEach *check = instrumentation.get();
  pm.addInstrumentation(std::move(instrumentation));
  if (failed(pm.run(*module)) || !check->divergent)
    return 0;
  llvm::errs() << "verify-each: " << *check->divergent
               << " broke the kernel: " << check->report << "\n// before:\n"
               << check->before << "\n// after:\n"
               << check->after;
  abort();
}
