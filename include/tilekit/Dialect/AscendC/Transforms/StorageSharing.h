//===- StorageSharing.h - Local tensors sharing storage ---------*- C++ -*-===//
//
// What the lifetime-based reuse passes share: following a tensor's uses
// through casts, and folding one placeholder into another's storage.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_STORAGESHARING_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_STORAGESHARING_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

namespace tilekit::ascendc {

/// Visits every op that uses `tensor`, following reinterpret casts (the
/// casts themselves are visited too).
void forEachUse(mlir::Value tensor,
                llvm::function_ref<void(mlir::Operation *)> visit);

/// Makes `tensor` live in `owner`'s storage and returns the placeholder that
/// owns the storage afterwards. The smaller of the two becomes a
/// reinterpret cast of the larger (sized as allocate-tensor sizes them);
/// when `tensor` is larger it first moves to just before `owner`.
LocalTensorAutoOp shareStorage(LocalTensorAutoOp owner,
                               LocalTensorAutoOp tensor);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_STORAGESHARING_H
