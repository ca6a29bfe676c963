//===- CrossCore.cpp - Transfers of merged groups to AscendC --------------===//
//
// The transfers pto-merge-groups placed move their tiles through the slot
// its record names: a cube push from the accumulator is a fixpipe into the
// workspace, one from L1 a data_copy (A2/A3's L1 -> GM path); a lane's push
// a data_copy of its part into it; pops copy from it (a lane its part, the
// cube the whole box).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Machine/Machine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

bool lowering::isTransfer(Operation *op) {
  return isa<pto::TPushToAivOp, pto::TPushToAicOp, pto::TPopFromAicOp,
             pto::TPopFromAivOp>(op);
}

std::pair<int64_t, bool> lowering::channelOf(Operation *op) {
  auto pipe = op->getAttrOfType<IntegerAttr>("pipe_id"); // absent: pipe 0
  return {pipe ? pipe.getInt() : 0,
          isa<pto::TPushToAivOp, pto::TPopFromAicOp>(op)};
}

// An I32 enum attribute.
int64_t lowering::splitOf(Operation *op) {
  return cast<IntegerAttr>(op->getAttr("split")).getInt();
}

/// The axis a transfer's split cuts its tile along (-1: none). The odd
/// codes cut where the even ones do, at the box half; they only promise
/// lane 0 one valid cell more, which the PTO run checks.
int lowering::splitAxisOf(Operation *op) {
  return machine::getSplitAxis(
      machine::getSplitCode(splitOf(op)).value_or(machine::SplitCode::None));
}

pto::TileType lowering::tileOf(Operation *op) {
  Value tile = isa<pto::TPushToAivOp, pto::TPushToAicOp>(op) ? op->getOperand(0)
                                                             : op->getResult(0);
  return cast<pto::TileType>(tile.getType());
}

bool lowering::isPush(Operation *op) {
  return isa<pto::TPushToAivOp, pto::TPushToAicOp>(op);
}

DictionaryAttr TransferRecord::toAttr(MLIRContext *context) const {
  Builder b(context);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("workspace", b.getI64IntegerAttr(workspace)),
      b.getNamedAttr("lane", b.getI64IntegerAttr(lane)),
      b.getNamedAttr("lanes", b.getI64IntegerAttr(lanes)),
      b.getNamedAttr("cut", b.getI64IntegerAttr(cut))};
  if (id >= 0)
    fields.push_back(b.getNamedAttr("id", b.getI64IntegerAttr(id)));
  else
    fields.push_back(
        b.getNamedAttr("partners", b.getDenseI64ArrayAttr(partners)));
  return b.getDictionaryAttr(fields);
}

FailureOr<TransferRecord> TransferRecord::of(Operation *op) {
  auto malformed = [&] {
    return op->emitOpError() << "has a malformed '" << kTransferAttr
                             << "' record " << op->getAttr(kTransferAttr);
  };
  auto record = op->getAttrOfType<DictionaryAttr>(kTransferAttr);
  if (!record)
    return malformed();
  TransferRecord result;
  auto field = [&](StringRef name, int64_t &into) {
    auto value = record.getAs<IntegerAttr>(name);
    if (value)
      into = value.getInt();
    return bool(value);
  };
  bool complete = field("workspace", result.workspace) &&
                  field("lane", result.lane) && field("lanes", result.lanes) &&
                  field("cut", result.cut);
  if (isPush(op)) {
    complete &= field("id", result.id);
  } else if (auto partners = record.getAs<DenseI64ArrayAttr>("partners")) {
    result.partners.assign(partners.asArrayRef().begin(),
                           partners.asArrayRef().end());
  } else {
    complete = false;
  }
  if (!complete || result.lane < 0 || result.lane >= result.lanes)
    return malformed();
  return result;
}

LogicalResult lowering::readTransferSites(ModuleOp module,
                                          Transfers &transfers) {
  for (auto func : module.getOps<func::FuncOp>()) {
    DenseMap<int64_t, Value> workspaces;
    DenseMap<int64_t, Operation *> pushes;
    SmallVector<std::pair<Operation *, TransferRecord>> records;
    WalkResult walk = func.walk([&](Operation *op) {
      if (auto id = op->getAttrOfType<IntegerAttr>(kWorkspaceAttr)) {
        workspaces[id.getInt()] = op->getResult(0);
        op->removeAttr(kWorkspaceAttr);
      }
      if (!op->hasAttr(kTransferAttr))
        return WalkResult::advance();
      FailureOr<TransferRecord> record = TransferRecord::of(op);
      if (failed(record))
        return WalkResult::interrupt();
      if (record->id >= 0)
        pushes[record->id] = op;
      records.push_back({op, *record});
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    for (auto &[op, record] : records) {
      TransferSite site;
      site.workspace = workspaces.lookup(record.workspace);
      if (!site.workspace)
        return op->emitOpError() << "names workspace " << record.workspace
                                 << ", which its function does not hold";
      site.lane = record.lane;
      site.lanes = record.lanes;
      site.cut = record.cut;
      for (int64_t partner : record.partners)
        site.partners.push_back(pushes.lookup(partner));
      transfers.sites[op] = site;
      op->removeAttr(kTransferAttr);
    }
  }
  return success();
}

namespace {

/// The part of the workspace lane `site.lane` holds under `split` (all of
/// it for split 0): a view and a window (none when the part is whole rows).
struct LanePart {
  Value view;
  SmallVector<Value, 2> window, strides;
};

LanePart lanePart(OpBuilder &builder, Location loc, const TransferSite &site,
                  int axis, pto::TileType part) {
  LanePart result{site.workspace, {}, {}};
  if (axis < 0 || site.lanes == 1)
    return result;
  ArrayRef<int64_t> box = cast<ShapedType>(site.workspace.getType()).getShape();
  auto [start, extent] = site.laneRange(box[axis], part.getDimSize(axis));
  int64_t rows = axis == 0 ? extent : box[0];
  int64_t cols = axis == 1 ? extent : box[1];
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  int64_t offset = axis == 0 ? start * box[1] : start;
  if (auto mailbox =
          dyn_cast<ascendc::LocalTensorType>(site.workspace.getType()))
    // A UB mailbox: the elements from the lane's first on.
    result.view = ascendc::ReinterpretCastOp::create(
        builder, loc,
        ascendc::LocalTensorType::get(builder.getContext(),
                                      {box[0] * box[1] - offset},
                                      mailbox.getElementType()),
        site.workspace, constant(offset));
  else
    result.view = ascendc::GlobalSubIndexOp::create(
        builder, loc, site.workspace.getType(), site.workspace,
        constant(offset));
  // Whole rows of the box that fill the lane's tile move in one piece.
  if (axis == 1 || rows != part.getDimSize(0)) {
    result.window = {constant(rows), constant(cols)};
    result.strides = {constant(box[1]), constant(part.getDimSize(1))};
  }
  return result;
}

/// The cube's pop of the lanes' parts when lane 0's may be short along
/// the split `axis`: lane 1's part (at the cut in the workspace) must
/// follow lane 0's `lane0` valid cells, `merged` in all. Two windows do it
/// without a local offset: the first copies from `cut - lane0` on, which
/// puts lane 1's part at `lane0` (and workspace padding before it); the
/// second copies lane 0's part over that padding.
void mergeShortParts(OpBuilder &builder, Location loc, const TransferSite &site,
                     int axis, Value local, Value lane0, Value merged) {
  ArrayRef<int64_t> box = cast<ShapedType>(site.workspace.getType()).getShape();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value lead = arith::SubIOp::create(builder, loc, constant(site.cut), lane0);
  Value offset =
      axis == 0 ? arith::MulIOp::create(builder, loc, lead, constant(box[1]))
                : lead;
  Value shifted = ascendc::GlobalSubIndexOp::create(
      builder, loc, site.workspace.getType(), site.workspace, offset);
  auto window = [&](Value extent) -> SmallVector<Value, 2> {
    return axis == 0 ? SmallVector<Value, 2>{extent, constant(box[1])}
                     : SmallVector<Value, 2>{constant(box[0]), extent};
  };
  SmallVector<Value, 2> strides = {constant(box[1]), constant(box[1])};
  ascendc::DataCopyOp::create(builder, loc, local, shifted, Value(),
                              window(merged), strides);
  ascendc::DataCopyOp::create(builder, loc, local, site.workspace, Value(),
                              window(lane0), strides);
}

template <typename From> struct TransferPattern : TilePattern<From> {
  TransferPattern(const TypeConverter &types, MLIRContext *context,
                  ValidShapes &valid, Transfers &transfers)
      : TilePattern<From>(types, context, valid), transfers(transfers) {}

  /// Where `op` moves its tile. A push's tile (`pushed`) moves whole; its
  /// valid shape is kept for the pops it feeds.
  FailureOr<TransferSite> siteOf(Operation *op, Value pushed = {}) const {
    auto it = transfers.sites.find(op);
    if (it == transfers.sites.end())
      return op->emitOpError()
             << "is outside a group, where it has no partner to lower with "
                "(pto-merge-groups places a group's transfers)";
    if (pushed)
      transfers.pushed[op] =
          this->valid.unknown.contains(pushed)
              ? std::nullopt
              : std::optional<ValidShape>(this->valid.lookup(pushed));
    return it->second;
  }

  /// The valid shape of the tile `op` pops, from the pushes of its
  /// partners as the runtime cuts and merges them (GroupRuntime.cpp): a
  /// lane's pop takes its part of the cube's tile along the split axis, the
  /// cube's pop lane 0's part followed by lane 1's. When lane 0's part may
  /// be short along the axis, lane 1's follows it at a run-time row or
  /// column: `lane0Extent` gets lane 0's extent, where the pop must move
  /// lane 1's part. None when it is known only at run time (several pushes
  /// feed the pipe).
  std::optional<ValidShape> poppedShape(OpBuilder &builder, Operation *op,
                                        const TransferSite &site, bool toVector,
                                        pto::TileType tile,
                                        Value *lane0Extent = nullptr) const {
    auto shapeOf = [&](unsigned lane) -> std::optional<ValidShape> {
      Operation *push =
          lane < site.partners.size() ? site.partners[lane] : nullptr;
      auto it = push ? transfers.pushed.find(push) : transfers.pushed.end();
      if (it == transfers.pushed.end() || !it->second)
        return std::nullopt;
      // The extents must be computed where the pop can see them.
      for (Value extent : {it->second->rows, it->second->cols})
        if (extent &&
            !extent.getParentRegion()->isAncestor(op->getParentRegion()))
          return std::nullopt;
      return it->second;
    };
    int axis = splitAxisOf(op);
    Location loc = op->getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    auto extent = [&](ValidShape &shape) -> Value & {
      return axis == 0 ? shape.rows : shape.cols;
    };
    if (toVector) {
      std::optional<ValidShape> shape = shapeOf(site.lane);
      if (!shape || axis < 0 || site.lanes == 1)
        return shape;
      // This lane's part [start, start + size) of the box:
      // clamp(valid - start, 0, size), all of it for a whole box.
      int64_t box = cast<ShapedType>(site.workspace.getType()).getShape()[axis];
      auto [start, size] = site.laneRange(box, tile.getDimSize(axis));
      if (!extent(*shape)) {
        if (size != tile.getDimSize(axis))
          extent(*shape) = constant(size);
        return shape;
      }
      Value left =
          arith::SubIOp::create(builder, loc, extent(*shape), constant(start));
      left = arith::MaxSIOp::create(builder, loc, left, constant(0));
      extent(*shape) =
          arith::MinSIOp::create(builder, loc, left, constant(size));
      return shape;
    }
    std::optional<ValidShape> first = shapeOf(0);
    if (!first || axis < 0 || site.lanes == 1)
      return first;
    std::optional<ValidShape> second = shapeOf(1);
    if (!second)
      return std::nullopt;
    Value half = constant(tile.getShape()[axis] / 2);
    Value more = extent(*second) ? extent(*second) : half;
    if (Value short0 = extent(*first)) {
      if (!lane0Extent)
        return std::nullopt;
      *lane0Extent = short0;
      extent(*first) = arith::AddIOp::create(builder, loc, short0, more);
    } else if (extent(*second)) {
      extent(*first) = arith::AddIOp::create(builder, loc, half, more);
    }
    return first;
  }
  Transfers &transfers;
};

/// The cube pushes its accumulator (a fixpipe into the workspace) or an
/// L1 tile (a data_copy into it: A2/A3's L1 -> GM path, which C310 lacks
/// and its pipeline refuses).
struct PushToAivLowering : TransferPattern<pto::TPushToAivOp> {
  using TransferPattern::TransferPattern;
  LogicalResult
  matchAndRewrite(pto::TPushToAivOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<TransferSite> site = siteOf(op, op.getTile());
    if (failed(site))
      return failure();
    auto tile = cast<pto::TileType>(op.getTile().getType());
    switch (tile.getMemorySpace()) {
    case pto::MemorySpace::Acc:
      ascendc::FixpipeOp::create(rewriter, op.getLoc(), site->workspace,
                                 adaptor.getTile());
      break;
    case pto::MemorySpace::Mat:
      ascendc::DataCopyOp::create(rewriter, op.getLoc(), site->workspace,
                                  adaptor.getTile(), Value(), ValueRange(),
                                  ValueRange());
      break;
    default:
      return op.emitOpError()
             << "pushes a " << stringifyEnum(tile.getMemorySpace())
             << " tile: only the accumulator and L1 reach GM on "
                "their way to the vector core";
    }
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
    // Unsplit, each lane (of a dual dispatch) pushes the whole tile and
    // the cube keeps lane 0's: the other lanes' pushes write nothing.
    int axis = splitAxisOf(op);
    if (axis < 0 && site->lane != 0) {
      rewriter.eraseOp(op);
      return success();
    }
    LanePart part = lanePart(rewriter, op.getLoc(), *site, axis,
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
    Value lane0Extent;
    std::optional<ValidShape> shape = this->poppedShape(
        rewriter, op, *site, ToVector, tile, ToVector ? nullptr : &lane0Extent);
    if (!shape)
      this->valid.unknown.insert(op.getResult());
    else if (shape->rows || shape->cols)
      this->valid.shapes[op.getResult()] = *shape;
    if (lane0Extent) {
      mergeShortParts(rewriter, loc, *site, splitAxisOf(op), local, lane0Extent,
                      splitAxisOf(op) == 0 ? shape->rows : shape->cols);
      rewriter.replaceOp(op, local);
      return success();
    }
    LanePart part = ToVector
                        ? lanePart(rewriter, loc, *site, splitAxisOf(op), tile)
                        : LanePart{site->workspace, {}, {}};
    ascendc::DataCopyOp::create(rewriter, loc, local, part.view, Value(),
                                part.window, part.strides);
    rewriter.replaceOp(op, local);
    return success();
  }
};

} // namespace

void lowering::populateCrossCorePatterns(PTOToAscendCTypes &types,
                                         RewritePatternSet &patterns,
                                         ValidShapes &valid,
                                         Transfers &transfers) {
  patterns.add<PushToAivLowering, PushToAicLowering,
               PopLowering<pto::TPopFromAicOp, true>,
               PopLowering<pto::TPopFromAivOp, false>>(
      types, patterns.getContext(), valid, transfers);
}
