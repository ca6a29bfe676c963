//===- InstructionRecords.h - What an instruction's trace record fixes -*- C++
//-*-===//
//
// The parts of an AscendC instruction's trace record the IR decides, shared
// by the executor's records (lib/Interp/AscendCTrace.cpp) and the compiled
// trace producer (lib/Conversion/PTOToTraceProducer/
// AscendCToTraceProducer.cpp), so that both write the same record.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_INSTRUCTIONRECORDS_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_INSTRUCTIONRECORDS_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

namespace tilekit::ascendc {

/// The name a vector instruction is costed by in a machine config:
/// `add_l2` and `add_l0` are both `add`.
llvm::StringRef getRecordOpName(mlir::Operation *op);

/// The local tensor whose element type a vector instruction's record
/// carries: the first it only reads (a cast is typed by its source, as a
/// tile op is), else the first it writes; null when it has none.
mlir::Value getRecordTypedTensor(mlir::Operation *op);

/// The elements of a vector instruction the IR fixes: an L2 op without a
/// count or an op of neither level counts its largest local operand (not
/// its scratch); an L0 op's count is its mask times its repeats, and an
/// L2 op's its count operand, which the run gives.
int64_t getLargestOperandElements(mlir::Operation *op);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_INSTRUCTIONRECORDS_H
