//===- CoreGroups.cpp - Cube and vector groups of a function --------------===//

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#include "mlir/IR/Builders.h"

#include <array>

using namespace mlir;

namespace tilekit::ascendc {

Operation *getCoreGroup(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<IfAicOp, IfAivOp>(parent))
      return parent;
  return nullptr;
}

bool isCubeKernel(Operation *func) {
  WalkResult found = func->walk([](Operation *op) {
    std::optional<Pipe> pipe = getOpPipe(op);
    if (pipe && (*pipe == Pipe::M || *pipe == Pipe::MTE1 || *pipe == Pipe::FIX))
      return WalkResult::interrupt();
    for (Value operand : op->getOperands())
      if (std::optional<Position> position = getPosition(operand);
          position && getBuffer(*position) != Buffer::UB)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

std::optional<int64_t> getTensorLane(Value tensor) {
  Operation *def = tensor.getDefiningOp();
  if (!def || !isa<LocalTensorType>(tensor.getType()))
    return std::nullopt;
  if (auto lane =
          def->getAttrOfType<IntegerAttr>(AscendCDialect::kLaneAttrName))
    return lane.getInt();
  return std::nullopt;
}

unsigned getTensorOwner(Value tensor) {
  std::optional<Position> position = getPosition(tensor);
  std::optional<int64_t> lane = getTensorLane(tensor);
  return position && getBuffer(*position) == Buffer::UB && lane
             ? static_cast<unsigned>(*lane)
             : 0u;
}

bool lanesHaveOwnSubBlocks(Operation *func) {
  bool laned = false, cubeWritesUb = false, cube = false, vector = false;
  func->walk([&](Operation *op) {
    cube |= isa<IfAicOp>(op);
    vector |= isa<IfAivOp>(op);
    for (Value result : op->getResults())
      laned |= getTensorLane(result) == 1;
    // The C310 mailbox: the cube fills a UB tensor.
    Operation *group = getCoreGroup(op);
    if (group && isCubeGroup(group))
      for (Value operand : op->getOperands())
        if (std::optional<Position> position = getPosition(operand))
          cubeWritesUb |= getBuffer(*position) == Buffer::UB;
  });
  // Only a mixed kernel launches with two vector cores per cube.
  return laned && !cubeWritesUb && cube && vector;
}

KernelCores getKernelCores(Operation *func) {
  // A launch kernel runs on the cores of the kernels it calls.
  std::optional<KernelCores> called;
  func->walk([&](func::CallOp call) {
    if (Operation *callee =
            SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr()))
      called = getKernelCores(callee);
    return called ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (called)
    return *called;
  bool cube = false, vector = false, lanes = false;
  func->walk([&](Operation *op) {
    cube |= isa<IfAicOp>(op);
    vector |= isa<IfAivOp>(op);
    lanes |= isa<IfSubBlockOp>(op);
  });
  if (cube && vector)
    return lanes ? KernelCores::MixedOneToTwo : KernelCores::Mixed;
  return isCubeKernel(func) ? KernelCores::Cube : KernelCores::Vector;
}

void createGroup(OpBuilder &builder, Location loc, bool cube,
                 llvm::function_ref<void(OpBuilder &)> fill) {
  Operation *group = cube ? IfAicOp::create(builder, loc).getOperation()
                          : IfAivOp::create(builder, loc).getOperation();
  Block *body = new Block();
  group->getRegion(0).push_back(body);
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  fill(inner);
  YieldOp::create(inner, loc);
}

std::optional<std::pair<int64_t, int64_t>>
findFreeFlags(ArrayRef<Operation *> kernels) {
  std::array<bool, machine::kCrossCoreFlags> used{};
  for (Operation *kernel : kernels)
    kernel->walk([&](Operation *op) {
      if (auto set = dyn_cast<CrossCoreSetFlagOp>(op))
        used[set.getFlag() % machine::kCrossCoreFlags] = true;
      if (auto wait = dyn_cast<CrossCoreWaitFlagOp>(op))
        used[wait.getFlag() % machine::kCrossCoreFlags] = true;
    });
  SmallVector<int64_t, 2> free;
  for (int64_t id = machine::kCrossCoreFlags - 1; id >= 0 && free.size() < 2;
       --id)
    if (!used[id])
      free.push_back(id);
  if (free.size() < 2)
    return std::nullopt;
  return std::make_pair(free[0], free[1]);
}

} // namespace tilekit::ascendc
