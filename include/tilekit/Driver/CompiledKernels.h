//===- CompiledKernels.h - Compiled AscendC kernels as C++ calls -*- C++
//-*-===//
//
// `tilekit run --compiled` and `tilekit.run(compiled=True)`: the executor
// runs host functions, and each call of a compiled AscendC kernel runs as
// its emitted C++ built against runtime/ascendc-cpu.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DRIVER_COMPILEDKERNELS_H
#define TILEKIT_DRIVER_COMPILEDKERNELS_H

#include "tilekit/Driver/CpuEntryABI.h"
#include "tilekit/Interp/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tilekit::driver {

/// The calls `tilekit run --compiled` runs as emitted C++: those of
/// compiled AscendC kernels, each built with clang++-22 into a cached shared
/// object (once per kernel and process) and called on the bytes of its
/// arguments.
class CompiledKernels : public interp::ExternalCalls {
public:
  /// `option` names what asked for compiled calls in messages
  /// ("--compiled", "compiled=True").
  CompiledKernels(mlir::ModuleOp module, llvm::StringRef option);
  bool handles(mlir::FunctionOpInterface callee) override;
  mlir::FailureOr<llvm::SmallVector<interp::RuntimeValue>>
  call(mlir::FunctionOpInterface callee,
       llvm::SmallVectorImpl<interp::RuntimeValue> &args, int64_t block,
       int64_t blocks, interp::Interpreter &caller) override;

  /// A launch of a kernel whose host function has host code: all its
  /// blocks at once, through that code (tilekit_launch), unless
  /// --verify-per-item checks block by block.
  std::optional<mlir::FailureOr<llvm::SmallVector<interp::RuntimeValue>>>
  launchAll(mlir::FunctionOpInterface callee,
            llvm::SmallVectorImpl<interp::RuntimeValue> &args, int64_t blocks,
            interp::Interpreter &caller) override;

  /// --verify-per-item: each call (a work item: a block, or a call of the
  /// orchestration) runs in `reference` too, on copies of its arguments,
  /// and every GM tensor must then agree within the tolerance (exact
  /// unless given: the C++ rounds as the executor does, cube sums included).
  void verifyPerItem(interp::Interpreter &reference, std::optional<double> rtol,
                     std::optional<double> atol);
  /// The work items checked so far.
  unsigned itemsVerified() const { return verified; }

  /// Launches `entry` as `blocks` blocks: a kernel, each block one call of
  /// its C++; a host function, in `interpreter` (whose options name this
  /// as their external calls), its kernel calls as C++.
  mlir::FailureOr<llvm::SmallVector<interp::RuntimeValue>>
  launch(interp::Interpreter &interpreter, mlir::FunctionOpInterface entry,
         llvm::SmallVectorImpl<interp::RuntimeValue> &args, unsigned blocks);

private:
  /// tilekit_entry of CpuEntryABI.h.
  using Entry = int (*)(void **, int64_t, int64_t, tilekit_cpu_limits *, char *,
                        size_t);
  /// tilekit_launch of CpuEntryABI.h.
  using Launch = int (*)(void **, int64_t *, tilekit_cpu_limits *, char *,
                         size_t);
  /// tilekit_workspace_bytes of CpuEntryABI.h.
  using WorkspaceBytes = int64_t (*)(void **, int64_t);
  /// A loaded kernel and the emitted C++ it was built from.
  struct Built {
    Entry entry;
    /// Null unless a host function launches the kernel.
    Launch launch;
    std::string source;
    /// Which arguments the kernel may write (GM tensors only).
    std::vector<bool> writes;
    /// Null unless its workspace has regions of run-time size.
    WorkspaceBytes workspaceBytes = nullptr;
  };

  mlir::FailureOr<Built> entryFor(mlir::func::FuncOp kernel);
  /// Runs `run` on `args` laid out in the kernel ABI (the workspace sized
  /// for `blocks`), reports its fault at the kernel, and takes back what
  /// it wrote.
  using RunInAbi = llvm::function_ref<int(void **, tilekit_cpu_limits *, char *,
                                          size_t, int64_t &)>;
  mlir::LogicalResult
  runInAbi(mlir::func::FuncOp kernel, const Built &built,
           llvm::SmallVectorImpl<interp::RuntimeValue> &args, int64_t blocks,
           interp::Interpreter &caller, RunInAbi run);

  mlir::ModuleOp module;
  std::string option;
  std::string source; // the module's kernels as C++, made once
  /// The machine bytes of a non-f32 GM tensor, kept between calls and
  /// encoded again only when the executor's elements change.
  struct Mirror {
    std::mutex mutex;
    interp::ElementKind kind = interp::ElementKind::F32;
    std::vector<uint8_t> raw; // the executor's elements when encoded
    /// As the machine stores them; calls reading the tensor share it.
    std::shared_ptr<std::vector<uint8_t>> bytes;
  };
  Mirror &mirrorFor(const interp::TensorStorage *storage);
  std::shared_ptr<std::vector<uint8_t>>
  mirrorOf(const interp::TensorValue &tensor);
  /// The elements a call changed (`after` against `before`) go back into
  /// `tensor` and its mirror.
  void takeBack(interp::TensorValue &tensor, llvm::ArrayRef<uint8_t> after,
                llvm::ArrayRef<uint8_t> before);
  std::mutex mirrorsMutex;
  llvm::DenseMap<const interp::TensorStorage *, std::unique_ptr<Mirror>>
      mirrors;
  std::mutex entriesMutex;
  llvm::StringMap<Built> entries;
  /// The workspace the launches of each host share (as the host passes
  /// its one workspace to each on the machine), zeroed when first made.
  std::mutex workspacesMutex;
  llvm::StringMap<std::vector<uint8_t>> hostWorkspaces;
  interp::Interpreter *reference = nullptr;
  std::optional<double> rtol, atol;
  std::atomic<unsigned> verified{0};
};

} // namespace tilekit::driver

#endif // TILEKIT_DRIVER_COMPILEDKERNELS_H
