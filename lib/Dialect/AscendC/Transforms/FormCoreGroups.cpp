//===- FormCoreGroups.cpp - if_aic / if_aiv groups of mixed kernels -------===//
//
// A lowered kernel that uses both cores holds both cores' ops in one body;
// each run of one core's ops becomes a group that only that core runs.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_FORMCOREGROUPS
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit;
using namespace tilekit::ascendc;

namespace {

enum class Core { None, Cube, Vector, Both };

Core join(Core a, Core b) {
  if (a == Core::None || a == b)
    return b;
  return b == Core::None ? a : Core::Both;
}

/// The core an op runs on: the one whose buffers its local tensors are in
/// (GM alone, scalars and placeholders: none).
Core coreOf(Operation *op) {
  if (isa<LocalTensorAutoOp, LocalTensorOp, ReinterpretCastOp>(op))
    return Core::None;
  auto coreOfBuffer = [](Value tensor) {
    std::optional<Position> position = getPosition(tensor);
    if (!position)
      return Core::None;
    return getBuffer(*position) == Buffer::UB ? Core::Vector : Core::Cube;
  };
  // A transfer runs on the core that holds its source (the fixpipe moving
  // L0C into UB is the cube's, a UB to L1 copy the vector core's), or its
  // destination when the source is GM.
  if (isa<FixpipeOp>(op))
    return Core::Cube;
  if (auto copy = dyn_cast<DataCopyOp>(op)) {
    Core from = coreOfBuffer(copy.getSrc());
    return from != Core::None ? from : coreOfBuffer(copy.getDst());
  }
  Core core = Core::None;
  for (Value operand : op->getOperands())
    core = join(core, coreOfBuffer(operand));
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) { core = join(core, coreOf(inner)); });
  return core;
}

/// Puts each run of one core's ops of `block` in a group. Scalar code,
/// placeholders and GM views depend on nothing a group defines (groups
/// have no results): each moves before the first group since the last
/// control-flow op holding both cores' ops (which stays in place, between
/// groups, and is partitioned inside), so the groups stay long.
void partition(Block &block) {
  Operation *end = block.getTerminator();
  Operation *open = nullptr, *first = nullptr;
  Core openCore = Core::None;
  // The ops move to the end as they are placed: walk a snapshot.
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *each : ops) {
    Operation &op = *each;
    Core core = coreOf(&op);
    if (core == Core::None) {
      op.moveBefore(first ? first : end);
      continue;
    }
    if (core == Core::Both) {
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          partition(inner);
      op.moveBefore(end);
      open = first = nullptr;
      continue;
    }
    if (!open || openCore != core) {
      OpBuilder builder(end);
      createGroup(builder, op.getLoc(), core == Core::Cube, [](OpBuilder &) {});
      open = end->getPrevNode();
      openCore = core;
      if (!first)
        first = open;
    }
    op.moveBefore(open->getRegion(0).front().getTerminator());
  }
}

/// A mixed kernel returns nothing on the machine (its sub-block 1 returns
/// early). The GM tensors a lowered PTO kernel returns are buffers it was
/// passed, so each result goes and its callers use the argument instead.
LogicalResult dropReturnedBuffers(func::FuncOp kernel, ModuleOp module) {
  if (kernel.getNumResults() == 0)
    return success();
  auto ret = cast<func::ReturnOp>(kernel.getBody().front().getTerminator());
  SmallVector<unsigned> passedAs;
  for (Value result : ret.getOperands()) {
    auto arg = dyn_cast<BlockArgument>(result);
    if (!arg || arg.getOwner() != &kernel.getBody().front())
      return kernel.emitOpError()
             << "mixes the cube and the vector unit and returns a value that "
                "is not one of its GM tensor arguments; a mixed kernel "
                "returns nothing";
    passedAs.push_back(arg.getArgNumber());
  }
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(kernel, module);
  if (!uses)
    return kernel.emitOpError() << "has uses the lowering cannot follow";
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call)
      return use.getUser()->emitOpError()
             << "refers to mixed kernel @" << kernel.getName()
             << " other than by a call";
    for (auto [index, arg] : llvm::enumerate(passedAs))
      call.getResult(index).replaceAllUsesWith(call.getOperand(arg));
    OpBuilder builder(call);
    func::CallOp::create(builder, call.getLoc(), kernel.getName(), TypeRange(),
                         call.getOperands());
    call.erase();
  }
  OpBuilder builder(ret);
  func::ReturnOp::create(builder, ret.getLoc());
  ret.erase();
  kernel.setFunctionType(FunctionType::get(
      kernel.getContext(), kernel.getArgumentTypes(), TypeRange()));
  return success();
}

struct FormCoreGroupsPass
    : ascendc::impl::FormCoreGroupsBase<FormCoreGroupsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>()) {
      bool grouped = func.walk([](Operation *op) {
                           return isa<IfAicOp, IfAivOp>(op)
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
      if (func.isExternal() || grouped ||
          func->hasAttr(AscendCDialect::kHostAttrName) ||
          coreOf(func) != Core::Both)
        continue;
      if (failed(dropReturnedBuffers(func, module)))
        return signalPassFailure();
      partition(func.getBody().front());
    }
  }
};

} // namespace
