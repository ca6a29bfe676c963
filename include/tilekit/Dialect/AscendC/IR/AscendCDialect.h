//===- AscendCDialect.h - The AscendC dialect -------------------*- C++ -*-===//
//
// Include this header to use the AscendC dialect: its enums, types and ops,
// and the queries passes share about positions and buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_IR_ASCENDCDIALECT_H
#define TILEKIT_DIALECT_ASCENDC_IR_ASCENDCDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h.inc"
#include "tilekit/Dialect/AscendC/IR/AscendCEnums.h.inc"

#include "tilekit/Dialect/AscendC/IR/AscendCInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilekit/Dialect/AscendC/IR/AscendCTypes.h.inc"

#define GET_OP_CLASSES
#include "tilekit/Dialect/AscendC/IR/AscendCOps.h.inc"

namespace tilekit::ascendc {

/// The hardware buffers local tensors live in.
enum class Buffer { L1, L0A, L0B, L0C, UB, BT };

/// The buffer a position belongs to.
Buffer getBuffer(Position position);

/// The name of a buffer as reports and attributes spell it ("L1", "UB", ...).
llvm::StringRef getBufferName(Buffer buffer);

/// The position a local tensor value was created at: through reinterpret
/// casts to its allocation. std::nullopt for block arguments.
std::optional<Position> getPosition(mlir::Value localTensor);

/// The pipe that executes `op` on the machine: MTE2 for loads from GM, MTE3
/// for stores and UB->L1 copies, MTE1 for L1->L0/bias, M for mmad, FIX for
/// fixpipe, V for vector instructions, S for scalar debug output.
/// std::nullopt for ops that are not instructions (allocations, casts, sync).
std::optional<Pipe> getOpPipe(mlir::Operation *op);

/// The bytes of one element of `type` (i1 counts as one byte).
int64_t getElementBytes(mlir::Type type);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCENDCDIALECT_H
