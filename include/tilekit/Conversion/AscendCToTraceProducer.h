//===- AscendCToTraceProducer.h - Compiled kernels as trace producers -*- C++
//-*-===//
//
// A compiled AscendC kernel as C++ that writes the trace the executor
// writes for it, without data: its control flow and index arithmetic
// through EmitC, each instruction a call of
// include/tilekit/Trace/AscendCTraceProducer.h. Tensor shapes and scalars
// are parameters, so one build serves every shape.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_CONVERSION_ASCENDCTOTRACEPRODUCER_H
#define TILEKIT_CONVERSION_ASCENDCTOTRACEPRODUCER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilekit {

/// Writes the producer of the host function `entry` (the launches it makes
/// and the kernels they run) to `os`, or reports each op it has no rule
/// for at the op and fails. `source` names the kernel file in the banner.
mlir::LogicalResult translateAscendCToTraceProducer(mlir::ModuleOp module,
                                                    llvm::StringRef entry,
                                                    llvm::StringRef source,
                                                    llvm::raw_ostream &os);

/// Whether the producer traces `op` (a rule takes it, or it is structure
/// the producer lowers itself); the coverage tests ask it of every op.
bool hasAscendCTraceRule(mlir::Operation *op);

} // namespace tilekit

#endif // TILEKIT_CONVERSION_ASCENDCTOTRACEPRODUCER_H
