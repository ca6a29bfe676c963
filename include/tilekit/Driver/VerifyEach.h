//===- VerifyEach.h - Run the kernel after every pass -----------*- C++ -*-===//
//
// `tilekit compile --verify-each` and `tilekit.compile(verify_each=...)`:
// the kernel runs on given inputs before the pipeline and after every pass;
// the first pass that changes an output bit, or after which the kernel
// races or deadlocks, is named with the output, the first differing element
// and the IR before and after it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_VERIFYEACH_H
#define TILEKIT_DRIVER_VERIFYEACH_H

#include "tilekit/Driver/Durations.h"
#include "tilekit/Interp/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace tilekit::driver {

/// The outcome of one run: the GM arguments after it, or why it failed.
struct RunResult {
  llvm::SmallVector<interp::RuntimeValue> arguments;
  std::string error;    // the diagnostics, when the run failed
  bool stalled = false; // a deadlock, the timeout or the step limit
  /// Of the run before the pipeline: the kernel reads undefined data
  /// (`tilekit run --undefined=check` fails), so the runs after the passes
  /// cannot tell a pass that lets undefined data out from the kernel's own.
  bool readsUndefined = false;
  /// Then: where, as `tilekit run --undefined=check` reports it.
  std::string undefinedError;
  /// Then: per argument, per element, whether it depends on undefined data
  /// (it differs between a run that reads undefined data as zeros and one
  /// that reads it as NaN or 0x5A5A...); the runs after the passes are not
  /// compared there, as the machine may hold anything in those bytes.
  std::vector<std::vector<bool>> undefinedOutputs;
};

/// Runs `entryName` of a copy of `module` as `blocks` blocks on copies of
/// `inputs` within `limits`; with `checkRaces`, unordered pipe accesses are
/// errors.
RunResult
runKernel(mlir::ModuleOp module, llvm::StringRef entryName,
          llvm::ArrayRef<interp::RuntimeValue> inputs, bool checkRaces,
          unsigned blocks, const RunLimits &limits = {},
          interp::UndefinedData undefined = interp::UndefinedData::Zero);

/// The run before the pipeline that VerifyEach compares with: runKernel,
/// then once more under --undefined=check to learn readsUndefined.
RunResult runReference(mlir::ModuleOp module, llvm::StringRef entryName,
                       llvm::ArrayRef<interp::RuntimeValue> inputs,
                       unsigned blocks, const RunLimits &limits = {});

/// Runs the kernel after every pass and records the first one that
/// changes an output or leaves a race or a deadlock. Unless the kernel
/// reads undefined data before the pipeline, AscendC kernels run under
/// --undefined=check: a pass after which undefined data reaches an output
/// breaks the kernel, though zeros in its place would match.
class VerifyEach : public mlir::PassInstrumentation {
public:
  /// `reference` is runReference's; `names` the arguments'.
  VerifyEach(std::string entry, llvm::SmallVector<interp::RuntimeValue> inputs,
             std::vector<std::string> names, RunResult reference,
             unsigned blocks, RunLimits limits = {});

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;

  /// The first pass that broke the kernel, what it broke, and the IR
  /// before and after it.
  std::optional<std::string> divergent;
  std::string report, before, after;
  /// Whether the kernel reads undefined data before the pipeline (then the
  /// runs do not track it).
  bool readsUndefined() const { return reference.readsUndefined; }
  /// Counted as the pipeline runs (a progress line reads it).
  std::atomic<uint64_t> passesChecked{0};

private:
  std::string entry;
  llvm::SmallVector<interp::RuntimeValue> inputs;
  std::vector<std::string> names;
  RunResult reference;
  unsigned blocks;
  RunLimits limits;
  /// The ops (functions, or the module) the last sync pass has run on.
  llvm::SmallPtrSet<mlir::Operation *, 8> synchronizedOps;
};

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_VERIFYEACH_H
