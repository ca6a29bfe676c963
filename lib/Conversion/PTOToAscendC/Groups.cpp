//===- Groups.cpp - Cube/vector groups to one mixed AscendC kernel --------===//
//
// A PTO group (an `aic` and an `aiv` function exchanging tiles through
// cross-core pipes) becomes one kernel, the group function, in three steps:
//
// 1. Before the conversion, `mergeGroups` builds the group's body from its
//    members: the cube's ops and the vector core's, interleaved so that
//    every pop comes after the pushes it takes (the order the cross-core
//    sync passes reason in). A split group's two lanes both run on vector
//    sub-block 0 (the pipelines guard mixed kernels to it): each of the
//    aiv function's top-level ops is cloned for lane 0, then for lane 1,
//    with get_subblock_idx the lane. Each pipe direction gets a workspace
//    tensor in GM that its pushes write and its pops read.
// 2. The conversion lowers the transfers (patterns below): a cube push
//    from the accumulator is a fixpipe into the workspace, a lane's push a
//    data_copy of its half into it; pops copy from it (a lane its half).
// 3. After it, `formCoreGroups` wraps each run of one core's ops in an
//    `if_aic` / `if_aiv` group; scalar code stays outside, where both cores
//    run it. It does the same for an in-core function that mixes cube and
//    vector tile ops, inside its loops and branches too.
//
// Only transfers at the top level of the members are lowered (a loop or
// branch holding one needs the two cores' control flow fused), one push and one
// pop per pipe direction and lane, split codes 0-2, whole tiles.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

bool isTransfer(Operation *op) {
  return isa<pto::TPushToAivOp, pto::TPushToAicOp, pto::TPopFromAicOp,
             pto::TPopFromAivOp>(op);
}

/// The pipe and direction of a transfer (true: toward the vector core).
std::pair<int64_t, bool> channelOf(Operation *op) {
  auto pipe = op->getAttrOfType<IntegerAttr>("pipe_id"); // absent: pipe 0
  return {pipe ? pipe.getInt() : 0,
          isa<pto::TPushToAivOp, pto::TPopFromAicOp>(op)};
}

/// A transfer's split code (an I32 enum attribute).
int64_t splitOf(Operation *op) {
  return cast<IntegerAttr>(op->getAttr("split")).getInt();
}

pto::TileType tileOf(Operation *op) {
  Value tile = isa<pto::TPushToAivOp, pto::TPushToAicOp>(op) ? op->getOperand(0)
                                                             : op->getResult(0);
  return cast<pto::TileType>(tile.getType());
}

/// Builds one group's kernel body.
class GroupMerger {
public:
  GroupMerger(func::FuncOp group, FunctionOpInterface aic,
              FunctionOpInterface aiv, unsigned lanes, Transfers &transfers)
      : group(group), aic(aic), aiv(aiv), lanes(lanes), transfers(transfers),
        builder(group.getContext()) {}

  LogicalResult merge();

private:
  LogicalResult checkMember(FunctionOpInterface member);
  FailureOr<Value> workspaceFor(Operation *transfer);
  bool blocked(Operation *op, unsigned lane) const;
  LogicalResult emit(Operation *op, std::optional<unsigned> lane);

  func::FuncOp group;
  FunctionOpInterface aic, aiv;
  unsigned lanes;
  Transfers &transfers;
  OpBuilder builder;
  IRMapping cube;
  SmallVector<IRMapping, 2> laneMaps;
  /// Tiles pushed and not yet popped, per pipe direction and lane.
  std::map<std::tuple<int64_t, bool, unsigned>, int64_t> inFlight;
  std::map<std::pair<int64_t, bool>, Value> workspaces;
  std::map<std::tuple<int64_t, bool, unsigned, bool>, int> transfersSeen;
};

LogicalResult GroupMerger::checkMember(FunctionOpInterface member) {
  for (Operation &op : member.getFunctionBody().front()) {
    if (op.getNumRegions() == 0)
      continue;
    WalkResult nested =
        op.walk([&](Operation *inner) {
          if (!isTransfer(inner))
            return WalkResult::advance();
          inner->emitOpError()
              << "sits inside " << op.getName()
              << ": cross-core transfers are lowered at the top level of the "
                 "aic and aiv functions only (a loop or branch holding one "
                 "needs the two cores' control flow fused)";
          return WalkResult::interrupt();
        });
    if (nested.wasInterrupted())
      return failure();
  }
  return success();
}

/// The workspace of a transfer's pipe direction: the cube's tile box, in
/// the vector side's element type; made first in the kernel.
FailureOr<Value> GroupMerger::workspaceFor(Operation *transfer) {
  auto channel = channelOf(transfer);
  auto it = workspaces.find(channel);
  if (it != workspaces.end())
    return it->second;
  Operation *cubeEnd = nullptr, *vectorEnd = nullptr;
  aic->walk([&](Operation *op) {
    if (isTransfer(op) && channelOf(op) == channel)
      cubeEnd = op;
  });
  aiv->walk([&](Operation *op) {
    if (isTransfer(op) && channelOf(op) == channel)
      vectorEnd = op;
  });
  if (!cubeEnd || !vectorEnd)
    return transfer->emitOpError()
           << "has no partner on the other core for pipe " << channel.first;
  pto::TileType box = tileOf(cubeEnd), part = tileOf(vectorEnd);
  int64_t split = splitOf(transfer);
  if (split > 2)
    return transfer->emitOpError() << "splits with an odd code (" << split
                                   << "), which is not lowered yet";
  SmallVector<int64_t, 2> halves(box.getShape());
  if (split == 1 || split == 2)
    halves[split - 1] /= 2;
  if (box.getRank() != 2 || ArrayRef<int64_t>(halves) != part.getShape())
    return transfer->emitOpError()
           << "moves " << part << " on each lane and " << box
           << " on the cube core with split " << split
           << ", which do not cut into each other";
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&group.getBody().front());
  Value workspace = ascendc::WorkspaceOp::create(
      builder, group.getLoc(),
      ascendc::GlobalTensorType::get(group.getContext(), box.getShape(),
                                     part.getElementType()));
  workspaces[channel] = workspace;
  return workspace;
}

/// A pop waits for the push that fills it.
bool GroupMerger::blocked(Operation *op, unsigned lane) const {
  if (!isa<pto::TPopFromAicOp, pto::TPopFromAivOp>(op))
    return false;
  auto [pipe, toVector] = channelOf(op);
  auto ready = [&](unsigned l) {
    auto it = inFlight.find({pipe, toVector, l});
    return it != inFlight.end() && it->second > 0;
  };
  if (toVector)
    return !ready(lane);
  for (unsigned l = 0; l < lanes; ++l)
    if (!ready(l))
      return true;
  return false;
}

/// Clones `op` of the cube (no lane) or of `lane` into the kernel.
LogicalResult GroupMerger::emit(Operation *op, std::optional<unsigned> lane) {
  IRMapping &map = lane ? laneMaps[*lane] : cube;
  if (isa<pto::AicInitializePipeOp, pto::AivInitializePipeOp>(op))
    return success(); // the workspaces are the pipes' slots
  if (auto index = dyn_cast<pto::GetSubblockIdxOp>(op)) {
    map.map(index.getResult(), arith::ConstantIndexOp::create(
                                   builder, op->getLoc(), lane.value_or(0)));
    return success();
  }
  if (isTransfer(op)) {
    auto [pipe, toVector] = channelOf(op);
    bool push = isa<pto::TPushToAivOp, pto::TPushToAicOp>(op);
    int &seen = transfersSeen[{pipe, toVector, lane.value_or(0), push}];
    if (++seen > 1)
      return op->emitOpError()
             << (push ? "pushes" : "pops") << " a second tile on pipe " << pipe
             << ", which is not lowered yet: one workspace holds one "
             << "tile";
    FailureOr<Value> workspace = workspaceFor(op);
    if (failed(workspace))
      return failure();
    Operation *clone = builder.clone(*op, map);
    transfers.sites[clone] = {*workspace, lane.value_or(0), lanes};
    // A cube push fills every lane's queue; a lane's push its own.
    if (push && !toVector)
      ++inFlight[{pipe, toVector, *lane}];
    else if (push)
      for (unsigned l = 0; l < lanes; ++l)
        ++inFlight[{pipe, toVector, l}];
    else if (toVector)
      --inFlight[{pipe, toVector, *lane}];
    else
      for (unsigned l = 0; l < lanes; ++l)
        --inFlight[{pipe, toVector, l}];
    return success();
  }
  builder.clone(*op, map);
  return success();
}

LogicalResult GroupMerger::merge() {
  if (group.getNumResults() != 0)
    return group.emitOpError()
           << "returns values, which a merged kernel cannot: store them to "
              "a GM tensor argument";
  if (failed(checkMember(aic)) || failed(checkMember(aiv)))
    return failure();
  Block &body = group.getBody().front();
  body.getTerminator()->erase();
  builder.setInsertionPointToEnd(&body);
  for (auto [from, to] : llvm::zip(aic.getArguments(), body.getArguments()))
    cube.map(from, to);
  laneMaps.resize(lanes);
  for (IRMapping &map : laneMaps)
    for (auto [from, to] : llvm::zip(aiv.getArguments(), body.getArguments()))
      map.map(from, to);

  // The vector side in lockstep: each top-level op for lane 0, then lane 1.
  SmallVector<std::pair<Operation *, unsigned>> vector;
  for (Operation &op : aiv.getFunctionBody().front().without_terminator())
    for (unsigned lane = 0; lane < lanes; ++lane)
      vector.push_back({&op, lane});
  SmallVector<Operation *> cubeOps;
  for (Operation &op : aic.getFunctionBody().front().without_terminator())
    cubeOps.push_back(&op);

  // Each side runs until a pop waits for a push the other has not made.
  size_t nextCube = 0, nextVector = 0;
  while (nextCube < cubeOps.size() || nextVector < vector.size()) {
    bool progress = false;
    for (; nextVector < vector.size() &&
           !blocked(vector[nextVector].first, vector[nextVector].second);
         ++nextVector, progress = true)
      if (failed(emit(vector[nextVector].first, vector[nextVector].second)))
        return failure();
    for (; nextCube < cubeOps.size() && !blocked(cubeOps[nextCube], 0);
         ++nextCube, progress = true)
      if (failed(emit(cubeOps[nextCube], std::nullopt)))
        return failure();
    if (progress)
      continue;
    Operation *stuck = nextCube < cubeOps.size() ? cubeOps[nextCube]
                                                 : vector[nextVector].first;
    return stuck->emitOpError()
           << "waits for a tile the other core pushes only after it pops "
              "one itself: the group deadlocks";
  }
  func::ReturnOp::create(builder, group.getLoc());
  for (StringRef name :
       {"pto.kind", "pto.split", "pto.aic", "pto.aiv", "pto.dual_aiv_dispatch"})
    group->removeAttr(name);
  return success();
}

//===----------------------------------------------------------------------===//
// The transfers, through the workspace
//===----------------------------------------------------------------------===//

/// The part of the workspace lane `site.lane` holds under `split` (all of
/// it for split 0): a view and a window (none when the part is whole rows).
struct LanePart {
  Value view;
  SmallVector<Value, 2> window, strides;
};

LanePart lanePart(OpBuilder &builder, Location loc, const TransferSite &site,
                  int64_t split, pto::TileType part) {
  LanePart result{site.workspace, {}, {}};
  if (split == 0 || site.lanes == 1)
    return result;
  int64_t rows = part.getShape()[0], cols = part.getShape()[1];
  int64_t width = split == 1 ? cols : 2 * cols;
  int64_t offset = split == 1 ? site.lane * rows * cols : site.lane * cols;
  Value at = arith::ConstantIndexOp::create(builder, loc, offset);
  result.view = ascendc::GlobalSubIndexOp::create(
      builder, loc, site.workspace.getType(), site.workspace, at);
  if (split == 2) {
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    result.window = {constant(rows), constant(cols)};
    result.strides = {constant(width), constant(cols)};
  }
  return result;
}

template <typename From> struct TransferPattern : TilePattern<From> {
  TransferPattern(const TypeConverter &types, MLIRContext *context,
                  ValidShapes &valid, Transfers &transfers)
      : TilePattern<From>(types, context, valid), transfers(transfers) {}

  /// Where `op` moves its tile; a push's tile (`pushed`) must be whole.
  FailureOr<TransferSite> siteOf(Operation *op, Value pushed = {}) const {
    auto it = transfers.sites.find(op);
    if (it == transfers.sites.end())
      return op->emitOpError() << "is outside a group, where it has no "
                                  "partner to lower with";
    ValidShape shape = this->valid.lookup(pushed);
    if (pushed && (shape.rows || shape.cols))
      return op->emitOpError() << "pushes a tile with a valid shape, which is "
                                  "not lowered yet";
    return it->second;
  }
  Transfers &transfers;
};

/// The cube pushes its accumulator: a fixpipe into the workspace.
struct PushToAivLowering : TransferPattern<pto::TPushToAivOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(pto::TPushToAivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = siteOf(op, op.getTile());
    if (failed(site))
      return failure();
    auto tile = cast<pto::TileType>(op.getTile().getType());
    if (tile.getMemorySpace() != pto::MemorySpace::Acc)
      return op.emitOpError()
             << "pushes a " << stringifyEnum(tile.getMemorySpace())
             << " tile: only the accumulator reaches GM on "
                "its way to the vector core";
    ascendc::FixpipeOp::create(rewriter, op.getLoc(), site->workspace,
                               adaptor.getTile());
    rewriter.eraseOp(op);
    return success();
  }
};

/// A lane pushes its part: a data_copy into its part of the workspace.
struct PushToAicLowering : TransferPattern<pto::TPushToAicOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(pto::TPushToAicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = siteOf(op, op.getTile());
    if (failed(site))
      return failure();
    LanePart part = lanePart(rewriter, op.getLoc(), *site, splitOf(op),
                             cast<pto::TileType>(op.getTile().getType()));
    ascendc::DataCopyOp::create(
        rewriter, op.getLoc(), part.view, adaptor.getTile(), Value(),
        part.window,
        part.strides.empty() ? ValueRange()
                             : ValueRange{part.strides[1], part.strides[0]});
    rewriter.eraseOp(op);
    return success();
  }
};

/// A pop copies from the workspace into a fresh tile: a lane its part
/// (VECIN), the cube the whole box (L1).
template <typename From, bool ToVector>
struct PopLowering : TransferPattern<From> {
  using TransferPattern<From>::TransferPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = this->siteOf(op);
    if (failed(site))
      return failure();
    Location loc = op.getLoc();
    auto tile = cast<pto::TileType>(op.getType());
    Value local = createLocal(
        rewriter, loc, *this->getTypeConverter(), op.getResult(),
        ToVector ? ascendc::Position::VecIn : positionFor(op.getResult()));
    LanePart part = ToVector ? lanePart(rewriter, loc, *site, splitOf(op), tile)
                             : LanePart{site->workspace, {}, {}};
    ascendc::DataCopyOp::create(rewriter, loc, local, part.view, Value(),
                                part.window, part.strides);
    rewriter.replaceOp(op, local);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Core groups
//===----------------------------------------------------------------------===//

enum class Core { None, Cube, Vector, Both };

Core join(Core a, Core b) {
  if (a == Core::None || a == b)
    return b;
  return b == Core::None ? a : Core::Both;
}

/// The core an op of the merged kernel runs on: the one whose buffers its
/// local tensors are in (GM alone, scalars and placeholders: none).
Core coreOf(Operation *op) {
  if (isa<ascendc::LocalTensorAutoOp, ascendc::LocalTensorOp,
          ascendc::ReinterpretCastOp>(op))
    return Core::None;
  auto coreOfBuffer = [](Value tensor) {
    std::optional<ascendc::Position> position = ascendc::getPosition(tensor);
    if (!position)
      return Core::None;
    return ascendc::getBuffer(*position) == ascendc::Buffer::UB ? Core::Vector
                                                                : Core::Cube;
  };
  // A transfer runs on the core that holds its source (the fixpipe moving
  // L0C into UB is the cube's, a UB to L1 copy the vector core's), or its
  // destination when the source is GM.
  if (isa<ascendc::FixpipeOp>(op))
    return Core::Cube;
  if (auto copy = dyn_cast<ascendc::DataCopyOp>(op)) {
    Core from = coreOfBuffer(copy.getSrc());
    return from != Core::None ? from : coreOfBuffer(copy.getDst());
  }
  Core core = Core::None;
  for (Value operand : op->getOperands()) {
    core = join(core, coreOfBuffer(operand));
  }
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) { core = join(core, coreOf(inner)); });
  return core;
}

} // namespace

LogicalResult lowering::mergeGroups(ModuleOp module, Transfers &transfers) {
  SmallVector<std::tuple<func::FuncOp, Operation *, Operation *, unsigned>>
      groups;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (pto::getFunctionKind(func) != pto::FunctionKind::Group ||
        func.isExternal())
      continue;
    std::optional<pto::GroupInfo> info = pto::resolveGroup(func);
    if (!info)
      return func.emitOpError() << "is a group whose members do not resolve";
    if (info->dualAivDispatch)
      return func.emitOpError()
             << "dispatches its aiv function twice, which is not lowered yet";
    groups.push_back({func, info->aic, info->aiv, info->numLanes()});
  }
  for (auto [group, aic, aiv, lanes] : groups) {
    GroupMerger merger(group, cast<FunctionOpInterface>(aic),
                       cast<FunctionOpInterface>(aiv), lanes, transfers);
    if (failed(merger.merge()))
      return failure();
  }
  // The members live on in their group.
  for (auto [group, aic, aiv, lanes] : groups)
    for (Operation *member : {aic, aiv})
      if (SymbolTable::symbolKnownUseEmpty(member, module))
        member->erase();
  return success();
}

/// Puts each run of one core's ops of `block` in a group. Scalar code,
/// placeholders and GM views depend on nothing a group defines (groups
/// have no results): each moves before the first group since the last
/// control-flow op holding both cores' ops (which stays in place, between
/// groups, and is partitioned inside), so the groups stay long.
static void partition(Block &block) {
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
      ascendc::createGroup(builder, op.getLoc(), core == Core::Cube,
                           [](OpBuilder &) {});
      open = end->getPrevNode();
      openCore = core;
      if (!first)
        first = open;
    }
    op.moveBefore(open->getRegion(0).front().getTerminator());
  }
}

/// A mixed kernel returns nothing on the machine (its sub-block 1 returns
/// early). The GM tensors a PTO kernel returns are buffers it was passed,
/// so each result goes and its callers use the argument instead.
static LogicalResult dropReturnedBuffers(func::FuncOp kernel, ModuleOp module) {
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

LogicalResult lowering::formCoreGroups(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    // A kernel whose tiles live on both cores (a merged group, or an
    // in-core function mixing cube and vector tile ops) splits into groups;
    // a one-core kernel and host code stay as they are.
    if (func.isExternal() ||
        func->hasAttr(ascendc::AscendCDialect::kHostAttrName) ||
        coreOf(func) != Core::Both)
      continue;
    if (failed(dropReturnedBuffers(func, module)))
      return failure();
    partition(func.getBody().front());
  }
  return success();
}

void lowering::populateCrossCorePatterns(PTOToAscendCTypes &types,
                                         RewritePatternSet &patterns,
                                         ValidShapes &valid,
                                         Transfers &transfers) {
  patterns.add<PushToAivLowering, PushToAicLowering,
               PopLowering<pto::TPopFromAicOp, true>,
               PopLowering<pto::TPopFromAivOp, false>>(
      types, patterns.getContext(), valid, transfers);
}
