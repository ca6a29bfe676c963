//===- WorkItems.cpp - Whether an orchestration's work items meet in GM --===//
//
// The proof is syntactic and conservative: GM tensors are followed from the
// orchestration's arguments through the SSA values that stand for their
// versions (loop and branch results, call results), and each kernel access
// of a written tensor must stay within one trip of every loop around its
// call. Anything it cannot follow is a dependence, with its reason.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/Transforms/WorkItems.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;

namespace {

/// An index known to lie in `base + [lo, hi]`; `base` is an induction
/// variable of the orchestration, or null for a bounded constant.
struct Span {
  Value base;
  int64_t lo = 0, hi = 0;
};

/// One tile load or store of a kernel argument.
struct Access {
  bool writes;
  /// Null for an op the analysis does not read (it may touch anything).
  Operation *op;
  SmallVector<Value, 4> offsets;
  SmallVector<int64_t, 4> extents;
};

/// What one call site does to one orchestration argument.
struct Use {
  func::CallOp call;
  SmallVector<Access> accesses;
  bool writes() const {
    return llvm::any_of(accesses, [](const Access &a) { return a.writes; });
  }
};

constexpr unsigned kMaxDepth = 32;

/// Whether an orchestration's op is its own scalar code or control flow
/// (anything else it would run between its items). A view moves no data; a
/// workspace is the host's before the launch.
bool isScalarCode(Operation *op) {
  return isa<arith::ArithDialect>(op->getDialect()) ||
         isa<scf::ForOp, scf::IfOp, scf::YieldOp, func::ReturnOp, TensorDimOp,
             TensorViewOp, TensorCreateOp>(op);
}

/// A tensor the orchestration makes once (a create among its top-level
/// ops) is numbered after its arguments, in program order.
std::optional<unsigned> createdTensorNumber(FunctionOpInterface func,
                                            TensorCreateOp create) {
  Region &body = func.getFunctionBody();
  if (create->getParentRegion() != &body || !body.hasOneBlock())
    return std::nullopt;
  unsigned number = func.getNumArguments();
  for (auto made : body.front().getOps<TensorCreateOp>()) {
    if (made == create)
      return number;
    ++number;
  }
  return std::nullopt;
}

/// "file:line:col" of `loc`, as diagnostics print places.
std::string where(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

bool isTensor(Type type) { return isa<GMTensorType>(type); }

/// The argument of `func` that `tensor` is a version of, following loop
/// and branch results, the results of stores and views; `view` (when
/// given) becomes the view it is seen through, or stays null.
std::optional<unsigned> argumentOf(FunctionOpInterface func, Value tensor,
                                   unsigned depth = 0, Value *view = nullptr);

std::optional<unsigned> sameArgument(FunctionOpInterface func,
                                     ArrayRef<Value> candidates, unsigned depth,
                                     Value *view) {
  std::optional<unsigned> found;
  Value foundView;
  for (Value candidate : candidates) {
    Value seen;
    std::optional<unsigned> arg = argumentOf(func, candidate, depth + 1, &seen);
    if (!arg || (found && (*found != *arg || foundView != seen)))
      return std::nullopt;
    found = arg;
    foundView = seen;
  }
  if (view)
    *view = foundView;
  return found;
}

/// The argument that call result `index` of `callee` is: the kernel's
/// return operand, followed to its argument.
std::optional<unsigned> returnedArgument(FunctionOpInterface callee,
                                         unsigned index, unsigned depth) {
  if (callee.isExternal())
    return std::nullopt;
  auto ret = dyn_cast<func::ReturnOp>(
      callee.getFunctionBody().front().getTerminator());
  if (!ret || index >= ret.getNumOperands())
    return std::nullopt;
  return argumentOf(callee, ret.getOperand(index), depth + 1);
}

std::optional<unsigned> argumentOf(FunctionOpInterface func, Value tensor,
                                   unsigned depth, Value *view) {
  if (depth > kMaxDepth)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(tensor)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == func.getOperation())
      return arg.getArgNumber();
    if (auto loop = dyn_cast<scf::ForOp>(owner))
      if (arg.getArgNumber() > 0)
        return argumentOf(func, loop.getInitArgs()[arg.getArgNumber() - 1],
                          depth + 1, view);
    return std::nullopt;
  }
  Operation *def = tensor.getDefiningOp();
  unsigned index = cast<OpResult>(tensor).getResultNumber();
  if (auto viewOp = dyn_cast<TensorViewOp>(def)) {
    // The outermost view names the shape the items' offsets are in.
    if (view && !*view)
      *view = tensor;
    return argumentOf(func, viewOp.getSrc(), depth + 1, view);
  }
  if (auto store = dyn_cast<TileStoreOp>(def))
    return argumentOf(func, store.getDst(), depth + 1, view);
  if (auto create = dyn_cast<TensorCreateOp>(def))
    return createdTensorNumber(func, create);
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return sameArgument(
        func, {loop.getInitArgs()[index], loop.getYieldedValues()[index]},
        depth, view);
  if (auto branch = dyn_cast<scf::IfOp>(def)) {
    if (branch.getElseRegion().empty())
      return std::nullopt;
    return sameArgument(func,
                        {branch.thenYield().getOperand(index),
                         branch.elseYield().getOperand(index)},
                        depth, view);
  }
  if (auto call = dyn_cast<func::CallOp>(def)) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr()));
    if (!callee)
      return std::nullopt;
    std::optional<unsigned> param = returnedArgument(callee, index, depth);
    if (!param)
      return std::nullopt;
    return argumentOf(func, call.getOperand(*param), depth + 1, view);
  }
  return std::nullopt;
}

/// Ops through which a tensor only flows (or whose shape it gives).
bool onlyPassesTensor(Operation *op) {
  return isa<func::ReturnOp, func::CallOp, scf::YieldOp, scf::ForOp, scf::IfOp,
             TensorDimOp>(op);
}

/// The accesses `kernel` makes to its argument `param`.
void collectAccesses(FunctionOpInterface kernel, unsigned param,
                     SmallVectorImpl<Access> &accesses) {
  auto extentsOf = [](ArrayRef<int64_t> tile, unsigned rank) {
    SmallVector<int64_t, 4> extents(rank, 1);
    unsigned lead = rank > tile.size() ? rank - tile.size() : 0;
    for (unsigned d = lead; d < rank; ++d)
      extents[d] = tile[d - lead];
    return extents;
  };
  kernel.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isTensor(operand.getType()) ||
          argumentOf(kernel, operand) != std::optional<unsigned>(param))
        continue;
      if (auto load = dyn_cast<TileLoadOp>(op)) {
        accesses.push_back({false, op, llvm::to_vector<4>(load.getOffsets()),
                            extentsOf(cast<TileType>(load.getType()).getShape(),
                                      load.getOffsets().size())});
      } else if (auto store = dyn_cast<TileStoreOp>(op);
                 store && operand == store.getDst()) {
        accesses.push_back(
            {true, op, llvm::to_vector<4>(store.getOffsets()),
             extentsOf(cast<TileType>(store.getTile().getType()).getShape(),
                       store.getOffsets().size())});
      } else if (!onlyPassesTensor(op)) {
        accesses.push_back({true, op, {}, {}});
      }
    }
  });
}

class ItemAnalysis {
public:
  ItemAnalysis(FunctionOpInterface orchestration, ArrayRef<Operation *> scope)
      : orchestration(orchestration), scope(scope) {}

  std::optional<ItemDependence> run();

private:
  std::optional<ItemDependence> collectUses();
  std::optional<ItemDependence> checkOwnership(unsigned arg, Use &use);
  /// Where `value`, computed in a kernel of `call` or in the
  /// orchestration, lies.
  std::optional<Span> span(Value value, func::CallOp call, unsigned depth = 0);
  std::string nameOf(unsigned arg);

  FunctionOpInterface orchestration;
  /// The top-level ops whose items are considered (empty: all).
  ArrayRef<Operation *> scope;
  /// The uses of each argument, by call site.
  llvm::MapVector<unsigned, SmallVector<Use, 2>> uses;
  /// The view each argument's items see it through (null: none).
  llvm::DenseMap<unsigned, Value> views;
};

std::string ItemAnalysis::nameOf(unsigned arg) {
  if (arg >= orchestration.getNumArguments())
    return "a tensor the orchestration makes";
  if (auto name =
          orchestration.getArgAttrOfType<StringAttr>(arg, "tilekit.name"))
    return "'" + name.str() + "'";
  return "argument " + std::to_string(arg);
}

std::optional<ItemDependence> ItemAnalysis::collectUses() {
  std::optional<ItemDependence> found;
  auto visit = [&](Operation *op) {
    if (op == orchestration.getOperation())
      return WalkResult::advance();
    bool launches = op->walk([](func::CallOp) {
                        return WalkResult::interrupt();
                      }).wasInterrupted();
    if (isa<scf::WhileOp>(op) && launches) {
      found = {op, "a while loop launches its items an unknown number of "
                   "times, which this proof does not follow"};
      return WalkResult::interrupt();
    }
    auto call = dyn_cast<func::CallOp>(op);
    if (!call) {
      if (!isScalarCode(op)) {
        found = {op, "the orchestration runs '" +
                         op->getName().getStringRef().str() +
                         "' itself, between its work items"};
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr()));
    std::optional<FunctionKind> kind =
        callee ? getFunctionKind(callee) : std::nullopt;
    if (!callee || callee.isExternal() ||
        (kind != FunctionKind::InCore && kind != FunctionKind::Group)) {
      found = {op, "calls '@" + call.getCallee().str() +
                       "', which is not an in-core function or group"};
      return WalkResult::interrupt();
    }
    // A group's accesses are its two functions'.
    SmallVector<FunctionOpInterface, 2> bodies{callee};
    if (kind == FunctionKind::Group) {
      std::optional<GroupInfo> group = resolveGroup(callee);
      if (!group) {
        found = {op, "launches a group whose functions cannot be found"};
        return WalkResult::interrupt();
      }
      bodies = {cast<FunctionOpInterface>(group->aic),
                cast<FunctionOpInterface>(group->aiv)};
    }
    for (auto [index, operand] : llvm::enumerate(call.getOperands())) {
      if (!isTensor(operand.getType()))
        continue;
      Value view;
      std::optional<unsigned> arg =
          argumentOf(orchestration, operand, 0, &view);
      if (!arg) {
        found = {op, "passes a GM tensor (operand " + std::to_string(index) +
                         ") that is not followed to an argument of the "
                         "orchestration"};
        return WalkResult::interrupt();
      }
      // The items' offsets are compared in one shape: every item must see
      // the argument through the same view (or none).
      auto [seen, fresh] = views.try_emplace(*arg, view);
      if (!fresh && seen->second != view) {
        found = {op, "passes " + nameOf(*arg) +
                         " through another view than an earlier item "
                         "(pto.tensor.view), whose offsets this proof does "
                         "not compare"};
        return WalkResult::interrupt();
      }
      SmallVector<Use, 2> &argUses = uses[*arg];
      if (argUses.empty() || argUses.back().call != call)
        argUses.push_back({call, {}});
      Use &use = argUses.back();
      for (FunctionOpInterface body : bodies) {
        if (body.isExternal() || body.getNumArguments() <= index) {
          found = {op, "calls a kernel without a body"};
          return WalkResult::interrupt();
        }
        collectAccesses(body, index, use.accesses);
      }
    }
    return WalkResult::advance();
  };
  if (scope.empty())
    orchestration->walk<WalkOrder::PreOrder>(visit);
  for (Operation *top : scope)
    if (top->walk<WalkOrder::PreOrder>(visit).wasInterrupted())
      break;
  return found;
}

std::optional<Span> ItemAnalysis::span(Value value, func::CallOp call,
                                       unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    // A kernel's argument is what the call passes.
    if (isa<FunctionOpInterface>(owner) &&
        owner != orchestration.getOperation())
      return span(call.getOperand(arg.getArgNumber()), call, depth + 1);
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && arg == loop.getInductionVar() &&
        orchestration->isAncestor(loop))
      return Span{arg, 0, 0};
    return std::nullopt;
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return Span{Value(), constant.getSExtValue(), constant.getSExtValue()};
  Operation *def = value.getDefiningOp();
  if (isa<GetSubblockIdxOp>(def))
    return Span{Value(), 0, 1};
  if (auto cast = dyn_cast<arith::IndexCastOp>(def))
    return span(cast.getIn(), call, depth + 1);
  if (def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<Span> a = span(def->getOperand(0), call, depth + 1);
  std::optional<Span> b = span(def->getOperand(1), call, depth + 1);
  if (!a || !b)
    return std::nullopt;
  Span result;
  bool overflow = false;
  auto add = [&](int64_t x, int64_t y) {
    int64_t sum;
    overflow |= llvm::AddOverflow(x, y, sum);
    return sum;
  };
  if (isa<arith::AddIOp>(def)) {
    if (a->base && b->base)
      return std::nullopt;
    result = {a->base ? a->base : b->base, add(a->lo, b->lo),
              add(a->hi, b->hi)};
  } else if (isa<arith::SubIOp>(def)) {
    if (b->base)
      return std::nullopt;
    result = {a->base, add(a->lo, -b->hi), add(a->hi, -b->lo)};
  } else if (isa<arith::MulIOp>(def)) {
    // A constant factor of a bounded value; a base only times one.
    if (b->base || b->lo != b->hi || b->lo < 0)
      std::swap(a, b);
    if (b->base || b->lo != b->hi || b->lo < 0 || (a->base && b->lo != 1))
      return std::nullopt;
    int64_t lo, hi;
    overflow |= llvm::MulOverflow(a->lo, b->lo, lo);
    overflow |= llvm::MulOverflow(a->hi, b->lo, hi);
    result = {a->base, lo, hi};
  } else if (isa<arith::MinSIOp>(def) ||
             (isa<arith::MinUIOp>(def) && a->lo >= 0 && b->lo >= 0)) {
    if (a->base || b->base)
      return std::nullopt;
    result = {Value(), std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
  } else {
    return std::nullopt;
  }
  if (overflow)
    return std::nullopt;
  return result;
}

std::optional<ItemDependence> ItemAnalysis::checkOwnership(unsigned arg,
                                                           Use &use) {
  for (Operation *parent = use.call->getParentOp();
       parent != orchestration.getOperation(); parent = parent->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop)
      continue;
    APInt stepValue;
    if (!matchPattern(loop.getStep(), m_ConstantInt(&stepValue)) ||
        stepValue.getSExtValue() <= 0)
      return ItemDependence{loop, "the loop around the call of '@" +
                                      use.call.getCallee().str() +
                                      "' has no constant positive step"};
    int64_t step = stepValue.getSExtValue();
    Value iv = loop.getInductionVar();
    // Some dimension must advance by the step with the loop in every
    // access: then two trips never touch one element.
    auto owns = [&](unsigned dim) {
      for (const Access &access : use.accesses) {
        if (!access.op || dim >= access.offsets.size())
          return false;
        std::optional<Span> at = span(access.offsets[dim], use.call);
        if (!at || at->base != iv || at->lo < 0 ||
            at->hi > step - access.extents[dim])
          return false;
      }
      return true;
    };
    unsigned rank = use.accesses.empty() ? 0 : use.accesses[0].offsets.size();
    bool owned = false;
    for (unsigned dim = 0; dim < rank && !owned; ++dim)
      owned = owns(dim);
    if (!owned)
      return ItemDependence{
          use.call, "items of '@" + use.call.getCallee().str() +
                        "' in different trips of the loop at " +
                        where(loop.getLoc()) +
                        " may touch the same elements of " + nameOf(arg) +
                        ", which it writes: no dimension of its accesses "
                        "stays within one step of the loop"};
  }
  return std::nullopt;
}

std::optional<ItemDependence> ItemAnalysis::run() {
  if (std::optional<ItemDependence> found = collectUses())
    return found;
  for (auto &[arg, argUses] : uses) {
    auto writer =
        llvm::find_if(argUses, [](const Use &u) { return u.writes(); });
    if (writer == argUses.end())
      continue;
    for (Use &other : argUses)
      if (other.call != writer->call)
        return ItemDependence{
            other.call, "'@" + writer->call.getCallee().str() + "' writes " +
                            nameOf(arg) + " and this call of '@" +
                            other.call.getCallee().str() +
                            "' touches it too: items of two calls may meet "
                            "in GM"};
    if (std::optional<ItemDependence> found = checkOwnership(arg, *writer))
      return found;
  }
  return std::nullopt;
}

} // namespace

std::optional<ItemDependence>
pto::findItemDependence(FunctionOpInterface orchestration,
                        ArrayRef<Operation *> scope) {
  return ItemAnalysis(orchestration, scope).run();
}

std::optional<SmallVector<ItemPhase>>
pto::findItemPhases(FunctionOpInterface orchestration) {
  Region &body = orchestration.getFunctionBody();
  if (!body.hasOneBlock())
    return std::nullopt;
  SmallVector<ItemPhase> phases;
  SmallVector<Operation *> open;
  auto calls = [](ArrayRef<Operation *> ops) {
    unsigned count = 0;
    for (Operation *op : ops)
      op->walk([&](func::CallOp) { ++count; });
    return count;
  };
  auto close = [&] {
    if (open.empty())
      return;
    phases.push_back({calls(open), findItemDependence(orchestration, open)});
    open.clear();
  };
  for (Operation &op : body.front()) {
    bool launches = op.walk([](func::CallOp) {
                        return WalkResult::interrupt();
                      }).wasInterrupted();
    // An op of its own between the items runs in no phase: no phases.
    if (!launches && op.walk([](Operation *inner) {
                         return isScalarCode(inner) ? WalkResult::advance()
                                                    : WalkResult::interrupt();
                       }).wasInterrupted())
      return std::nullopt;
    if (!launches)
      continue;
    open.push_back(&op);
    // The op joins the open phase while that stays independent; else the
    // open phase ends before it.
    if (open.size() == 1 || !findItemDependence(orchestration, open))
      continue;
    open.pop_back();
    close();
    open.push_back(&op);
  }
  close();
  if (phases.size() < 2)
    return std::nullopt;
  return phases;
}
