//===- TensorAccesses.h - What an op reads and writes ------------*- C++
//-*-===//
//
// The storage a tensor operand names and how an op touches it, shared by
// the pass that inserts pipe synchronization and the checker that verifies
// it, so that both agree on what conflicts.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_TENSORACCESSES_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_TENSORACCESSES_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Support/StreamOrder.h"

namespace tilekit::ascendc {

/// The pipes that execute instructions (S .. FIX; `All` names them all in a
/// barrier and is not a pipe of its own), numbered by the Pipe enum.
inline constexpr unsigned kNumPipes = static_cast<unsigned>(Pipe::All);

/// What a tensor names: a planned local tensor's byte range in its buffer,
/// or (a placeholder, a GM tensor) its root value as a whole.
using TensorStorage = StreamStorage;

TensorStorage getTensorStorage(mlir::Value tensor);

/// One tensor operand of an op, and whether the op reads or writes it
/// (from its declared memory effects).
struct TensorAccess {
  mlir::Value tensor;
  bool reads = false, writes = false;
};

/// The tensor operands `op` reads or writes.
llvm::SmallVector<TensorAccess> getTensorAccesses(mlir::Operation *op);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_TENSORACCESSES_H
