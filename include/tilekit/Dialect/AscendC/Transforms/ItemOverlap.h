//===- ItemOverlap.h - Consecutive work items of a core, overlapped -*- C++
//-*-===//
//
// ascendc-form-launch's launch kernel runs each core's work items one after
// another. Where the memory plan holds two items at once, consecutive items
// overlap (double buffering across items): item k + 1 issues while item k
// still runs on its pipes, each in its own half of the buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_ITEMOVERLAP_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_ITEMOVERLAP_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace tilekit::ascendc {

/// The plan of a launch kernel's overlapped items.
///
/// Each device function gets a copy (`<name>_pong`) whose local tensors sit
/// above the original's in every buffer, whose GM scratch follows the
/// original's in the item's workspace slice (on C310 its buffer ids follow
/// the original's too); a core's k-th item runs the original when k is
/// even, the copy when odd, so two consecutive items never share a buffer.
///
/// One token per pipe P the items use orders the rest: `set_flag P -> S`
/// of one event at the kernel's entry and after each item, and a
/// `wait_flag P -> S` of it before each of those sets after the first and
/// before the kernel returns. The wait after item k holds the scalar pipe
/// until P has finished item k - 1, so item k + 1 (in item k - 1's
/// buffers) issues only then, while item k may still run: at most two
/// items are in flight. The pipes are in order, so the set after item k
/// fires only when P has finished it; between a set and the wait that
/// takes it no other set of the event is issued (one bit per event).
///
/// A pipe with no event to S (MTE1) is chained through the next one in the
/// data path that has (M): after each item `set_flag MTE1 -> M` and
/// `wait_flag MTE1 -> M`, before M's token, so M's token also says MTE1
/// is done with the item; then `set_flag M -> MTE1` and `wait_flag M ->
/// MTE1`, so that MTE1 sets the event again only after M took it (one bit
/// per event), on events neither half sets there.
///
/// A mixed kernel's cores each hand their own pipes over (in `if_aiv` /
/// `if_aic`), and hand items to each other one item behind: each sets a
/// cross-core flag after every item, on the pipe that ends its data path
/// (MTE3, FIX), and once at the entry, and waits for the other's after
/// every item and once before the return. Flags count, so the wait after
/// item k takes the other core's set of item k - 1: item k + 1, in item
/// k - 1's scratch, writes it only once the other core is done with it.
class ItemOverlap {
public:
  /// The overlap of the items of `callees` (the device functions one
  /// launch kernel calls) within `capacity` of each buffer, with their
  /// copies made in `module`; none, with the reason in `why`, when it does
  /// not apply: GM scratch made inside a loop or branch, a buffer that
  /// does not hold two items, or no event (or, for mixed kernels, no two
  /// cross-core flags) free.
  static std::optional<ItemOverlap>
  plan(mlir::ModuleOp module, llvm::ArrayRef<mlir::func::FuncOp> callees,
       llvm::function_ref<int64_t(Buffer)> capacity, std::string &why);

  /// The tokens' first sets (and a mixed kernel's cores' first flags), at
  /// the launch kernel's entry.
  void atEntry(mlir::OpBuilder &builder, mlir::Location loc) const;
  /// Replaces `call` (a call of a planned callee, made for item number
  /// `item` of a launch of `cores` blocks) by the call of the original or
  /// the copy for the core's item, then the tokens' hand-over.
  void runItem(mlir::func::CallOp call, mlir::Value item,
               mlir::Value cores) const;
  /// The tokens' last waits (and the cores' last flags), before the launch
  /// kernel returns.
  void atExit(mlir::OpBuilder &builder, mlir::Location loc) const;

private:
  void handOver(mlir::OpBuilder &builder, mlir::Location loc, bool wait,
                bool set) const;

  /// A pipe handed over through another's token: on event `there` from
  /// `from` to `via`, and on `back` the other way.
  struct Chain {
    Pipe from, via;
    int64_t there, back;
  };
  /// What one core (the vector core or the cube) hands over after each
  /// item: a token per pipe in `pipes`, and its chains.
  struct Core {
    bool cube = false;
    llvm::SmallVector<Pipe, 4> pipes;
    llvm::SmallVector<Chain, 1> chains;
  };

  /// One core, or both (in their groups) for a mixed kernel.
  llvm::SmallVector<Core, 2> cores;
  /// The token's event.
  int64_t event = 0;
  /// A mixed kernel's cross-core flags between items: the vector core's
  /// `done`, the cube's `next`.
  std::optional<std::pair<int64_t, int64_t>> handshake;
  llvm::DenseMap<mlir::StringAttr, mlir::func::FuncOp> copies;
};

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_ITEMOVERLAP_H
