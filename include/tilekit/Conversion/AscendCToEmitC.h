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

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilekit {

std::unique_ptr<mlir::Pass> createConvertAscendCToEmitCPass();
void registerConvertAscendCToEmitCPass();

/// Converts a copy of `module` to EmitC and prints it as C++ to `os`, or
/// fails with an error at the first op that has no C++ form (nothing is
/// printed then).
mlir::LogicalResult translateAscendCToCpp(mlir::ModuleOp module,
                                          llvm::raw_ostream &os);

} // namespace tilekit

#endif // TILEKIT_CONVERSION_ASCENDCTOEMITC_H
