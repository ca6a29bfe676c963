//===- Footprint.cpp - The GM a call will touch, before it runs -----------===//
//
// The evaluator walks the callee like the executor, but binds only values
// computed from scalars: tiles and anything derived from their data stay
// unbound. An op runs (through the executor's own handler, so the
// arithmetic is the executor's) only when every operand is bound; its
// results are unbound otherwise, so a value of an earlier loop iteration
// never stands in for one that is unknown now.
//
//===----------------------------------------------------------------------===//

#include "Footprint.h"

#include "DiagnosticCapture.h"
#include "ExecContext.h"
#include "Indexing.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

bool interp::conflict(const GMAccess &a, const GMAccess &b) {
  if (a.storage != b.storage || (!a.writes && !b.writes))
    return false;
  auto empty = [](const GMAccess &access) {
    for (auto [lower, upper] : llvm::zip(access.lower, access.upper))
      if (upper <= lower)
        return true;
    return false;
  };
  if (empty(a) || empty(b))
    return false;
  if (a.shape == b.shape) {
    for (size_t d = 0; d < a.shape.size(); ++d)
      if (a.upper[d] <= b.lower[d] || b.upper[d] <= a.lower[d])
        return false;
    return true;
  }
  // Views of one buffer with different shapes: the first and last element
  // each box touches, row-major.
  auto hull = [](const GMAccess &access) {
    SmallVector<int64_t, 4> last;
    for (int64_t upper : access.upper)
      last.push_back(upper - 1);
    return std::make_pair(linearIndex(access.shape, access.lower),
                          linearIndex(access.shape, last));
  };
  auto [aFirst, aLast] = hull(a);
  auto [bFirst, bLast] = hull(b);
  return aFirst <= bLast && bFirst <= aLast;
}

/// Whether `a` and `b` together are exactly one box: equal in every
/// dimension but one, where they touch or overlap.
static bool extendsToBox(const GMAccess &a, const GMAccess &b) {
  int differing = -1;
  for (size_t d = 0; d < a.shape.size(); ++d) {
    if (a.lower[d] == b.lower[d] && a.upper[d] == b.upper[d])
      continue;
    if (differing >= 0)
      return false;
    differing = static_cast<int>(d);
  }
  return differing < 0 || (a.lower[differing] <= b.upper[differing] &&
                           b.lower[differing] <= a.upper[differing]);
}

void interp::addAccess(SmallVectorImpl<GMAccess> &boxes, GMAccess access) {
  // A few recent boxes suffice: the calls of a loop touch neighbours.
  constexpr size_t kLookBack = 4;
  for (size_t i = boxes.size(); i > 0 && i + kLookBack > boxes.size(); --i) {
    GMAccess &box = boxes[i - 1];
    if (box.storage != access.storage || box.writes != access.writes ||
        box.shape != access.shape || !extendsToBox(box, access))
      continue;
    for (size_t d = 0; d < box.shape.size(); ++d) {
      box.lower[d] = std::min(box.lower[d], access.lower[d]);
      box.upper[d] = std::max(box.upper[d], access.upper[d]);
    }
    return;
  }
  boxes.push_back(std::move(access));
}

namespace {
class FootprintEvaluator {
public:
  FootprintEvaluator(Interpreter &interpreter, const CoreState &state)
      : interpreter(interpreter), context(interpreter, state) {}

  std::optional<CallFootprint> run(FunctionOpInterface callee,
                                   ArrayRef<RuntimeValue> args);

private:
  /// Evaluates the ops of `block` before its terminator; false to give up.
  bool runOps(Block &block);
  bool runFor(scf::ForOp op);
  bool runIf(scf::IfOp op);
  /// Records the box of `tileShape` at `offsets` of `tensor`.
  bool record(Value tensor, ValueRange offsets, ArrayRef<int64_t> tileShape,
              bool writes);
  bool bound(Value value) const { return context.isBound(value); }
  bool allBound(ValueRange values) const {
    return llvm::all_of(values, [&](Value value) { return bound(value); });
  }
  /// Binds `value` to `known`, or unbinds it.
  void bind(Value value, const std::optional<RuntimeValue> &known);
  std::optional<RuntimeValue> known(Value value) const;

  /// Index ops a footprint may take (a few per loop iteration of a tile
  /// kernel; beyond this the call is treated as touching everything).
  static constexpr uint64_t kMaxOps = 1 << 16;

  Interpreter &interpreter;
  ExecContext context;
  CallFootprint footprint;
  uint64_t opsLeft = kMaxOps;
};
} // namespace

void FootprintEvaluator::bind(Value value,
                              const std::optional<RuntimeValue> &known) {
  if (known)
    context.set(value, *known);
  else
    context.unbind(value);
}

std::optional<RuntimeValue> FootprintEvaluator::known(Value value) const {
  // Tiles are never bound; a bound value is a scalar or a tensor.
  if (!bound(value))
    return std::nullopt;
  return context.get(value);
}

bool FootprintEvaluator::record(Value tensorValue, ValueRange offsets,
                                ArrayRef<int64_t> tileShape, bool writes) {
  if (!bound(tensorValue) || !allBound(offsets))
    return false;
  const TensorValue &tensor = context.tensor(tensorValue);
  SmallVector<int64_t, 4> at = context.indices(offsets);
  int64_t rank = static_cast<int64_t>(tensor.shape.size());
  int64_t lead = rank - static_cast<int64_t>(tileShape.size());
  if (lead < 0 || static_cast<int64_t>(at.size()) != rank)
    return false; // malformed: the run reports it
  GMAccess access{tensor.storage.get(), tensor.shape, {}, {}, writes};
  for (int64_t d = 0; d < rank; ++d) {
    int64_t extent = d < lead ? 1 : tileShape[d - lead];
    int64_t limit = tensor.shape[d];
    int64_t lower = std::clamp<int64_t>(at[d], 0, limit);
    access.lower.push_back(lower);
    access.upper.push_back(lower + std::min(extent, limit - lower));
  }
  footprint.accesses.push_back(std::move(access));
  return true;
}

bool FootprintEvaluator::runFor(scf::ForOp op) {
  if (!allBound({op.getLowerBound(), op.getUpperBound(), op.getStep()}))
    return false;
  Scalar lower = context.scalar(op.getLowerBound());
  int64_t upper = context.index(op.getUpperBound());
  int64_t step = context.index(op.getStep());
  if (step <= 0)
    return false; // the run reports it
  SmallVector<std::optional<RuntimeValue>> carried;
  for (Value init : op.getInitArgs())
    carried.push_back(known(init));
  Block &body = *op.getBody();
  for (int64_t iv = lower.i; iv < upper; iv += step) {
    context.set(op.getInductionVar(), Scalar::ofInt(lower.kind, iv));
    for (auto [arg, value] : llvm::zip(op.getRegionIterArgs(), carried))
      bind(arg, value);
    if (!runOps(body))
      return false;
    for (auto [index, yielded] :
         llvm::enumerate(body.getTerminator()->getOperands()))
      carried[index] = known(yielded);
  }
  for (auto [result, value] : llvm::zip(op.getResults(), carried))
    bind(result, value);
  return true;
}

bool FootprintEvaluator::runIf(scf::IfOp op) {
  if (!bound(op.getCondition()))
    return false;
  bool condition = context.scalar(op.getCondition()).i != 0;
  Region &region = condition ? op.getThenRegion() : op.getElseRegion();
  if (region.empty())
    return true;
  Block &block = region.front();
  if (!runOps(block))
    return false;
  for (auto [result, yielded] :
       llvm::zip(op.getResults(), block.getTerminator()->getOperands()))
    bind(result, known(yielded));
  return true;
}

bool FootprintEvaluator::runOps(Block &block) {
  // Handlers rely on the types the executor checked (the run reports a
  // type it cannot hold).
  if (failed(interpreter.checkBlockTypes(block)))
    return false;
  for (Operation &op : block.without_terminator()) {
    if (opsLeft-- == 0)
      return false;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!runFor(loop))
        return false;
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (!runIf(branch))
        return false;
      continue;
    }
    // Other regions (while loops) and calls: not followed.
    if (op.getNumRegions() != 0 || isa<CallOpInterface>(op))
      return false;
    if (auto load = dyn_cast<pto::TileLoadOp>(op)) {
      if (!record(load.getSrc(), load.getOffsets(),
                  cast<pto::TileType>(load.getResult().getType()).getShape(),
                  /*writes=*/false))
        return false;
      continue; // the tile stays unbound
    }
    if (auto store = dyn_cast<pto::TileStoreOp>(op)) {
      if (!record(store.getDst(), store.getOffsets(),
                  cast<pto::TileType>(store.getTile().getType()).getShape(),
                  /*writes=*/true))
        return false;
      context.set(store.getResult(), context.tensor(store.getDst()));
      continue;
    }
    // An AscendC kernel's GM accesses (data copies of global tensors) are
    // not followed: no footprint, so its calls run in program order.
    bool onTensors = llvm::any_of(op.getOperandTypes(), [](Type type) {
      return isa<pto::GMTensorType, ascendc::GlobalTensorType>(type);
    });
    // The only other ops on tensors a footprint follows read their
    // shape, not their data.
    bool metadataOnly = isa<pto::TensorDimOp, pto::TensorViewOp>(op);
    if (onTensors && !metadataOnly)
      return false;
    bool scalarResults = llvm::none_of(op.getResultTypes(), [](Type type) {
      return isa<ShapedType, pto::TileType>(type);
    });
    OpHandler handler = interpreter.getHandler(&op);
    bool evaluate = handler && (scalarResults || metadataOnly) &&
                    isMemoryEffectFree(&op) && allBound(op.getOperands());
    if (!evaluate) {
      for (Value result : op.getResults())
        context.unbind(result);
      continue;
    }
    if (failed(handler(context, &op)))
      return false; // the run reports the error
  }
  return true;
}

std::optional<CallFootprint>
FootprintEvaluator::run(FunctionOpInterface callee,
                        ArrayRef<RuntimeValue> args) {
  if (callee.isExternal() || !callee.getFunctionBody().hasOneBlock())
    return std::nullopt;
  Block &entry = callee.getFunctionBody().front();
  if (entry.getNumArguments() != args.size())
    return std::nullopt;
  for (auto [arg, value] : llvm::zip(entry.getArguments(), args))
    if (!std::holds_alternative<TileValue>(value))
      context.set(arg, value);
  // Errors found on the way are the run's to report, in program order.
  std::vector<Diagnostic> discarded;
  CaptureScope capture(discarded);
  if (!runOps(entry))
    return std::nullopt;
  for (Value returned : entry.getTerminator()->getOperands()) {
    std::optional<RuntimeValue> value = known(returned);
    if (!value)
      return std::nullopt;
    footprint.results.push_back(std::move(*value));
  }
  return std::move(footprint);
}

std::optional<CallFootprint>
interp::evaluateFootprint(Interpreter &interpreter, FunctionOpInterface callee,
                          ArrayRef<RuntimeValue> args, const CoreState &state) {
  return FootprintEvaluator(interpreter, state).run(callee, args);
}
