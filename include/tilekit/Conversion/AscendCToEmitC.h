//===- AscendCToEmitC.h - AscendC kernels to EmitC and C++ ------*- C++ -*-===//
//
// `convert-ascendc-to-emitc`: a planned, synchronized AscendC module becomes
// EmitC: each kernel an `extern "C" __global__ __aicore__` function over
// `GM_ADDR` arguments, its tensors `AscendC::GlobalTensor` / `LocalTensor`
// objects, its ops calls of the Ascend C API. `scf`, `arith` and `func` go
// through MLIR's own EmitC conversions; MLIR's C++ emitter then prints
// the module (`translateAscendCToCpp`). The table of ops and calls is in
// docs/emit-cpp.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_CONVERSION_ASCENDCTOEMITC_H
#define TILEKIT_CONVERSION_ASCENDCTOEMITC_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class ModuleOp;
class OperationName;
class RewritePatternSet;
class TypeConverter;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilekit {

std::unique_ptr<mlir::Pass> createConvertAscendCToEmitCPass();

/// Whether a pattern of convert-ascendc-to-emitc takes the AscendC op
/// `name` (by name, interface or trait); the coverage tests ask it of every
/// op.
bool hasCppForm(mlir::OperationName name);
void registerConvertAscendCToEmitCPass();

/// Where the emitted C++ finds the kernel's own names for its variables: a
/// NameLoc in a value's location (a tile's, an argument's, a loop
/// counter's), and on an op that defines a named scalar this attribute,
/// which the lowering does not copy to the helper ops it makes with the
/// same location (tilekit compile --emit=cpp sets both).
inline constexpr llvm::StringLiteral kValueNameAttr = "tilekit.value_name";

/// Converts a copy of `module` to EmitC and prints it as C++ to `os`, or
/// fails with an error at the first op that has no C++ form (nothing is
/// printed then). `withOrigins` (the build for the CPU runtime) puts
/// `AscendC::cpu::at("file:line:col");` before each instruction, for its
/// reports, and gives each kernel's symbol a prefix (`#define K
/// tilekit_cpu_K`), so that no kernel name clashes with the C library's.
mlir::LogicalResult translateAscendCToCpp(mlir::ModuleOp module,
                                          llvm::raw_ostream &os,
                                          bool withOrigins = false);

/// The host side of each host function that is one launch: its tiling
/// struct, block count, workspace size and launch function
/// (ACLRT_LAUNCH_KERNEL, or ICPU_RUN_KF under ASCENDC_CPU_DEBUG). An error
/// at a host function that is not one launch. `source` names the kernel
/// for the banner.
mlir::LogicalResult translateHostCode(mlir::ModuleOp module,
                                      llvm::StringRef source,
                                      llvm::raw_ostream &os);

/// For a kernel that a host function launches: that launch's host code
/// (with ASCENDC_CPU_DEBUG) and `tilekit_launch` (CpuEntryABI.h), which runs
/// it from arguments in the kernel ABI; nothing for another kernel.
std::optional<std::string> emitCpuLaunchEntry(mlir::func::FuncOp kernel);

/// A CMake file building `kernelFile` (the --emit=cpp output) with the CANN
/// toolkit's ascendc.cmake.
mlir::LogicalResult translateHostCMake(mlir::ModuleOp module,
                                       llvm::StringRef kernelFile,
                                       llvm::raw_ostream &os);

/// The C++ of `extern "C" int tilekit_entry(void **args, int64_t block,
/// int64_t blocks, char *error, size_t errorSize)`, to append to the
/// emitted kernels: it runs `kernel` as block `block` of `blocks` on the
/// CPU runtime's cores (AscendC::cpu::runBlock: a cube and a vector thread
/// for a mixed kernel) with its arguments in the kernel ABI, `args[i]`
/// pointing at the i-th: each GM argument's bytes, each scalar in its C
/// type, each dynamic extent as a ptrdiff_t, then the workspace. Returns 0,
/// or 1 with the fault in `error`.
std::string emitCpuEntry(mlir::func::FuncOp kernel);

/// The workspace a kernel takes: its own regions of static shape (each
/// rounded up to 32 bytes) first, then those whose extents it learns at run
/// time, then, for a launch kernel whose work items keep scratch, one slice
/// per block.
struct KernelWorkspace {
  int64_t shared = 0, perBlock = 0;
  /// How many regions have a run-time size (their bytes are not in
  /// `shared`: workspaceBytesExpression gives the whole).
  unsigned runtimeRegions = 0;
  int64_t bytes(int64_t blocks) const { return shared + blocks * perBlock; }
  bool empty() const { return !shared && !perBlock && !runtimeRegions; }
};
KernelWorkspace getKernelWorkspace(mlir::func::FuncOp kernel);

/// A C++ expression of the bytes `kernel`'s workspace takes on `blocks`
/// blocks (a C++ expression too), its regions of run-time size computed as
/// the host computes them: the kernel's scalar argument `i` is
/// `scalar(i)`, the extent `d` of its GM argument `i` is `extent(i, d)`.
/// An error at the op a size depends on that has no C++ form here.
mlir::FailureOr<std::string> workspaceBytesExpression(
    mlir::func::FuncOp kernel, llvm::StringRef blocks,
    llvm::function_ref<std::string(unsigned)> scalar,
    llvm::function_ref<std::string(unsigned, unsigned)> extent);
/// The same over the kernel ABI's `void **args` (emitCpuEntry's layout).
mlir::FailureOr<std::string> workspaceBytesInAbi(mlir::func::FuncOp kernel,
                                                 llvm::StringRef blocks);

/// The arith ops MLIR's arith conversion to EmitC leaves (ArithGaps.cpp):
/// integer min and max as a compare and a conditional, unsigned division
/// and remainder over the unsigned type, ceiling and floor divisions
/// through arith's own expansion into those.
void populateArithGapsToEmitCPatterns(mlir::TypeConverter &types,
                                      mlir::RewritePatternSet &patterns);

/// The float ops it leaves (remf, maximumf, minimumf, maxnumf, minnumf) as
/// calls of the executor's rules in tilekit/Interp/MachineArith.h (and
/// std::fmod), for C++ that includes that header: the trace producers.
void populateArithFloatGapsToEmitCPatterns(mlir::TypeConverter &types,
                                           mlir::RewritePatternSet &patterns);

/// `text` as a C++ string literal (quotes, backslashes and newlines
/// escaped).
std::string cppStringLiteral(llvm::StringRef text);

/// Erases the constants and side-effect-free EmitC expressions nothing
/// uses, so that the C++ holds no unused variable (-Wall -Werror).
void removeUnusedEmitCValues(mlir::ModuleOp module);

} // namespace tilekit

#endif // TILEKIT_CONVERSION_ASCENDCTOEMITC_H
