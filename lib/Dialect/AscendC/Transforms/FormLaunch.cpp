//===- FormLaunch.cpp - ascendc-form-launch
//--------------------------------===//
//
// Turns each host function into launches of kernels that walk the host
// function's control flow and run, on each core, the work items that core
// owns (machine::getWorkItemCore): one launch per phase of its items, cut
// again where the kind of core its kernels run on changes. The item number is
// threaded through the loops and branches as an extra loop-carried value and
// branch result.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/BufferCapacities.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/ItemOverlap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_FORMLAUNCH
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

#define DEBUG_TYPE "ascendc-form-launch"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::ascendc;

namespace {

/// The PTO marks of orchestrations whose items never meet in GM, and of
/// those whose items meet only across phases (pto-prove-independent-items);
/// the AscendC side only reads them.
constexpr llvm::StringLiteral kIndependentItems = "pto.independent_items";
constexpr llvm::StringLiteral kItemPhases = "pto.item_phases";

/// A run of a host's call sites that one launch runs, on one kind of core.
struct Phase {
  unsigned calls;
  bool independent;
  KernelCores cores = KernelCores::Vector;
};

/// Replaces the uses of a kernel call's results by the GM arguments it
/// returns (a kernel returns tensors it was passed).
void forwardResults(func::CallOp call) {
  auto kernel = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  auto ret = kernel.getBody().front().getTerminator();
  for (auto [result, returned] :
       llvm::zip(call.getResults(), ret->getOperands()))
    result.replaceAllUsesWith(
        call.getOperand(cast<BlockArgument>(returned).getArgNumber()));
}

/// The AI cores of an architecture: 910B1's 24, 950PR's 32 (HARDWARE.md,
/// as configs/ascend910b.json and ascend950.json give them).
unsigned getDefaultCores(StringRef arch) { return arch == "c310" ? 32 : 24; }

/// The workspace region `value` is, seen through reshapes.
WorkspaceOp regionOf(Value value) {
  while (auto reshape = value.getDefiningOp<GlobalReshapeOp>())
    value = reshape.getSource();
  return value.getDefiningOp<WorkspaceOp>();
}

/// Which argument of `func` a GM value is (a version of), following loop
/// and branch results and kernel call results; nothing for a value made
/// in the body (a workspace), which the kernel makes itself.
std::optional<unsigned> argumentOf(func::FuncOp func, Value value,
                                   unsigned depth = 0) {
  if (depth > 32)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == func.getOperation())
      return arg.getArgNumber();
    if (auto loop = dyn_cast<scf::ForOp>(owner); loop && arg.getArgNumber())
      return argumentOf(func, loop.getInitArgs()[arg.getArgNumber() - 1],
                        depth + 1);
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  // A reshape is the argument's address with other extents (the call of
  // a work item passes those: CallLowering).
  if (auto reshape = dyn_cast<GlobalReshapeOp>(def))
    return argumentOf(func, reshape.getSource(), depth + 1);
  unsigned index = cast<OpResult>(value).getResultNumber();
  auto same = [&](Value a, Value b) -> std::optional<unsigned> {
    std::optional<unsigned> x = argumentOf(func, a, depth + 1);
    if (x && x == argumentOf(func, b, depth + 1))
      return x;
    return std::nullopt;
  };
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return same(loop.getInitArgs()[index], loop.getYieldedValues()[index]);
  if (auto branch = dyn_cast<scf::IfOp>(def); branch && branch.elseBlock())
    return same(branch.thenYield().getOperand(index),
                branch.elseYield().getOperand(index));
  if (auto call = dyn_cast<func::CallOp>(def)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal())
      return std::nullopt;
    Value returned =
        callee.getBody().front().getTerminator()->getOperand(index);
    auto param = dyn_cast<BlockArgument>(returned);
    if (!param || param.getOwner() != &callee.getBody().front())
      return std::nullopt;
    return argumentOf(func, call.getOperand(param.getArgNumber()), depth + 1);
  }
  return std::nullopt;
}

/// Ends an item of a mixed kernel on both cores of the block: the vector
/// core signals `done` and waits for `next`, the cube the other way round,
/// then each drains its pipes. A kernel launch orders the cores of
/// consecutive items; inside one launch this handshake must (the next
/// item's cube writes the scratch the last item's vector core read).
void endMixedItem(OpBuilder &builder, Location loc,
                  std::pair<int64_t, int64_t> flags) {
  auto [done, next] = flags;
  createGroup(builder, loc, /*cube=*/false, [&](OpBuilder &inner) {
    CrossCoreSetFlagOp::create(inner, loc, Pipe::MTE3, done);
    CrossCoreWaitFlagOp::create(inner, loc, Pipe::MTE3, next);
  });
  createGroup(builder, loc, /*cube=*/true, [&](OpBuilder &inner) {
    CrossCoreWaitFlagOp::create(inner, loc, Pipe::FIX, done);
    CrossCoreSetFlagOp::create(inner, loc, Pipe::FIX, next);
  });
  PipeBarrierOp::create(builder, loc, Pipe::All);
}

struct FormLaunchPass : public ascendc::impl::FormLaunchBase<FormLaunchPass> {
  using FormLaunchBase::FormLaunchBase;
  void runOnOperation() override;

private:
  /// Why `host` cannot become one launch, at the op that says so.
  std::optional<std::pair<Operation *, std::string>>
  findObstacle(func::FuncOp host, SymbolTableCollection &symbols);
  /// `phases` cut where the kind of core their kernels run on changes (a
  /// launch runs on one kind), or the call where they cannot be and why.
  FailureOr<SmallVector<Phase>>
  splitByCores(func::FuncOp host, ArrayRef<Phase> phases,
               std::pair<Operation *, std::string> &obstacle);
  /// One launch per phase of `host`'s items, in order.
  void form(func::FuncOp host, ArrayRef<Phase> phases, unsigned allCores);
  /// The kernel `name` that runs the `calls` call sites of `host` from
  /// `first` on (in program order) on `blocks` blocks.
  func::FuncOp formKernel(func::FuncOp host, StringRef name, unsigned first,
                          unsigned calls, unsigned blocks);
  /// Guards each kernel call under `block` by its item's core and threads
  /// the item number through (each item run as `overlap` says, when its
  /// items overlap); returns the number after the block's items.
  Value threadItems(Block &block, Value item, Value core, Value cores,
                    const ItemOverlap *overlap);
};

/// Moves `host`'s GM scratch of run-time size to its start, in order, with
/// (copies of) what computes the sizes: a launch kernel then knows where
/// every region starts before its first call, and a work item's own
/// scratch can follow them all (findObstacle has checked that the sizes
/// come from the host's arguments).
void hoistRuntimeRegions(func::FuncOp host) {
  Block &entry = host.getBody().front();
  OpBuilder builder(&entry, entry.begin());
  for (auto region : llvm::to_vector(entry.getOps<WorkspaceOp>())) {
    if (!region.isDynamic())
      continue;
    SmallVector<Operation *> sizing;
    (void)region.getSizeComputation(sizing);
    IRMapping mapping;
    for (Operation *op : sizing) {
      auto dim = dyn_cast<GlobalDimOp>(op);
      if (!dim) {
        builder.clone(*op, mapping);
        continue;
      }
      // A static extent is a constant; a reshape's or a region's run-time
      // one, its size (copied above by now); an argument's, read here.
      auto type = cast<GlobalTensorType>(dim.getSource().getType());
      int64_t at = dim.getDim();
      Value extent;
      if (!ShapedType::isDynamic(type.getShape()[at]))
        extent = arith::ConstantIndexOp::create(builder, dim.getLoc(),
                                                type.getShape()[at]);
      else if (Value given = dim.getGivenExtent())
        extent = mapping.lookupOrDefault(given);
      else
        extent = builder.clone(*op, mapping)->getResult(0);
      mapping.map(dim.getResult(), extent);
    }
    for (OpOperand &size : region->getOpOperands())
      size.set(mapping.lookupOrDefault(size.get()));
    // The first op may be the region itself: then the next go after it.
    if (builder.getInsertionPoint() == region->getIterator())
      builder.setInsertionPointAfter(region);
    else
      region->moveBefore(&entry, builder.getInsertionPoint());
  }
}

} // namespace

std::optional<std::pair<Operation *, std::string>>
FormLaunchPass::findObstacle(func::FuncOp host,
                             SymbolTableCollection &symbols) {
  std::optional<std::pair<Operation *, std::string>> found;
  auto stop = [&](Operation *op, std::string reason) {
    found = {op, std::move(reason)};
    return WalkResult::interrupt();
  };
  ModuleOp module = getOperation();
  host.walk([&](Operation *op) {
    if (op == host.getOperation())
      return WalkResult::advance();
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value value : ret.getOperands())
        if (!argumentOf(host, value))
          return stop(op, "returns a value that is not one of its arguments");
      return WalkResult::advance();
    }
    if (isa<arith::ArithDialect>(op->getDialect()) ||
        isa<scf::ForOp, scf::IfOp, scf::YieldOp, GlobalDimOp, GlobalReshapeOp>(
            op))
      return WalkResult::advance();
    // Host scratch becomes a region of the workspace its launches share.
    if (auto region = dyn_cast<WorkspaceOp>(op)) {
      if (op->getParentOp() != host.getOperation())
        return stop(op, "makes GM scratch inside a loop or branch");
      SmallVector<Operation *> sizing;
      if (Operation *unknown = region.getSizeComputation(sizing)) {
        std::string where;
        llvm::raw_string_ostream os(where);
        os << unknown->getLoc();
        return stop(op, "makes GM scratch whose size the host does not have "
                        "before it launches (it depends on '" +
                            unknown->getName().getStringRef().str() + "' at " +
                            where + ")");
      }
      return WalkResult::advance();
    }
    auto call = dyn_cast<func::CallOp>(op);
    if (!call)
      return stop(op, "runs this op itself, between its work items");
    auto kernel = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!kernel || kernel.isExternal() ||
        kernel->hasAttr(AscendCDialect::kHostAttrName))
      return stop(op, "calls something other than a kernel");
    for (Value operand : call.getOperands())
      if (isa<GlobalTensorType>(operand.getType()) && !regionOf(operand) &&
          !argumentOf(host, operand))
        return stop(op, "passes a GM value that is not followed to one of "
                        "its arguments");
    KernelCores kind = getKernelCores(kernel);
    if (isMixed(kind) && !findFreeFlags({kernel}))
      return stop(op, "calls '@" + kernel.getName().str() +
                          "', which uses every cross-core flag: none is "
                          "left to end its items");
    if (kernel
            .walk([](Operation *inner) {
              return isa<GetBlockIdxOp, GetBlockNumOp>(inner)
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted())
      return stop(op, "calls '@" + kernel.getName().str() +
                          "', which reads its block index: in a launch it "
                          "would read the launch's");
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(kernel, module);
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto caller = use.getUser()->getParentOfType<func::FuncOp>();
      if (caller != host)
        return stop(op, "calls '@" + kernel.getName().str() + "', which '@" +
                            caller.getName().str() + "' calls too");
    }
    return WalkResult::advance();
  });
  return found;
}

Value FormLaunchPass::threadItems(Block &block, Value item, Value core,
                                  Value cores, const ItemOverlap *overlap) {
  auto hasCall = [](Operation &op) {
    return op.walk([](func::CallOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (!hasCall(op))
      continue;
    Location loc = op.getLoc();
    OpBuilder builder(&op);
    if (auto call = dyn_cast<func::CallOp>(op)) {
      // A call's results are GM arguments it was passed: uses read those.
      forwardResults(call);
      auto kernel = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      Value owner = arith::RemSIOp::create(builder, loc, item, cores);
      Value mine = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         owner, core);
      auto guard = scf::IfOp::create(builder, loc, mine, /*else=*/false);
      OpBuilder inside = guard.getThenBodyBuilder();
      auto guarded =
          func::CallOp::create(inside, loc, call.getCalleeAttr(),
                               call.getResultTypes(), call.getOperands());
      auto launch = call->getParentOfType<func::FuncOp>();
      SmallVector<int64_t> args;
      for (Value operand : call.getOperands()) {
        if (regionOf(operand)) {
          args.push_back(-2);
          continue;
        }
        args.push_back(isa<GlobalTensorType>(operand.getType())
                           ? int64_t(*argumentOf(launch, operand))
                           : -1);
      }
      guarded->setAttr(AscendCDialect::kLaunchArgsAttrName,
                       builder.getDenseI64ArrayAttr(args));
      // Overlapped items hand over as the overlap says, a mixed kernel's
      // cores included; others end with the full handshake.
      if (overlap)
        overlap->runItem(guarded, item, cores);
      else if (isMixed(getKernelCores(kernel)))
        endMixedItem(inside, loc, *findFreeFlags({kernel}));
      Value one = arith::ConstantIndexOp::create(builder, loc, 1);
      item = arith::AddIOp::create(builder, loc, item, one);
      call.erase();
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      SmallVector<Value> inits(loop.getInitArgs());
      inits.push_back(item);
      auto grown =
          scf::ForOp::create(builder, loc, loop.getLowerBound(),
                             loop.getUpperBound(), loop.getStep(), inits);
      grown.getRegion().front().erase();
      grown.getRegion().takeBody(loop.getRegion());
      Block &body = grown.getRegion().front();
      Value carried = body.addArgument(item.getType(), loc);
      auto yield = cast<scf::YieldOp>(body.getTerminator());
      Value after = threadItems(body, carried, core, cores, overlap);
      yield.getResultsMutable().append(after);
      for (auto [old, now] : llvm::zip(loop.getResults(), grown.getResults()))
        old.replaceAllUsesWith(now);
      loop.erase();
      item = grown.getResults().back();
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      SmallVector<Type> types(branch.getResultTypes());
      types.push_back(item.getType());
      auto grown = scf::IfOp::create(builder, loc, types, branch.getCondition(),
                                     /*else=*/false);
      grown.getThenRegion().takeBody(branch.getThenRegion());
      if (branch.getElseRegion().empty()) {
        Block *otherwise = builder.createBlock(&grown.getElseRegion());
        OpBuilder end = OpBuilder::atBlockEnd(otherwise);
        scf::YieldOp::create(end, loc);
      } else {
        grown.getElseRegion().takeBody(branch.getElseRegion());
      }
      for (Region *region : {&grown.getThenRegion(), &grown.getElseRegion()}) {
        Block &body = region->front();
        if (body.empty() || !isa<scf::YieldOp>(body.back())) {
          OpBuilder end = OpBuilder::atBlockEnd(&body);
          scf::YieldOp::create(end, loc);
        }
        auto yield = cast<scf::YieldOp>(body.getTerminator());
        Value after = threadItems(body, item, core, cores, overlap);
        yield.getResultsMutable().append(after);
      }
      for (auto [old, now] : llvm::zip(branch.getResults(), grown.getResults()))
        old.replaceAllUsesWith(now);
      branch.erase();
      item = grown.getResults().back();
      continue;
    }
  }
  return item;
}

func::FuncOp FormLaunchPass::formKernel(func::FuncOp host, StringRef name,
                                        unsigned first, unsigned calls,
                                        unsigned blocks) {
  ModuleOp module = getOperation();
  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  // The kernel takes the host's arguments and returns nothing.
  auto kernel = func::FuncOp::create(
      builder, host.getLoc(), name,
      FunctionType::get(context, host.getArgumentTypes(), {}));
  SymbolTable(module).insert(kernel);
  kernel.setAllArgAttrs(host.getAllArgAttrs());
  // Its workspace regions are the host's scratch, which the host's other
  // launches read and write too.
  kernel->setAttr(AscendCDialect::kLaunchedByAttrName,
                  FlatSymbolRefAttr::get(host.getNameAttr()));
  IRMapping mapping;
  host.getBody().cloneInto(&kernel.getBody(), mapping);
  Block &body = kernel.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  builder.setInsertionPoint(ret);
  func::ReturnOp::create(builder, ret.getLoc());
  ret.erase();
  // Only this phase's calls, then none of the control flow that served
  // only the others'.
  SmallVector<func::CallOp> others;
  unsigned index = 0;
  kernel.walk([&](func::CallOp call) {
    if (index < first || index >= first + calls)
      others.push_back(call);
    ++index;
  });
  // Kernels another phase runs too: their items end drained there.
  llvm::StringSet<> elsewhere;
  for (func::CallOp call : others) {
    elsewhere.insert(call.getCallee());
    forwardResults(call);
    call.erase();
  }
  // The loops and branches that served only the others' calls fold away
  // (a loop carrying a tensor it no longer changes, then a dead one).
  if (!others.empty()) {
    RewritePatternSet patterns(context);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    scf::IfOp::getCanonicalizationPatterns(patterns, context);
    (void)applyPatternsGreedily(kernel, std::move(patterns));
  }
  builder.setInsertionPointToStart(&body);
  Value core =
      GetBlockIdxOp::create(builder, host.getLoc(), builder.getIndexType());
  Value cores =
      GetBlockNumOp::create(builder, host.getLoc(), builder.getIndexType());
  Value firstItem = arith::ConstantIndexOp::create(builder, host.getLoc(), 0);
  std::optional<ItemOverlap> overlap;
  if (overlapItems && blocks > 1) {
    SetVector<func::FuncOp> callees;
    kernel.walk([&](func::CallOp call) {
      callees.insert(SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr()));
    });
    std::string why;
    for (func::FuncOp callee : callees)
      if (elsewhere.contains(callee.getName()))
        why = "'@" + callee.getName().str() + "' runs in another phase too";
    if (why.empty())
      overlap = ItemOverlap::plan(
          module, callees.getArrayRef(),
          [&](Buffer buffer) {
            return selectCapacity(buffer, ubBytes, l1Bytes, l0aBytes, l0bBytes,
                                  l0cBytes, btBytes);
          },
          why);
    if (overlap)
      overlap->atEntry(builder, host.getLoc());
    else
      host.emitRemark() << "the items of '@" << kernel.getName()
                        << "' do not overlap on a core: " << why;
  }
  threadItems(body, firstItem, core, cores, overlap ? &*overlap : nullptr);
  if (overlap) {
    builder.setInsertionPoint(body.getTerminator());
    overlap->atExit(builder, host.getLoc());
  }
  // The kernels it calls are its device functions now; each block's items
  // share a slice of the workspace as large as the largest needs (an item
  // sees what the block's previous item left there, as on the machine).
  int64_t itemScratch = 0;
  kernel.walk([&](func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee)
      return;
    callee->setAttr(AscendCDialect::kDeviceAttrName, UnitAttr::get(context));
    int64_t bytes = 0;
    for (auto region : callee.getOps<WorkspaceOp>())
      bytes += region.getRegionBytes();
    itemScratch = std::max(itemScratch, bytes);
  });
  if (itemScratch)
    kernel->setAttr(AscendCDialect::kItemWorkspaceAttrName,
                    builder.getI64IntegerAttr(itemScratch));

  return kernel;
}

FailureOr<SmallVector<Phase>>
FormLaunchPass::splitByCores(func::FuncOp host, ArrayRef<Phase> phases,
                             std::pair<Operation *, std::string> &obstacle) {
  SmallVector<func::CallOp> sites;
  host.walk([&](func::CallOp call) { sites.push_back(call); });
  auto coresOf = [](func::CallOp call) {
    return getKernelCores(SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr()));
  };
  SmallVector<Phase> launches;
  unsigned first = 0;
  for (const Phase &phase : phases) {
    unsigned start = first, end = first + phase.calls;
    for (unsigned site = first + 1; site <= end; ++site) {
      if (site < end && coresOf(sites[site]) == coresOf(sites[site - 1]))
        continue;
      // A cut runs the sites before it, in all their trips, before those
      // after it: the same order only when no loop holds both sides,
      // unless the phase's items are independent (any order will do).
      if (site < end && !phase.independent) {
        auto loop = sites[site - 1]->getParentOfType<scf::ForOp>();
        for (; loop; loop = loop->getParentOfType<scf::ForOp>())
          if (loop->isAncestor(sites[site])) {
            obstacle = {sites[site],
                        "a loop calls kernels for different kinds of cores "
                        "(a launch runs on one kind) and its items are not "
                        "proved independent"};
            return failure();
          }
      }
      launches.push_back(
          {site - start, phase.independent, coresOf(sites[start])});
      start = site;
    }
    first = end;
  }
  return launches;
}

void FormLaunchPass::form(func::FuncOp host, ArrayRef<Phase> phases,
                          unsigned allCores) {
  SmallVector<std::pair<func::FuncOp, unsigned>> launches;
  unsigned first = 0;
  for (auto [index, phase] : llvm::enumerate(phases)) {
    std::string name = (host.getName() + "_kernel").str();
    if (phases.size() > 1)
      name += "_" + std::to_string(index);
    // Kernels of one vector core launch a block per vector core: two per
    // AI core.
    unsigned perCore = phase.cores == KernelCores::Vector ? 2 : 1;
    unsigned blocks = phase.independent ? allCores * perCore : 1;
    launches.push_back(
        {formKernel(host, name, first, phase.calls, blocks), blocks});
    first += phase.calls;
  }
  // The host: its launches in order (a launch starts when the one before
  // has ended on every core), then its GM results (its arguments).
  OpBuilder builder(host.getContext());
  Block &hostBody = host.getBody().front();
  auto hostReturn = cast<func::ReturnOp>(hostBody.getTerminator());
  SmallVector<Value> results;
  for (Value value : hostReturn.getOperands())
    results.push_back(host.getArgument(*argumentOf(host, value)));
  builder.setInsertionPoint(hostReturn);
  llvm::SmallPtrSet<Operation *, 8> kept;
  for (auto [kernel, blocks] : launches) {
    Value count =
        arith::ConstantIndexOp::create(builder, host.getLoc(), blocks);
    kept.insert(count.getDefiningOp());
    kept.insert(LaunchOp::create(builder, host.getLoc(), kernel.getName(),
                                 host.getArguments(), count));
  }
  kept.insert(func::ReturnOp::create(builder, hostReturn.getLoc(), results));
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(hostBody)))
    if (!kept.contains(&op))
      op.erase();
}

void FormLaunchPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto arch = module->getAttrOfType<StringAttr>(AscendCDialect::kArchAttrName);
  unsigned allCores =
      cores ? unsigned(cores) : getDefaultCores(arch ? arch.getValue() : "");
  SymbolTableCollection symbols;
  SmallVector<func::FuncOp> hosts;
  for (auto func : module.getOps<func::FuncOp>())
    if (func->hasAttr(AscendCDialect::kHostAttrName) && !func.isExternal())
      hosts.push_back(func);
  for (func::FuncOp host : hosts) {
    bool launches = !host.getOps<LaunchOp>().empty();
    bool calls = host.walk([](func::CallOp) { return WalkResult::interrupt(); })
                     .wasInterrupted();
    if (launches || !calls)
      continue;
    if (auto obstacle = findObstacle(host, symbols)) {
      obstacle->first->emitWarning()
          << "'@" << host.getName()
          << "' stays a host loop of one launch per work item: it "
          << obstacle->second;
      continue;
    }
    unsigned total = 0;
    host.walk([&](func::CallOp) { ++total; });
    SmallVector<Phase> phases;
    unsigned phased = 0;
    // The PTO dialect has checked the marks' form.
    auto marks = host->getAttrOfType<ArrayAttr>(kItemPhases);
    if (marks)
      for (auto mark : marks.getAsRange<DictionaryAttr>()) {
        auto calls = mark.getAs<IntegerAttr>("calls");
        phases.push_back(
            {unsigned(calls.getInt()), bool(mark.get("independent"))});
        phased += phases.back().calls;
      }
    if (phased != total) {
      if (!phases.empty())
        host.emitWarning() << "'@" << host.getName() << "' has phases of "
                           << phased << " call sites but makes " << total
                           << ": its items run on one core, in order";
      phases = {{total, host->hasAttr(kIndependentItems)}};
    }
    std::pair<Operation *, std::string> obstacle;
    FailureOr<SmallVector<Phase>> cut = splitByCores(host, phases, obstacle);
    if (failed(cut)) {
      obstacle.first->emitWarning()
          << "'@" << host.getName()
          << "' stays a host loop of one launch per work item: "
          << obstacle.second;
      continue;
    }
    hoistRuntimeRegions(host);
    form(host, *cut, allCores);
  }
}
