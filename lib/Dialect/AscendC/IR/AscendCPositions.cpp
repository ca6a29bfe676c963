//===- AscendCPositions.cpp - Positions, buffers and element sizes --------===//

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

using namespace mlir;

namespace tilekit::ascendc {

Buffer getBuffer(Position position) {
  switch (position) {
#define TILEKIT_POSITION(POSITION, BUFFER)                                     \
  case Position::POSITION:                                                     \
    return Buffer::BUFFER;
#include "tilekit/Machine/Machine.def"
  }
  llvm_unreachable("every position belongs to a buffer");
}

std::string getBufferName(Buffer buffer) {
  return buffer == Buffer::Bias ? "BT" : machine::getName(buffer).upper();
}

Value getStorage(Value tensor) {
  while (true) {
    if (auto cast = tensor.getDefiningOp<ReinterpretCastOp>())
      tensor = cast.getSource();
    else if (auto sub = tensor.getDefiningOp<GlobalSubIndexOp>())
      tensor = sub.getSource();
    else if (auto reshape = tensor.getDefiningOp<GlobalReshapeOp>())
      tensor = reshape.getSource();
    else
      return tensor;
  }
}

std::optional<Position> getPosition(Value localTensor) {
  Operation *def = getStorage(localTensor).getDefiningOp();
  if (auto placeholder = llvm::dyn_cast_if_present<LocalTensorAutoOp>(def))
    return placeholder.getPosition();
  if (auto addressed = llvm::dyn_cast_if_present<LocalTensorOp>(def))
    return addressed.getPosition();
  if (auto buffered = llvm::dyn_cast_if_present<TBufGetTensorOp>(def))
    return buffered.getPosition();
  return std::nullopt;
}

/// The buffer `tensor` lives in: GM for a global tensor, nullopt for a
/// local tensor whose position is not known (a block argument).
static std::optional<Buffer> getBufferOf(Value tensor) {
  if (!isa<LocalTensorType>(tensor.getType()))
    return Buffer::GM;
  if (std::optional<Position> position = getPosition(tensor))
    return getBuffer(*position);
  return std::nullopt;
}

/// The buffer of a transfer's operand, a local tensor of unknown position
/// (a block argument) taken as `fallback`.
static Buffer bufferOr(Value tensor, Buffer fallback) {
  return getBufferOf(tensor).value_or(fallback);
}

// A local tensor of unknown position is taken as UB: a vector-core copy
// unless it comes from GM or goes there.
std::optional<machine::DataPath> DataCopyOp::getDataPath() {
  return machine::findPath(bufferOr(getSrc(), Buffer::UB),
                           bufferOr(getDst(), Buffer::UB));
}

std::optional<machine::DataPath> LoadDataOp::getDataPath() {
  return machine::findPath(Buffer::L1, bufferOr(getDst(), Buffer::L0A));
}

std::optional<machine::DataPath> FixpipeOp::getDataPath() {
  return machine::findPath(Buffer::L0C, bufferOr(getDst(), Buffer::GM));
}

std::optional<Pipe> getOpPipe(Operation *op) {
  auto pipeOp = dyn_cast<PipeOpInterface>(op);
  if (!pipeOp)
    return std::nullopt;
  std::optional<machine::Pipe> pipe = pipeOp.getExecutionPipe();
  if (!pipe)
    return std::nullopt;
  return static_cast<Pipe>(*pipe); // numbered alike (EnumAgreement.cpp)
}

int64_t getElementBytes(Type type) {
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

bool takesAtomicAdd(Type type) {
  return type.isF32() || type.isF16() || type.isBF16() ||
         type.isSignlessInteger(32) || type.isSignlessInteger(16) ||
         type.isSignlessInteger(8);
}

} // namespace tilekit::ascendc
