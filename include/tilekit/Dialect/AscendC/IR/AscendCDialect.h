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
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilekit/Machine/ApiScratch.h"
#include "tilekit/Machine/Machine.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h.inc"

#include "tilekit/Dialect/AscendC/IR/AscendCEnums.h.inc"
#include "tilekit/Dialect/AscendC/IR/AsctileDialect.h.inc"

#include "tilekit/Dialect/AscendC/IR/AscendCInterfaces.h.inc"
#include "tilekit/Interfaces/PipeOpInterface.h"

#define GET_TYPEDEF_CLASSES
#include "tilekit/Dialect/AscendC/IR/AscendCTypes.h.inc"

#define GET_OP_CLASSES
#include "tilekit/Dialect/AscendC/IR/AscendCOps.h.inc"

namespace tilekit::ascendc {

/// The hardware buffers local tensors live in (the machine description's).
using machine::Buffer;

/// The buffer a position belongs to (Machine.def, TILEKIT_POSITION).
Buffer getBuffer(Position position);

/// The name of a buffer as Ascend C reports and attributes spell it ("L1",
/// "UB", "BT" for the bias table, ...).
std::string getBufferName(Buffer buffer);

/// What a tensor value names: the local allocation through reinterpret
/// casts, or the root GM tensor through subindexing (a function argument).
mlir::Value getStorage(mlir::Value tensor);

/// The position a local tensor value was created at (its storage's).
/// std::nullopt for block arguments.
std::optional<Position> getPosition(mlir::Value localTensor);

/// The pipe that executes `op` (PipeOpInterface) as the dialect's enum;
/// std::nullopt for ops no pipe executes and for ops of other dialects.
std::optional<Pipe> getOpPipe(mlir::Operation *op);

/// The bytes of one element of `type` (i1 counts as one byte).
int64_t getElementBytes(mlir::Type type);

/// Whether a transfer into GM adds elements of `type` atomically: Ascend C's
/// SetAtomicAdd<T> takes float, half, bfloat16_t, int32_t, int16_t and
/// int8_t (A2/A3 and the 950).
bool takesAtomicAdd(mlir::Type type);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCENDCDIALECT_H
