//===- LocalTensorStorage.cpp - Storage and lifetimes of local tensors ----===//

#include "tilekit/Dialect/AscendC/Transforms/LocalTensorStorage.h"
#include "tilekit/Dialect/AscendC/Transforms/AllocationSize.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace tilekit::ascendc {

void forEachUse(Value tensor, llvm::function_ref<void(Operation *)> visit) {
  for (Operation *user : tensor.getUsers()) {
    visit(user);
    if (auto cast = dyn_cast<ReinterpretCastOp>(user))
      forEachUse(cast.getResult(), visit);
  }
}

/// Whether `op` is an if_aic / if_aiv group: its body runs once, in line.
static bool isCoreGroupOp(Operation *op) { return isa<IfAicOp, IfAivOp>(op); }

unsigned BlockOrder::indexOf(Operation *op) {
  Block *block = op->getBlock();
  if (isCoreGroupOp(block->getParentOp()))
    block = block->getParentOp()->getBlock();
  if (numbered.insert(block).second) {
    unsigned next = 0;
    for (Operation &other : *block) {
      index[&other] = next++;
      if (isCoreGroupOp(&other))
        for (Operation &inner : other.getRegion(0).front())
          index[&inner] = next++;
    }
  }
  return index.lookup(op);
}

BlockLifetime getBlockLifetime(LocalTensorAutoOp tensor, BlockOrder &order) {
  BlockLifetime life;
  Block *block = life.block = tensor->getBlock();
  life.first = life.last = order.indexOf(tensor);
  bool seen = false;
  forEachUse(tensor.getResult(), [&](Operation *user) {
    // A cast only names the storage; its users are visited on their own.
    if (isa<ReinterpretCastOp>(user))
      return;
    Operation *here = block->findAncestorOpInBlock(*user);
    if (!here)
      return;
    // A core group's ops are numbered in line (BlockOrder), so a tensor
    // used early in a long group is free for the group's later ops.
    if (isCoreGroupOp(here))
      here = here->getRegion(0).front().findAncestorOpInBlock(*user);
    unsigned at = order.indexOf(here);
    life.first = seen ? std::min(life.first, at) : at;
    life.last = seen ? std::max(life.last, at) : at;
    seen = true;
  });
  return life;
}

/// Replaces the placeholder `tensor` by a cast of `owner`.
static void replaceWithCast(LocalTensorAutoOp tensor, LocalTensorAutoOp owner) {
  OpBuilder builder(tensor);
  auto cast = ReinterpretCastOp::create(builder, tensor.getLoc(),
                                        tensor.getType(), owner.getResult());
  // Discardable attributes (reuse groups, unroll iterations) move to the cast.
  for (NamedAttribute attr : tensor->getDiscardableAttrs())
    cast->setAttr(attr.getName(), attr.getValue());
  tensor.replaceAllUsesWith(cast.getResult());
  tensor.erase();
}

/// Whether `big`'s storage holds `small`, by type and by allocation.
static bool holds(LocalTensorAutoOp big, LocalTensorAutoOp small) {
  auto typeBytes = [](LocalTensorType type) {
    return type.getNumElements() * getElementBytes(type.getElementType());
  };
  return typeBytes(big.getType()) >= typeBytes(small.getType()) &&
         getAllocationBytes(big.getType(), big.getPosition()) >=
             getAllocationBytes(small.getType(), small.getPosition());
}

/// The cores that use `tensor` (through casts): bit 0 the cube (an
/// `if_aic` group), bit 1 the vector core, bit 2 code outside any group.
static unsigned usingCores(LocalTensorAutoOp tensor) {
  unsigned cores = 0;
  forEachUse(tensor.getResult(), [&](Operation *user) {
    if (isa<ReinterpretCastOp>(user))
      return;
    Operation *group = getCoreGroup(user);
    cores |= !group ? 4u : isCubeGroup(group) ? 1u : 2u;
  });
  return cores;
}

bool canShareStorage(LocalTensorAutoOp a, LocalTensorAutoOp b) {
  // The cube and the vector core run at once: what one core's tensor
  // holds may be in use while the other core's runs, whatever the IR order
  // of their groups.
  unsigned cores = usingCores(a);
  if (cores != usingCores(b) || (cores & 1u && cores & 2u))
    return false;
  // Each lane's tensors are its own (on two sub-blocks, in its own UB):
  // storage both lanes used would be in both UBs.
  if (getTensorLane(a.getResult()) != getTensorLane(b.getResult()))
    return false;
  // Tensors of different reuse groups may be live at once (a double-buffered
  // loop's two halves).
  auto group = [](LocalTensorAutoOp tensor) {
    auto attr =
        tensor->getAttrOfType<IntegerAttr>(AscendCDialect::kReuseGroupAttrName);
    return attr ? std::optional<int64_t>(attr.getInt()) : std::nullopt;
  };
  if (group(a) && group(b) && *group(a) != *group(b))
    return false;
  return holds(a, b) || holds(b, a);
}

LocalTensorAutoOp shareStorage(LocalTensorAutoOp owner,
                               LocalTensorAutoOp tensor) {
  if (holds(owner, tensor)) {
    replaceWithCast(tensor, owner);
    return owner;
  }
  // A placeholder has no operands, so it can move up to where the owner was
  // defined; the owner becomes its cast.
  tensor->moveBefore(owner);
  replaceWithCast(owner, tensor);
  return tensor;
}

/// The block whose op order times `block`'s ops: a core group's body
/// counts in line in the block holding the group (BlockOrder).
static Block *timingBlock(Block *block) {
  Operation *parent = block->getParentOp();
  return parent && isCoreGroupOp(parent) ? parent->getBlock() : block;
}

/// The op that holds `op` among those timed in `timing`, below a nested
/// region (a loop, a branch), or null when `op` is not below one.
static Operation *holderIn(Block *timing, Operation *op) {
  for (Operation *parent = op->getParentOp();
       parent && !isa<FunctionOpInterface>(parent);
       parent = parent->getParentOp())
    if (!isCoreGroupOp(parent) && timingBlock(parent->getBlock()) == timing)
      return parent;
  return nullptr;
}

/// When, in `timing`'s op order, `tensor` is in use: its lifetime when
/// timed there (its block, or a core group's body in it), else the op
/// holding it while that op runs.
static std::optional<std::pair<unsigned, unsigned>>
spanIn(Block *timing, LocalTensorAutoOp tensor, BlockOrder &order) {
  if (timingBlock(tensor->getBlock()) == timing) {
    BlockLifetime life = getBlockLifetime(tensor, order);
    return std::make_pair(life.first, life.last);
  }
  if (Operation *holder = holderIn(timing, tensor)) {
    unsigned at = order.indexOf(holder);
    return std::make_pair(at, at);
  }
  return std::nullopt;
}

void shareAcrossBlocks(Operation *func,
                       function_ref<bool(LocalTensorAutoOp)> considered) {
  SmallVector<LocalTensorAutoOp> tensors;
  func->walk([&](LocalTensorAutoOp tensor) {
    if (considered(tensor))
      tensors.push_back(tensor);
  });
  llvm::SmallPtrSet<Operation *, 16> gone;
  BlockOrder order;
  for (LocalTensorAutoOp tensor : tensors) {
    if (gone.contains(tensor))
      continue;
    for (LocalTensorAutoOp outer : tensors) {
      if (outer == tensor || gone.contains(outer) ||
          getAllocationPool(outer.getPosition()) !=
              getAllocationPool(tensor.getPosition()) ||
          outer->getBlock() == tensor->getBlock() ||
          !outer->getBlock()->findAncestorOpInBlock(*tensor) ||
          !canShareStorage(outer, tensor))
        continue;
      Block *timing = timingBlock(outer->getBlock());
      auto span = spanIn(timing, tensor, order);
      if (!span)
        continue;
      BlockLifetime life = getBlockLifetime(outer, order);
      if (!(life.last < span->first || span->second < life.first))
        continue;
      // At the front of its block, the storage dominates every use.
      outer->moveBefore(&outer->getBlock()->front());
      LocalTensorAutoOp owner = shareStorage(outer, tensor);
      gone.insert(owner == outer ? tensor.getOperation()
                                 : outer.getOperation());
      order = BlockOrder(); // placeholders moved
      break;
    }
  }
}

namespace {
/// A closed span of the function's op order.
struct Span {
  unsigned first, last;
  bool overlaps(const Span &other) const {
    return !(last < other.first || other.last < first);
  }
};

/// Every op of a function numbered in pre-order, with the last number
/// inside it: an op with regions spans everything nested in it.
/// Placeholders and casts take no number (the next op's), so sharing,
/// which moves and replaces only them, leaves every span as it was.
class FunctionOrder {
public:
  explicit FunctionOrder(Operation *func) { number(func); }
  Span spanOf(Operation *op) const { return spans.lookup(op); }

private:
  void number(Operation *op) {
    if (isa<LocalTensorAutoOp, ReinterpretCastOp>(op)) {
      spans[op] = {next, next};
      return;
    }
    unsigned first = next++;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          number(&nested);
    spans[op] = {first, next - 1};
  }
  unsigned next = 0;
  DenseMap<Operation *, Span> spans;
};

/// Whether the regions of `op` may run more than once each time it runs:
/// anything but a branch or a core group (unknown ops count as loops).
bool mayRepeat(Operation *op) {
  return op->getNumRegions() && !isCoreGroupOp(op) &&
         !isa<scf::IfOp, scf::IndexSwitchOp>(op);
}

/// When `tensor`'s storage is in use: from the first to the last use of it
/// or of a cast of it, each use widened to the outermost loop around it
/// that does not hold `tensor` (its contents live across that loop's
/// trips; a placeholder inside a loop is a new tensor on each trip).
Span lifetimeOf(LocalTensorAutoOp tensor, const FunctionOrder &order) {
  std::optional<Span> hull;
  forEachUse(tensor.getResult(), [&](Operation *user) {
    if (isa<ReinterpretCastOp>(user))
      return;
    Operation *widest = user;
    for (Operation *parent = user->getParentOp();
         parent && !isa<FunctionOpInterface>(parent);
         parent = parent->getParentOp())
      if (mayRepeat(parent) && !parent->isAncestor(tensor))
        widest = parent;
    Span span = order.spanOf(widest);
    hull = hull ? Span{std::min(hull->first, span.first),
                       std::max(hull->last, span.last)}
                : span;
  });
  return hull.value_or(order.spanOf(tensor));
}

constexpr StringLiteral kLifetimeAttr = AscendCDialect::kLifetimeAttrName;

/// A storage: its placeholder and when any of its tensors is in use.
struct StorageLife {
  LocalTensorAutoOp root;
  int64_t bytes = 0;
  SmallVector<Span> spans;
  /// The reuse groups of its tensors: two groups may be live at once.
  llvm::SmallSetVector<int64_t, 2> groups;
  /// It took a tensor whose lifetime was not recorded (one not
  /// considered): when it is in use is not known, so it stays as it is.
  bool unrecorded = false;
  bool folded = false;
};
} // namespace

void recordLifetimes(Operation *func,
                     function_ref<bool(LocalTensorAutoOp)> recorded) {
  FunctionOrder order(func);
  Builder builder(func->getContext());
  func->walk([&](LocalTensorAutoOp tensor) {
    if (!recorded(tensor) || tensor->hasAttr(kLifetimeAttr))
      return;
    Span span = lifetimeOf(tensor, order);
    auto attr = builder.getDenseI64ArrayAttr(
        {static_cast<int64_t>(span.first), static_cast<int64_t>(span.last)});
    // Its casts so far view its contents: they carry its lifetime too.
    tensor->setAttr(kLifetimeAttr, attr);
    forEachUse(tensor.getResult(), [&](Operation *user) {
      if (isa<ReinterpretCastOp>(user) && !user->hasAttr(kLifetimeAttr))
        user->setAttr(kLifetimeAttr, attr);
    });
  });
}

void forgetLifetimes(Operation *func) {
  func->walk([](Operation *op) { op->removeAttr(kLifetimeAttr); });
}

void shareByLifetimes(Operation *func,
                      function_ref<bool(LocalTensorAutoOp)> considered) {
  // Each storage is in use whenever one of the tensors folded into it so
  // far (the placeholder and the casts that replaced the others) was.
  SmallVector<StorageLife> storages;
  auto addTensor = [&](Operation *op, StorageLife &storage) {
    if (auto span = op->getAttrOfType<DenseI64ArrayAttr>(kLifetimeAttr);
        span && span.size() == 2)
      storage.spans.push_back(
          {static_cast<unsigned>(span[0]), static_cast<unsigned>(span[1])});
    else
      storage.unrecorded = true;
    if (auto group =
            op->getAttrOfType<IntegerAttr>(AscendCDialect::kReuseGroupAttrName))
      storage.groups.insert(group.getInt());
  };
  func->walk([&](LocalTensorAutoOp root) {
    if (!considered(root) || !root->hasAttr(kLifetimeAttr))
      return;
    StorageLife &storage = storages.emplace_back();
    storage.root = root;
    storage.bytes = getAllocationBytes(root.getType(), root.getPosition());
    addTensor(root, storage);
    forEachUse(root.getResult(), [&](Operation *user) {
      if (isa<ReinterpretCastOp>(user))
        addTensor(user, storage);
    });
  });
  // The largest first: folding it saves the most.
  llvm::stable_sort(storages, [&](const StorageLife &a, const StorageLife &b) {
    return a.bytes > b.bytes;
  });
  auto disjoint = [](const StorageLife &a, const StorageLife &b) {
    return llvm::none_of(a.spans, [&](const Span &span) {
      return llvm::any_of(
          b.spans, [&](const Span &other) { return span.overlaps(other); });
    });
  };
  // canShareStorage compares the placeholders; a storage's casts may be of
  // other groups than its placeholder.
  auto oneGroup = [](const StorageLife &a, const StorageLife &b) {
    return a.groups.empty() || b.groups.empty() ||
           (a.groups == b.groups && a.groups.size() == 1);
  };
  for (StorageLife &storage : storages) {
    if (storage.unrecorded)
      continue;
    StorageLife *into = nullptr;
    for (StorageLife &other : storages)
      if (&other != &storage && !other.folded && !other.unrecorded &&
          getAllocationPool(other.root.getPosition()) ==
              getAllocationPool(storage.root.getPosition()) &&
          holds(other.root, storage.root) &&
          canShareStorage(other.root, storage.root) &&
          oneGroup(other, storage) && disjoint(other, storage) &&
          (!into || other.bytes < into->bytes))
        into = &other;
    if (!into)
      continue;
    // At the front of the innermost block holding both, the storage
    // dominates every use of either.
    Block *common = into->root->getBlock();
    while (!common->findAncestorOpInBlock(*storage.root))
      common = common->getParentOp()->getBlock();
    into->root->moveBefore(&common->front());
    // It holds the other, so it stays the owner.
    shareStorage(into->root, storage.root);
    llvm::append_range(into->spans, storage.spans);
    into->groups.insert_range(storage.groups);
    storage.folded = true;
  }
}

} // namespace tilekit::ascendc
