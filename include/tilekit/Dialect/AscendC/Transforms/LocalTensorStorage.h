//===- LocalTensorStorage.h - Storage and lifetimes of local tensors -*- C++
//-*-===//
//
// The one analysis of local-tensor storage the reuse, sync and position
// passes share: what storage a tensor value names (through reinterpret
// casts; getStorage in AscendCDialect.h), every use of a storage, when in
// its block a placeholder is in use, and folding one placeholder into
// another's storage.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_LOCALTENSORSTORAGE_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_LOCALTENSORSTORAGE_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "llvm/ADT/DenseMap.h"

namespace tilekit::ascendc {

/// Visits every op that uses `tensor`, following reinterpret casts (the
/// casts themselves are visited too).
void forEachUse(mlir::Value tensor,
                llvm::function_ref<void(mlir::Operation *)> visit);

/// When, in the order of the block that defines it, a placeholder is in
/// use: from its first to its last use (ops nested in the block count as
/// the op of the block that holds them, but those of a core group count on
/// their own; casts do not count). A placeholder without uses lives at its
/// own position.
struct BlockLifetime {
  mlir::Block *block = nullptr;
  unsigned first = 0, last = 0;

  /// Whether this lifetime ends before `next` begins in the same block.
  bool endsBefore(const BlockLifetime &next) const {
    return block == next.block && last < next.first;
  }
};

/// Positions of ops in their blocks, numbered once per block (so that
/// measuring many tensors stays linear). The ops of an if_aic / if_aiv
/// group count in line, after the group op: its body runs once, in order,
/// on one core.
class BlockOrder {
public:
  unsigned indexOf(mlir::Operation *op);

private:
  llvm::DenseMap<mlir::Operation *, unsigned> index;
  llvm::DenseSet<mlir::Block *> numbered;
};

BlockLifetime getBlockLifetime(LocalTensorAutoOp tensor, BlockOrder &order);

/// Whether `a` and `b` may share storage: the same core uses both (the
/// cube and the vector core run at once, so tensors of different cores, or
/// one used by both, never share), and one can hold the other: at least as
/// many bytes both as its type holds (a cast may not view more than its
/// source) and as allocate-tensor gives it (padding and whole repeats
/// included).
bool canShareStorage(LocalTensorAutoOp a, LocalTensorAutoOp b);

/// Makes `tensor` live in `owner`'s storage and returns the placeholder that
/// owns the storage afterwards: the one that holds the other
/// (canShareStorage must hold) stays, the other becomes its reinterpret
/// cast; when `tensor` holds `owner` it first moves to just before `owner`.
LocalTensorAutoOp shareStorage(LocalTensorAutoOp owner,
                               LocalTensorAutoOp tensor);

/// Sharing inside each block cannot see tensors of different blocks: each
/// placeholder `considered` takes the storage of one of an enclosing block
/// (or of the block a core group it is in counts in) of its pool that is
/// not in use while it is: last used before or first used after it, or
/// before or after the op (a loop, a branch) holding it. So a tile that
/// lives only before a loop (a loop-carried value's initial tile, the
/// first block of a look-ahead) or only after it (the epilogue's) needs
/// no storage of its own. canShareStorage must hold.
void shareAcrossBlocks(mlir::Operation *func,
                       llvm::function_ref<bool(LocalTensorAutoOp)> considered);

/// Sharing by lifetime across the function, for what the steps above
/// leave apart, in two steps. recordLifetimes, before any sharing moves a
/// placeholder, gives each one `recorded` (that has none yet) the span of
/// the function's op order in which it is in use: from the first to the
/// last use of it or of a cast of it, a use inside a loop that does not
/// hold the placeholder spanning the whole loop (a placeholder inside a
/// loop is a new tensor on each trip). The casts that replace a placeholder
/// when it shares carry its span on, and the order does not count
/// placeholders and casts, so spans recorded by an earlier pass still
/// hold. shareByLifetimes, after the other steps, folds storages whose
/// placeholder is `considered`: the largest first, each into the smallest
/// other one of its pool that already holds it and whose tensors are never
/// in use while its own are (so no storage grows and the pool's total only
/// shrinks; reuse groups stay apart; a storage holding a tensor without a
/// span stays as it is); the owner moves to the front of the innermost
/// block holding both. So a look-ahead's tile before a loop, the next
/// block's in a branch of the loop and the loop body's own take one
/// storage, which a greedy choice of enclosing block misses.
/// canShareStorage must hold. forgetLifetimes removes the spans.
void recordLifetimes(mlir::Operation *func,
                     llvm::function_ref<bool(LocalTensorAutoOp)> recorded);
void shareByLifetimes(mlir::Operation *func,
                      llvm::function_ref<bool(LocalTensorAutoOp)> considered);
void forgetLifetimes(mlir::Operation *func);

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_LOCALTENSORSTORAGE_H
