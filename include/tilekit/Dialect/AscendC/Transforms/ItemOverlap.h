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
/// above the original's in UB (on C310 its buffer ids follow the
/// original's too); a core's k-th item runs the original when k is even,
/// the copy when odd, so two consecutive items never share a buffer.
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
class ItemOverlap {
public:
  /// The overlap of the items of `callees` (the device functions one
  /// launch kernel calls) within `ubBytes` of UB, with their copies made
  /// in `module`; none, with the reason in `why`, when it does not apply:
  /// a callee that is not vector-only, uses GM scratch of its own, does
  /// not fit twice, or leaves no event free for a token.
  static std::optional<ItemOverlap>
  plan(mlir::ModuleOp module, llvm::ArrayRef<mlir::func::FuncOp> callees,
       int64_t ubBytes, std::string &why);

  /// The tokens' first sets, at the launch kernel's entry.
  void atEntry(mlir::OpBuilder &builder, mlir::Location loc) const;
  /// Replaces `call` (a call of a planned callee, made for item number
  /// `item` of a launch of `cores` blocks) by the call of the original or
  /// the copy for the core's item, then the tokens' hand-over.
  void runItem(mlir::func::CallOp call, mlir::Value item,
               mlir::Value cores) const;
  /// The tokens' last waits, before the launch kernel returns.
  void atExit(mlir::OpBuilder &builder, mlir::Location loc) const;

private:
  void handOver(mlir::OpBuilder &builder, mlir::Location loc, bool wait,
                bool set) const;

  llvm::SmallVector<Pipe, 3> pipes;
  int64_t event = 0;
  llvm::DenseMap<mlir::StringAttr, mlir::func::FuncOp> copies;
};

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_ITEMOVERLAP_H
