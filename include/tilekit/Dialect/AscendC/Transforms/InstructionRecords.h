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
/// `add_l2` and `add_l0` are both `add`; the advanced API's reductions and
/// broadcasts along an axis are the PTO tile ops they implement
/// (`reduce_sum` axis 1 is `row_sum`, `broadcast` axis 0 `col_expand`), so
/// that a kernel and its compiled form take one cost for one operation.
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

/// The row length a vector record's shape gives (its shape is the
/// elements as rows of it, as a PTO tile op's record gives the tile's):
/// the last extent of the operand with the most elements (as
/// getLargestOperandElements counts them), so that a row fit in the config
/// sees the rows of a compiled row reduction or broadcast as of its tile op.
int64_t getRecordColumns(mlir::Operation *op);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_INSTRUCTIONRECORDS_H
