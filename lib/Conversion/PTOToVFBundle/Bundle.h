//===- Bundle.h - Shared pieces of the vf-bundle conversion -------*- C++
//-*-===//
//
// Internal to lib/Conversion/PTOToVFBundle.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_CONVERSION_PTOTOVFBUNDLE_BUNDLE_H
#define TILEKIT_LIB_CONVERSION_PTOTOVFBUNDLE_BUNDLE_H

#include "tilekit/Conversion/PTOToVFBundle.h"

#include "mlir/IR/Builders.h"

namespace tilekit::pto {
class RegScopeOp;
} // namespace tilekit::pto

namespace tilekit::vf {

/// Marks an emitc.func as a helper (what admission and the pass check).
constexpr llvm::StringLiteral kHelperAttr = "tilekit.vf_helper";

/// The C types of the runtime: a vector register, a lane mask, the UB
/// base, and a scalar capture (f32 stays float, integers are int64_t).
mlir::Type registerType(mlir::MLIRContext *context);
mlir::Type maskType(mlir::MLIRContext *context);
mlir::Type ubPointerType(mlir::MLIRContext *context);
mlir::Type scalarType(mlir::Type type);

/// A call of the runtime (tilekit_vf.h) returning `result` (none when
/// null); `args` places operands (index attributes) and constants.
mlir::Value callRuntime(mlir::OpBuilder &builder, mlir::Location loc,
                        llvm::StringRef callee, mlir::Type result,
                        mlir::ValueRange operands,
                        llvm::ArrayRef<mlir::Attribute> args = {});

/// A half-open range of UB bytes.
struct ByteRange {
  int64_t begin, end;
  bool overlaps(const ByteRange &other) const {
    return begin < other.end && other.begin < end;
  }
};
/// The bytes the 64 lanes of an access at element `offset` of a tile at
/// `displacement` cover.
ByteRange laneRange(int64_t displacement, int64_t offset);

/// Outlines `scope` into the emitc.func `symbol` at the builder's
/// insertion point and fills `helper` (all but its source).
mlir::FailureOr<mlir::emitc::FuncOp>
outlineScope(pto::RegScopeOp scope, mlir::OpBuilder &builder,
             const llvm::Twine &symbol, bool insertBarriers, Helper &helper);

/// Builds `kernel_entry` for `entry` at the builder's insertion point,
/// calling `helpers` (one per scope, in program order) and recording the
/// flags it sets in `bundle`.
mlir::FailureOr<mlir::emitc::FuncOp> buildCaller(mlir::func::FuncOp entry,
                                                 mlir::OpBuilder &builder,
                                                 llvm::ArrayRef<Helper> helpers,
                                                 Bundle &bundle);

} // namespace tilekit::vf

#endif // TILEKIT_LIB_CONVERSION_PTOTOVFBUNDLE_BUNDLE_H
