//===- Footprint.h - The GM a call will touch, before it runs ----*- C++
//-*-===//
//
// Internal to the executor. Running independent in-core calls at once needs
// their GM accesses ahead of time. A footprint is found by evaluating only
// the callee's control flow and index arithmetic (the ops that compute
// scalars from scalars), recording the box of every tile.load and
// tile.store; tile data is never touched. Each box is a superset of what
// the op will access (the whole tile where its valid shape is data).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_FOOTPRINT_H
#define TILEKIT_LIB_INTERP_FOOTPRINT_H

#include "tilekit/Interp/Interpreter.h"

#include <optional>

namespace tilekit::interp {

/// A box of a GM buffer seen through a tensor of `shape`: [lower, upper)
/// per dimension.
struct GMAccess {
  const TensorStorage *storage;
  llvm::SmallVector<int64_t, 4> shape, lower, upper;
  bool writes;
};

/// Whether two accesses may touch one element with at least one of them
/// writing. Boxes of one tensor shape are compared exactly; through views
/// of different shapes, by the hull of their row-major positions.
bool conflict(const GMAccess &a, const GMAccess &b);

/// Adds `access` to `boxes`, growing a recent box of the same kind instead
/// where the two together are exactly a box (row tiles one after another
/// become one band), so that a batch of calls keeps few boxes.
void addAccess(llvm::SmallVectorImpl<GMAccess> &boxes, GMAccess access);

/// What a call will touch and what it will return.
struct CallFootprint {
  llvm::SmallVector<GMAccess> accesses;
  llvm::SmallVector<RuntimeValue> results;
};

/// The footprint of calling `callee` on `args` in `state`, or nothing when
/// it cannot be known without the data: an access whose position or a
/// branch or trip count depends on tile data, a result computed from tile
/// data, an op other than tile.load/tile.store that reads or writes a GM
/// tensor, a call, a while loop, or more than a bounded number of index
/// ops. Emits no diagnostics (an error found here is the run's to report).
std::optional<CallFootprint>
evaluateFootprint(Interpreter &interpreter, mlir::FunctionOpInterface callee,
                  llvm::ArrayRef<RuntimeValue> args, const CoreState &state);

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_FOOTPRINT_H
