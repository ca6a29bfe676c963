//===- PTOToTraceProducer.h - PTO kernels as compiled trace producers -*- C++
//-*-===//
//
// A PTO kernel as C++ that emits the trace the executor would emit,
// without tile data: its control flow and index arithmetic through EmitC,
// each traced op a call of include/tilekit/Trace/TraceProducer.h. Tensor
// shapes and scalars are parameters, so one build serves every shape.
// docs/trace-format.md ("Compiled producers") describes the result.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_CONVERSION_PTOTOTRACEPRODUCER_H
#define TILEKIT_CONVERSION_PTOTOTRACEPRODUCER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilekit {

/// Writes the producer of `entry` (and what it calls) to `os`, or reports
/// each op it cannot produce records for (an op without a rule, a value
/// computed from tile data that steers control flow, a cross-core group)
/// at the op and fails. `source` names the kernel file in the banner.
mlir::LogicalResult translatePTOToTraceProducer(mlir::ModuleOp module,
                                                llvm::StringRef entry,
                                                llvm::StringRef source,
                                                llvm::raw_ostream &os);

/// The signatures of the calls a producer makes, as the ABI header of this
/// build declares them (read from it when tilekit was built).
std::string getTraceProducerCallFormats();

/// Whether a rule of the producer takes the PTO op `op` (ops that compute
/// a scalar from tile data are dropped instead, and have none); the
/// coverage tests ask it of every op.
bool hasPTOTraceRule(mlir::Operation *op);

} // namespace tilekit

#endif // TILEKIT_CONVERSION_PTOTOTRACEPRODUCER_H
