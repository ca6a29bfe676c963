//===- VerifyEach.cpp - Run the kernel after every pass -------------------===//

#include "tilekit/Driver/VerifyEach.h"

#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Driver/CompilePipeline.h"
#include "tilekit/Driver/KernelSummary.h"
#include "tilekit/Interp/TensorIO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

#include <cstring>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::driver;
using namespace tilekit::interp;

/// A fresh copy of each argument (kernels write their GM arguments).
static SmallVector<RuntimeValue> copyArguments(ArrayRef<RuntimeValue> values) {
  SmallVector<RuntimeValue> copies;
  for (const RuntimeValue &value : values) {
    if (const auto *tensor = std::get_if<TensorValue>(&value)) {
      TensorValue copy = *tensor;
      copy.storage = std::make_shared<TensorStorage>(*tensor->storage);
      copies.push_back(std::move(copy));
      continue;
    }
    copies.push_back(value);
  }
  return copies;
}

RunResult driver::runKernel(ModuleOp module, StringRef entryName,
                            ArrayRef<RuntimeValue> inputs, bool checkRaces,
                            unsigned blocks, const RunLimits &limits,
                            UndefinedData undefined) {
  RunResult result;
  OwningOpRef<ModuleOp> copy(module.clone());
  auto entry = dyn_cast_or_null<FunctionOpInterface>(
      SymbolTable::lookupSymbolIn(*copy, entryName));
  if (!entry) {
    result.error = "the pipeline removed @" + entryName.str();
    return result;
  }
  // The run's diagnostics are the report, not the compile's errors.
  llvm::raw_string_ostream errors(result.error);
  ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &diag) {
    errors << getLocationText(diag.getLocation())
           << (diag.getSeverity() == DiagnosticSeverity::Error ? ": error: "
                                                               : ": warning: ")
           << diag << "\n";
    for (Diagnostic &note : diag.getNotes())
      errors << getLocationText(note.getLocation()) << ": note: " << note
             << "\n";
    return success();
  });
  InterpreterOptions options;
  options.checkRaces = checkRaces;
  options.undefined = undefined;
  options.maxSteps = limits.maxSteps;
  options.timeout = limits.timeout;
  Interpreter interpreter(*copy, std::move(options));
  result.arguments = copyArguments(inputs);
  if (failed(interpreter.launch(entry, result.arguments, blocks)) &&
      result.error.empty())
    result.error = "the run failed";
  result.stalled = interpreter.hasStalled();
  return result;
}

/// Whether element `i` of `a` and `b` (of one kind and size) has the same
/// bits (NaNs compare by bits too).
static bool sameBits(const ArrayData &a, const ArrayData &b, size_t i) {
  return isFloatKind(a.kind) ? std::memcmp(&a.floats[i], &b.floats[i], 4) == 0
                             : a.ints[i] == b.ints[i];
}

RunResult driver::runReference(ModuleOp module, StringRef entryName,
                               ArrayRef<RuntimeValue> inputs, unsigned blocks,
                               const RunLimits &limits) {
  RunResult reference = runKernel(module, entryName, inputs,
                                  /*checkRaces=*/false, blocks, limits);
  if (!reference.error.empty())
    return reference;
  reference.undefinedError =
      runKernel(module, entryName, inputs, /*checkRaces=*/false, blocks, limits,
                UndefinedData::Check)
          .error;
  reference.readsUndefined = !reference.undefinedError.empty();
  if (!reference.readsUndefined)
    return reference;
  RunResult filled = runKernel(module, entryName, inputs, /*checkRaces=*/false,
                               blocks, limits, UndefinedData::NaN);
  for (auto [zeros, other] : llvm::zip(reference.arguments, filled.arguments)) {
    std::vector<bool> &mask = reference.undefinedOutputs.emplace_back();
    const auto *a = std::get_if<TensorValue>(&zeros);
    const auto *b = std::get_if<TensorValue>(&other);
    if (!a || !b || !filled.error.empty())
      continue;
    for (size_t i = 0; i < a->storage->data.size(); ++i)
      mask.push_back(!sameBits(a->storage->data, b->storage->data, i));
  }
  return reference;
}

/// The first element of two GM arguments that differs in its bits, outside
/// the elements `skip` flags, as a message; empty when they agree.
static std::string firstDifference(const TensorValue &before,
                                   const TensorValue &after,
                                   const std::vector<bool> &skip) {
  const ArrayData &a = before.storage->data, &b = after.storage->data;
  if (a.size() != b.size() || a.kind != b.kind)
    return "its shape or element type changed";
  for (size_t i = 0; i < a.size(); ++i) {
    if (sameBits(a, b, i) || (i < skip.size() && skip[i]))
      continue;
    SmallVector<int64_t, 4> index(before.shape.size());
    size_t rest = i;
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      index[d] = static_cast<int64_t>(rest) % before.shape[d];
      rest /= before.shape[d];
    }
    return "differs first at " + formatShape(index) + ": " +
           std::to_string(b.get(i)) +
           " where the kernel before the pipeline "
           "computes " +
           std::to_string(a.get(i));
  }
  return "";
}

static ModuleOp moduleOf(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

VerifyEach::VerifyEach(std::string entry, SmallVector<RuntimeValue> inputs,
                       std::vector<std::string> names, RunResult reference,
                       unsigned blocks, RunLimits limits)
    : entry(std::move(entry)), inputs(std::move(inputs)),
      names(std::move(names)), reference(std::move(reference)), blocks(blocks),
      limits(limits) {}

void VerifyEach::runBeforePass(Pass *pass, Operation *op) {
  if (divergent || pass->getArgument().empty())
    return;
  before.clear();
  llvm::raw_string_ostream os(before);
  moduleOf(op)->print(os);
}

void VerifyEach::runAfterPass(Pass *pass, Operation *op) {
  StringRef name = pass->getArgument();
  if (divergent || name.empty())
    return;
  ModuleOp module = moduleOf(op);
  // A merged group holds both cores' ops and transfers in one function:
  // it runs once lowered, and the lowering's run checks the merge with it.
  if (holdsMergedGroups(module))
    return;
  ++passesChecked;
  // Until the pipeline has synchronized the kernel, its pipes are not
  // ordered yet: races count once the last sync pass has run on every
  // function (the pipeline runs its function passes one function at a
  // time, so a later function's first passes follow an earlier one's
  // last).
  if (name == "ascendc-insert-cross-core-sync-gm")
    synchronizedOps.insert(op);
  bool synchronized =
      synchronizedOps.contains(module.getOperation()) ||
      llvm::all_of(module.getOps<func::FuncOp>(), [&](func::FuncOp func) {
        return func.isExternal() ||
               synchronizedOps.contains(func.getOperation());
      });
  // An AscendC kernel that writes bytes no op wrote to an output is broken,
  // though zeros there could match until a later pass moves the bytes. (A
  // PTO kernel's check is stricter: it refuses computing on a tile's
  // undefined rows that no store writes out.)
  UndefinedData undefined = reference.readsUndefined || holdsPTO(module)
                                ? UndefinedData::Zero
                                : UndefinedData::Check;
  RunResult now =
      runKernel(module, entry, inputs, synchronized, blocks, limits, undefined);
  std::string problem = now.error;
  for (size_t i = 0; problem.empty() && i < now.arguments.size(); ++i) {
    const auto *was = std::get_if<TensorValue>(&reference.arguments[i]);
    const auto *is = std::get_if<TensorValue>(&now.arguments[i]);
    if (!was || !is)
      continue;
    std::string difference = firstDifference(
        *was, *is,
        i < reference.undefinedOutputs.size() ? reference.undefinedOutputs[i]
                                              : std::vector<bool>());
    if (!difference.empty())
      problem = "output %" + names[i] + " " + difference + "\n";
  }
  if (problem.empty())
    return;
  if (reference.readsUndefined)
    problem += "(the kernel reads undefined data before the pipeline, which "
               "the machine may fill with anything: see tilekit run "
               "--undefined=check; the outputs are compared where they do "
               "not depend on it)\n";
  divergent = name.str();
  report = std::move(problem);
  after.clear();
  llvm::raw_string_ostream os(after);
  moduleOf(op)->print(os);
}
