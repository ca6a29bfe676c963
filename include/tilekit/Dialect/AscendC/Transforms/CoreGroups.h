//===- CoreGroups.h - Cube and vector groups of a function ------*- C++ -*-===//
//
// Queries the cross-core synchronization passes share: which core group an
// op runs in (what storage a tensor names is getStorage, AscendCDialect.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_COREGROUPS_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_COREGROUPS_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilekit::ascendc {

/// Flag ids wrap at this count; id + kFlagBank names the upper bank.
inline constexpr int64_t kFlagBank = 16;

/// The attribute carrying the next free cross-core flag id on a function.
inline constexpr llvm::StringLiteral kCrossCoreFlagIdAttr =
    AscendCDialect::kCrossCoreFlagIdAttrName;

/// The innermost `if_aic` / `if_aiv` holding `op`, or null.
mlir::Operation *getCoreGroup(mlir::Operation *op);

/// A new core group of the given kind at `builder`'s point, holding the
/// ops `fill` creates.
void createGroup(mlir::OpBuilder &builder, mlir::Location loc, bool cube,
                 llvm::function_ref<void(mlir::OpBuilder &)> fill);

/// The core a kernel without core groups runs on: the cube when any of its
/// ops runs on a cube pipe (MTE1, M, FIX) or touches a cube buffer (L1,
/// L0A, L0B, L0C, the bias table), else the vector core.
bool isCubeKernel(mlir::Operation *func);

/// The cores a kernel runs on: one vector core, one cube, a cube with one
/// vector core (1:1) or with two, whose lanes run on sub-blocks 0 and 1
/// (1:2, ascendc.if_subblock).
enum class KernelCores { Vector, Cube, Mixed, MixedOneToTwo };

/// Whether the kernel has cube and vector parts.
inline bool isMixed(KernelCores cores) {
  return cores == KernelCores::Mixed || cores == KernelCores::MixedOneToTwo;
}

/// Both when the kernel has cube and vector groups (with two vector cores
/// when it runs lanes on sub-blocks), else the one its instructions need
/// (isCubeKernel).
KernelCores getKernelCores(mlir::Operation *func);

/// Two cross-core flag ids that none of `kernels` uses (ids count modulo
/// the machine's 16), for a handshake between their items.
std::optional<std::pair<int64_t, int64_t>>
findFreeFlags(llvm::ArrayRef<mlir::Operation *> kernels);

/// The vector lane (sub-block) whose tile a local tensor value holds: the
/// `ascendc.lane` of the op that made it (the placeholder, its addressed
/// form or a reuse cast); none for a tensor both lanes use.
std::optional<int64_t> getTensorLane(mlir::Value tensor);

/// The vector core (0 or 1) whose UB holds a local tensor: a lane's UB
/// tensor is in its lane's (the storage `owner`), every other tensor 0.
/// With both lanes on one vector core (lanesHaveOwnSubBlocks false) their
/// tensors never share addresses, so telling them apart costs nothing.
unsigned getTensorOwner(mlir::Value tensor);

/// One number for a buffer of one vector core (its owner): how the
/// executor's byte pools and the traces' storage ids tell the two UBs of a
/// 1:2 block apart.
inline unsigned getStoragePool(Buffer buffer, unsigned owner) {
  return static_cast<unsigned>(buffer) | owner << 8;
}

/// Whether a split group's lanes run on vector sub-blocks 0 and 1, each
/// with its own UB (ascendc-guard-lanes guards them): the kernel is mixed
/// (cube and vector groups: a 1:2 launch), has lane-1 tensors, and no cube
/// op fills UB (C310's mailbox keeps both lanes on one vector core). Then
/// the two lanes' UB tensors may take the same addresses.
bool lanesHaveOwnSubBlocks(mlir::Operation *func);

/// Whether `group` runs on the cube core (`if_aic`).
inline bool isCubeGroup(mlir::Operation *group) {
  return mlir::isa<IfAicOp>(group);
}

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_COREGROUPS_H
