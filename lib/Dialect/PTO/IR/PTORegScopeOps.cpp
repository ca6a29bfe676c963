//===- PTORegScopeOps.cpp - Register scopes and vector-register ops -------===//
//
// The rules every register scope obeys, wherever it goes next (executor,
// outlined helper): straight-line vector-register ops over f32 UB tiles at
// static, 32-byte aligned offsets, and every stored tile yielded.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;

static bool isLaneVector(Type type, bool (*element)(Type)) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getRank() == 1 &&
         vector.getDimSize(0) == kVectorLanes && !vector.isScalable() &&
         element(vector.getElementType());
}

bool pto::isVectorRegister(Type type) {
  return isLaneVector(type, [](Type t) { return t.isF32(); });
}

bool pto::isLaneMask(Type type) {
  return isLaneVector(type, [](Type t) { return t.isInteger(1); });
}

/// A tile a register scope can address: f32 in UB, stored row-major.
static LogicalResult verifyScopeTile(Operation *op, Type type, Twine what) {
  auto tile = dyn_cast<TileType>(type);
  if (!tile)
    return op->emitOpError() << what << " must be a tile, not " << type;
  if (!tile.getElementType().isF32() ||
      tile.getMemorySpace() != MemorySpace::Vec ||
      tile.getBlayout() != BLayout::RowMajor ||
      tile.getSlayout() != SLayout::NoneBox)
    return op->emitOpError()
           << what << " " << type
           << " is not a row-major f32 tile in UB (vec): register scopes "
              "address only those";
  return success();
}

/// Loads and stores: a tile captured by the enclosing scope, 64 elements
/// inside it at a 32-byte aligned offset.
static LogicalResult verifyAccess(Operation *op, Value tile, int64_t offset) {
  auto arg = dyn_cast<BlockArgument>(tile);
  if (!arg || arg.getOwner()->getParentOp() != op->getParentOp())
    return op->emitOpError(
        "addresses a tile that is not a capture of its register scope");
  if (failed(verifyScopeTile(op, tile.getType(), "the tile")))
    return failure();
  int64_t elements = cast<TileType>(tile.getType()).getNumElements();
  // An offset may be any i64: compare without adding to it.
  if (offset < 0 || offset > elements - kVectorLanes)
    return op->emitOpError()
           << "offset " << offset << " puts lanes past the tile's " << elements
           << " elements (64 lanes from the offset)";
  if (offset % 8 != 0)
    return op->emitOpError() << "offset " << offset
                             << " is not a multiple of 8 elements (32 bytes)";
  return success();
}

LogicalResult VRegLoadOp::verify() {
  return verifyAccess(*this, getTile(), getOffset());
}

LogicalResult VRegStoreOp::verify() {
  return verifyAccess(*this, getTile(), getOffset());
}

static LogicalResult verifyLaneCount(Operation *op, int64_t count) {
  if (count < 0 || count > kVectorLanes)
    return op->emitOpError()
           << "count " << count << " is not between 0 and 64 lanes";
  return success();
}

LogicalResult VRegPrefixMaskOp::verify() {
  return verifyLaneCount(*this, getCount());
}

LogicalResult VRegSuffixMaskOp::verify() {
  return verifyLaneCount(*this, getCount());
}

LogicalResult RegScopeOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getCaptures().size())
    return emitOpError() << "has " << getCaptures().size()
                         << " captures but its body takes "
                         << body.getNumArguments() << " arguments";
  for (auto [index, capture, arg] :
       llvm::enumerate(getCaptures(), body.getArguments())) {
    if (capture.getType() != arg.getType())
      return emitOpError() << "capture #" << index << " is "
                           << capture.getType() << " but the body takes "
                           << arg.getType();
    Type type = capture.getType();
    if (isa<TileType>(type)) {
      if (failed(verifyScopeTile(*this, type, "capture #" + Twine(index))))
        return failure();
    } else if (!type.isIntOrIndex() && !type.isF32()) {
      return emitOpError() << "capture #" << index << " is " << type
                           << ": a scope captures tiles and index, integer "
                              "or f32 scalars";
    }
  }
  return success();
}

LogicalResult RegScopeOp::verifyRegions() {
  Block &body = getBody().front();
  for (Operation &op : body) {
    if (isa<RegScopeYieldOp>(op) ||
        op.getName().getStringRef().starts_with("pto.vreg."))
      continue;
    InFlightDiagnostic diag =
        op.emitOpError() << "is not allowed in a register scope: a scope is "
                            "straight-line vector-register code (pto.vreg.* "
                            "ops)";
    if (op.getNumRegions())
      diag << "; unroll static loops before the scope";
    else
      diag << "; compute scalars outside the scope and capture them";
    return diag;
  }
  auto yield = cast<RegScopeYieldOp>(body.getTerminator());
  if (yield.getTiles().size() != getNumResults())
    return emitOpError() << "yields " << yield.getTiles().size()
                         << " tiles but has " << getNumResults() << " results";
  llvm::SmallPtrSet<Value, 4> yielded;
  for (auto [index, value] : llvm::enumerate(yield.getTiles())) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != &body)
      return yield.emitOpError() << "yields #" << index
                                 << ", which is not a tile the scope captures";
    if (!yielded.insert(value).second)
      return yield.emitOpError()
             << "yields capture #" << arg.getArgNumber() << " twice";
    if (value.getType() != getResult(index).getType())
      return emitOpError() << "result #" << index << " is "
                           << getResult(index).getType()
                           << " but the body yields " << value.getType();
  }
  for (BlockArgument arg : body.getArguments())
    if (isStoredInto(arg) && !yielded.contains(arg))
      return emitOpError() << "stores into capture #" << arg.getArgNumber()
                           << " but does not yield it: the stored tile would "
                              "be lost";
  return success();
}

BlockArgument RegScopeOp::getYieldedCapture(unsigned result) {
  auto yield = cast<RegScopeYieldOp>(getBody().front().getTerminator());
  return cast<BlockArgument>(yield.getTiles()[result]);
}

bool RegScopeOp::isStoredInto(BlockArgument capture) {
  return llvm::any_of(capture.getUsers(), [&](Operation *user) {
    auto store = dyn_cast<VRegStoreOp>(user);
    return store && store.getTile() == capture;
  });
}

OpOperand *RegScopeOp::getStorageOperand(OpResult result) {
  return &getCapturesMutable()[getYieldedCapture(result.getResultNumber())
                                   .getArgNumber()];
}
