//===- PTOToAscendC.cpp - Lowering PTO kernels to AscendC -----------------===//
//
// A DialectConversion: the type converter maps `!pto.tensor` to
// `!ascendc.global_tensor` and tiles to `!ascendc.local_tensor` (same shape
// and element type); each tile an op produces becomes a placeholder local
// tensor that the op writes, at the position its space and consumers
// choose, so the AscendC memory passes plan it. The patterns, one group per
// file: Transfers.cpp (loads, stores, moves), VectorOps.cpp, CubeOps.cpp,
// CrossCore.cpp (the transfers of groups GroupMerge.cpp merged); here the
// tile ops that only name or reshape a region:
//
//   pto.tile.create         -> a placeholder local tensor
//   pto.tile.set_validshape -> the same tensor, with a valid shape
//   pto.tensor.dim          -> ascendc.global_tensor.dim
//
// Everything else in PTO stays illegal: before converting, the pass names
// every op no pattern takes, with what to write instead (Legality.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Conversion/LocatedConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilekit {
#define GEN_PASS_DEF_CONVERTPTOTOASCENDC
#include "tilekit/Conversion/Passes.h.inc"
} // namespace tilekit

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

PTOToAscendCTypes::PTOToAscendCTypes() {
  addConversion([](Type type) { return type; });
  addConversion([](pto::GMTensorType type) -> Type {
    return ascendc::GlobalTensorType::get(type.getContext(), type.getShape(),
                                          type.getElementType());
  });
  addConversion([](pto::TileType type) -> Type {
    // A mask tile holds Ascend C's bit mask, in bytes (its selMask is a
    // LocalTensor<uint8_t>): only compares and selects make and read it.
    Type element = type.getElementType();
    if (element.isInteger(1))
      element = IntegerType::get(type.getContext(), 8, IntegerType::Unsigned);
    return ascendc::LocalTensorType::get(type.getContext(), type.getShape(),
                                         element);
  });
}

Value lowering::createLocal(OpBuilder &builder, Location loc,
                            const TypeConverter &types, Value result,
                            ascendc::Position position) {
  auto type =
      cast<ascendc::LocalTensorType>(types.convertType(result.getType()));
  Value tensor = ascendc::LocalTensorAutoOp::create(
      builder, loc, type, position, /*input=*/false, /*output=*/false);
  if (Operation *made = result.getDefiningOp()) {
    markLane(tensor, made);
    // A double-buffered loop's buffer set is a reuse group: the two halves'
    // tensors never share storage.
    if (auto set = made->getAttrOfType<IntegerAttr>(
            pto::PTODialect::kBufferSetAttrName))
      tensor.getDefiningOp()->setAttr(
          ascendc::AscendCDialect::kReuseGroupAttrName, set);
  }
  return tensor;
}

void lowering::markLane(Value tensor, Operation *from) {
  if (!from)
    return;
  auto lane = from->getAttrOfType<IntegerAttr>(kLaneAttr);
  if (!lane)
    lane = from->getAttrOfType<IntegerAttr>(
        ascendc::AscendCDialect::kLaneAttrName);
  if (lane)
    tensor.getDefiningOp()->setAttr(
        ascendc::AscendCDialect::kLaneAttrName,
        IntegerAttr::get(IntegerType::get(from->getContext(), 64),
                         lane.getInt()));
}

ascendc::Position lowering::positionFor(Value tile) {
  using pto::MemorySpace;
  switch (cast<pto::TileType>(tile.getType()).getMemorySpace()) {
  case MemorySpace::Vec:
    return ascendc::Position::VecCalc;
  case MemorySpace::Left:
    return ascendc::Position::A2;
  case MemorySpace::Right:
    return ascendc::Position::B2;
  case MemorySpace::Acc:
    return ascendc::Position::CO1;
  case MemorySpace::Bias:
    return ascendc::Position::C2;
  case MemorySpace::Mat:
    break;
  }
  // An L1 tile sits where the operand it feeds is staged.
  for (Operation *user : tile.getUsers())
    if (auto move = dyn_cast<pto::TileMoveOp>(user))
      switch (cast<pto::TileType>(move.getType()).getMemorySpace()) {
      case MemorySpace::Right:
        return ascendc::Position::B1;
      case MemorySpace::Bias:
        return ascendc::Position::C1;
      default:
        break;
      }
  return ascendc::Position::A1;
}

Value lowering::extentOr(OpBuilder &builder, Location loc, Value given,
                         int64_t full) {
  return given ? given
               : arith::ConstantIndexOp::create(builder, loc, full).getResult();
}

LogicalResult lowering::ValidShapes::record(Operation *op, ValueRange extents) {
  if (extents.empty())
    return success();
  auto tile = cast<pto::TileType>(op->getResult(0).getType());
  // Extents equal to the tile's own are no restriction.
  auto partial = [&](int64_t d) -> Value {
    std::optional<int64_t> extent = getConstantIntValue(extents[d]);
    return extent && *extent == tile.getShape()[d] ? Value() : extents[d];
  };
  if (tile.getRank() != 2 && tile.getMemorySpace() != pto::MemorySpace::Vec)
    return op->emitOpError() << "gives a rank-" << tile.getRank()
                             << " cube tile a valid shape, which is lowered "
                                "for 2-d tiles";
  ValidShape shape;
  shape.rows = partial(0);
  for (int64_t d = 1; d < tile.getRank(); ++d) {
    if (!partial(d))
      continue;
    if (tile.getRank() != 2)
      return op->emitOpError() << "gives a rank-" << tile.getRank()
                               << " tile a valid shape that is not whole "
                                  "rows, which is lowered for 2-d tiles";
    shape.cols = partial(d);
  }
  shapes[op->getResult(0)] = shape;
  return success();
}

FailureOr<ValidShape> lowering::ValidShapes::require(Operation *user,
                                                     Value tile) const {
  if (unknown.contains(tile))
    return user->emitOpError()
           << "needs the valid shape of a tile popped from a pipe that "
              "several pushes feed, which is known only at run time; give "
              "it one with pto.tile.set_validshape first";
  return lookup(tile);
}

namespace {

/// pto.tile.create -> a placeholder at the tile's position.
struct TileCreateLowering : TilePattern<pto::TileCreateOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileCreateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(valid.record(op, adaptor.getValidShape())))
      return failure();
    rewriter.replaceOp(op, createLocal(rewriter, op.getLoc(),
                                       *getTypeConverter(), op.getResult(),
                                       positionFor(op.getResult())));
    return success();
  }
};

/// pto.tile.set_validshape -> the same tensor; the region is recorded.
struct SetValidShapeLowering : TilePattern<pto::TileSetValidShapeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileSetValidShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(valid.record(op, adaptor.getValidShape())))
      return failure();
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// pto.tile.valid_dim -> the extent the lowering follows (a value of the
/// kernel), or the tile's own extent when that dimension is whole.
struct ValidDimLowering : TilePattern<pto::TileValidDimOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileValidDimOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
    if (failed(shape))
      return failure();
    auto tile = cast<pto::TileType>(op.getSrc().getType());
    int64_t dim = op.getDim();
    Value extent = dim == 0 ? shape->rows : dim == 1 ? shape->cols : Value();
    rewriter.replaceOp(
        op, extentOr(rewriter, op.getLoc(), extent, tile.getShape()[dim]));
    return success();
  }
};

/// pto.tile.reshape -> a reinterpret cast of the same storage (of a whole
/// tile: the executor rejects a partial one, whose valid region a new shape
/// would scramble).
struct ReshapeLowering : TilePattern<pto::TileReshapeOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ValidShape> shape = valid.require(op, op.getSrc());
    if (failed(shape))
      return failure();
    if (shape->rows || shape->cols)
      return op.emitOpError() << "reshapes a tile whose valid shape is not "
                                 "its whole box";
    rewriter.replaceOpWithNewOp<ascendc::ReinterpretCastOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSrc());
    return success();
  }
};

/// pto.tensor.dim -> ascendc.global_tensor.dim.
struct TensorDimLowering : OpConversionPattern<pto::TensorDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(pto::TensorDimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ascendc::GlobalDimOp>(
        op, rewriter.getIndexType(), adaptor.getSrc(), op.getDimAttr());
    return success();
  }
};

/// pto.tensor.view -> ascendc.global_tensor.reshape: the same GM address
/// with the view's extents (a work item's call passes them).
struct TensorViewLowering : OpConversionPattern<pto::TensorViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(pto::TensorViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ascendc::GlobalReshapeOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSrc(),
        adaptor.getSizes());
    return success();
  }
};

/// pto.tensor.create (a GM scratch tensor of the host) -> a region of the
/// kernel workspace the host allocates, of the same run-time extents.
struct TensorCreateLowering : OpConversionPattern<pto::TensorCreateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(pto::TensorCreateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ascendc::WorkspaceOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getSizes());
    return success();
  }
};

/// pto.tile.get_block_idx / get_block_num / get_subblock_idx -> the
/// AscendC queries (in a merged group the lanes' sub-block index is
/// already their constant).
template <typename From, typename To>
struct IndexQueryLowering : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<To>(op, rewriter.getIndexType());
    return success();
  }
};

/// pto.system.sync_src / sync_dst / bar_* -> nothing: the compiled kernel
/// is synchronized by the AscendC pipeline, which derives its flags and
/// barriers from what each instruction reads and writes
/// (ascendc-insert-pipe-sync), as the executor checks the PTO ones.
template <typename From> struct SyncLowering : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void lowering::populatePTOToAscendCPatterns(PTOToAscendCTypes &types,
                                            RewritePatternSet &patterns,
                                            ValidShapes &valid,
                                            Transfers &transfers) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<TensorDimLowering, TensorViewLowering, TensorCreateLowering,
           IndexQueryLowering<pto::GetBlockIdxOp, ascendc::GetBlockIdxOp>,
           IndexQueryLowering<pto::GetBlockNumOp, ascendc::GetBlockNumOp>,
           IndexQueryLowering<pto::GetSubblockIdxOp, ascendc::GetSubBlockIdxOp>,
           SyncLowering<pto::SyncSrcOp>, SyncLowering<pto::SyncDstOp>,
           SyncLowering<pto::BarVOp>, SyncLowering<pto::BarMOp>,
           SyncLowering<pto::BarAllOp>>(types, context);
  patterns.add<TileCreateLowering, SetValidShapeLowering, ValidDimLowering,
               ReshapeLowering>(types, context, valid);
  populateTransferPatterns(types, patterns, valid);
  populateVectorPatterns(types, patterns, valid);
  populateCompositePatterns(types, patterns, valid);
  populateIndexPatterns(types, patterns, valid);
  populateRegionPatterns(types, patterns, valid);
  populateCubePatterns(types, patterns, valid);
  populateCrossCorePatterns(types, patterns, valid, transfers);
}

namespace {

struct ConvertPTOToAscendCPass
    : tilekit::impl::ConvertPTOToAscendCBase<ConvertPTOToAscendCPass> {
  using ConvertPTOToAscendCBase::ConvertPTOToAscendCBase;
  void runOnOperation() override {
    // Register scopes have their own path: separately compiled helpers.
    WalkResult scopes = getOperation().walk([](pto::RegScopeOp scope) {
      scope.emitOpError("is not lowered to AscendC; register scopes are "
                        "compiled by `tilekit compile --emit=vf-bundle` "
                        "(docs/vector-functions.md)");
      return WalkResult::interrupt();
    });
    if (scopes.wasInterrupted() || failed(inlineTileCalls(getOperation())))
      return signalPassFailure();
    // A counted while that carries a tile is the scf.for whose tiles the
    // lowering homes.
    liftCountedWhileLoops(getOperation(), [](scf::WhileOp loop) {
      return llvm::any_of(loop->getResultTypes(), llvm::IsaPred<pto::TileType>);
    });
    MLIRContext *context = &getContext();
    // Orchestration functions are the host side: they launch the kernels.
    getOperation().walk([&](func::FuncOp func) {
      if (pto::getFunctionKind(func) == pto::FunctionKind::Orchestration)
        func->setAttr(ascendc::AscendCDialect::kHostAttrName,
                      UnitAttr::get(context));
    });
    // A group's members are checked by the merge, before their lanes'
    // clones share addresses.
    SmallVector<func::FuncOp> unmerged;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (pto::getFunctionKind(func) == pto::FunctionKind::Group &&
          !func.isExternal()) {
        func.emitOpError() << "is a group: pto-merge-groups builds its "
                              "kernel from its members before the lowering";
        return signalPassFailure();
      }
      if (!func->removeAttr(kMergedGroupAttr))
        unmerged.push_back(func);
    }
    // Every op no pattern takes, each with what to write instead (all of
    // them, and the conversion's refusals after, with every-refusal).
    llvm::DenseSet<Operation *> refused;
    {
      PTOToAscendCTypes types;
      ValidShapes valid;
      Transfers transfers;
      RewritePatternSet patterns(context);
      populatePTOToAscendCPatterns(types, patterns, valid, transfers);
      if (failed(checkEveryOpLowers(getOperation(), takenOps(patterns),
                                    &refused)) &&
          !everyRefusal)
        return signalPassFailure();
    }
    if (failed(checkNoLiveAliases(unmerged)))
      return signalPassFailure();
    bool clean = refused.empty();
    // A failed conversion leaves the IR as it was: with every-refusal the
    // op it stopped at stays PTO (legal) on the next try, and the next
    // refusal is found.
    for (unsigned attempt = 0;; ++attempt) {
      FailureOr<Operation *> stopped = convertOnce(refused);
      if (succeeded(stopped) && !*stopped)
        break;
      clean = false;
      if (failed(stopped) || !everyRefusal || attempt == kMaxRefusals)
        return signalPassFailure();
      refused.insert(*stopped);
    }
    if (!clean)
      return signalPassFailure();
    if (failed(dropCarriedTensors()))
      return signalPassFailure();
    // The lanes are now on the tensors.
    getOperation().walk([](Operation *op) { op->removeAttr(kLaneAttr); });
  }

  /// How many refusals every-refusal lists before it stops.
  static constexpr unsigned kMaxRefusals = 100;

  /// One dialect conversion, the ops in `refused` kept as they are: null
  /// when it succeeds, else the op it stopped at (its error reported,
  /// unless it only uses what a refused op made), or failure when that op
  /// cannot be told.
  FailureOr<Operation *>
  convertOnce(const llvm::DenseSet<Operation *> &refused) {
    MLIRContext *context = &getContext();
    PTOToAscendCTypes types;
    ConversionTarget target(*context);
    target.addLegalDialect<ascendc::AscendCDialect, arith::ArithDialect>();
    target.addDynamicallyLegalDialect<pto::PTODialect>(
        [&](Operation *op) { return refused.contains(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return types.isSignatureLegal(func.getFunctionType()) &&
             types.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return types.isLegal(op); });

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   types);
    populateReturnOpTypeConversionPattern(patterns, types);
    populateCallOpTypeConversionPattern(patterns, types);
    scf::populateSCFStructuralTypeConversionsAndLegality(types, patterns,
                                                         target);
    ValidShapes valid;
    Transfers transfers;
    populatePTOToAscendCPatterns(types, patterns, valid, transfers);
    if (failed(readTransferSites(getOperation(), transfers)))
      return failure();
    findLoadsPastEdge(getOperation(), valid);
    recordLoopCarriedTiles(getOperation(), valid);
    if (refused.empty() && !everyRefusal) {
      if (failed(convertSayingWhy(
              getOperation(),
              "is not lowered to AscendC in this form (its operands' types, "
              "spaces or shapes)",
              [&] {
                return applyPartialConversion(getOperation(), target,
                                              std::move(patterns));
              })))
        return failure();
      return static_cast<Operation *>(nullptr);
    }
    // Listing: the pattern's errors are held until the op they stopped at
    // is known, and dropped when that op only uses what a refused op made
    // (its operands were never converted).
    SmallVector<Diagnostic> held;
    std::optional<Location> stoppedAt;
    std::string stoppedName;
    bool leftMaterializations = false;
    LogicalResult converted = success();
    {
      ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
        if (diag.getSeverity() != DiagnosticSeverity::Error)
          return failure();
        std::string message = diag.str();
        StringRef text = message;
        // What a refused op made, still used by converted ops: no
        // refusal of its own.
        if (text.starts_with("failed to legalize unresolved materialization")) {
          leftMaterializations = true;
          return success();
        }
        if (text.consume_front("failed to legalize operation '")) {
          if (!stoppedAt) {
            stoppedAt = diag.getLocation();
            stoppedName =
                text.take_until([](char c) { return c == '\''; }).str();
          }
          return success();
        }
        held.push_back(std::move(diag));
        return success();
      });
      converted =
          applyPartialConversion(getOperation(), target, std::move(patterns));
    }
    if (succeeded(converted) || (!stoppedAt && leftMaterializations)) {
      for (Diagnostic &diag : held)
        context->getDiagEngine().emit(std::move(diag));
      return static_cast<Operation *>(nullptr);
    }
    Operation *stopped = nullptr;
    if (stoppedAt)
      getOperation().walk([&](Operation *op) {
        if (op->getLoc() == *stoppedAt &&
            op->getName().getStringRef() == stoppedName &&
            !refused.contains(op)) {
          stopped = op;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
    if (!stopped) {
      for (Diagnostic &diag : held)
        context->getDiagEngine().emit(std::move(diag));
      return failure();
    }
    bool followsRefusal = llvm::any_of(stopped->getOperands(), [&](Value v) {
      return refused.contains(v.getDefiningOp());
    });
    if (!followsRefusal) {
      if (held.empty())
        stopped->emitOpError()
            << "is not lowered to AscendC in this form (its operands' types, "
               "spaces or shapes)";
      for (Diagnostic &diag : held)
        context->getDiagEngine().emit(std::move(diag));
    }
    return stopped;
  }

  /// A tile updated in place across loop trips (an accumulator) is now the
  /// same local tensor on every trip: scf.for's canonicalization drops the
  /// iter_arg that yields itself. A vector tile replaced by a new one each
  /// trip gets a home first (`homeCarriedTiles`), so that it is one too.
  LogicalResult dropCarriedTensors() {
    if (failed(homeCarriedTiles()))
      return failure();
    RewritePatternSet patterns(&getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    // Only the loops change: no folding, no constants moved.
    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return failure();
    return success();
  }

  /// Each vector tile a loop carries, replaced by a new one each trip,
  /// lives in a home tensor: a fresh placeholder before the loop, holding a
  /// copy of the initial tile; the body reads the home, and its end copies
  /// the trip's new tile into it (UB to UB). The loop then yields the home
  /// unchanged, and the result is the home. Cube tiles have no such copy.
  LogicalResult homeCarriedTiles() {
    WalkResult result = getOperation().walk([&](scf::ForOp loop) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      SmallVector<std::pair<unsigned, Value>> homes;
      for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
        Value next = yield.getOperand(index);
        if (!isa<ascendc::LocalTensorType>(arg.getType()) || next == arg)
          continue;
        Value init = loop.getInitArgs()[index];
        std::optional<ascendc::Position> position = ascendc::getPosition(init);
        if (!position || ascendc::getBuffer(*position) != ascendc::Buffer::UB) {
          loop.emitError() << "carries a new cube tile across its trips "
                              "(iter_arg "
                           << index
                           << "), which is not lowered to AscendC; update "
                              "the tile in place";
          return WalkResult::interrupt();
        }
        OpBuilder builder(loop);
        Value home = ascendc::LocalTensorAutoOp::create(
            builder, loop.getLoc(),
            cast<ascendc::LocalTensorType>(arg.getType()),
            ascendc::Position::VecCalc, false, false);
        markLane(home, init.getDefiningOp());
        ascendc::DataCopyOp::create(builder, loop.getLoc(), home, init);
        homes.emplace_back(index, home);
      }
      for (auto [index, home] : homes) {
        loop.getRegionIterArgs()[index].replaceAllUsesWith(home);
        loop.getResult(index).replaceAllUsesWith(home);
      }
      // The trip's end assigns all homes at once: a tile that is another
      // home (carried tiles that trade places) is read into a temporary
      // before any home is written.
      OpBuilder builder(yield);
      Location loc = yield.getLoc();
      llvm::SmallPtrSet<Value, 4> written;
      for (auto [index, home] : homes)
        written.insert(home);
      SmallVector<Value> sources;
      for (auto [index, home] : homes) {
        Value next = yield.getOperand(index);
        if (next != home && written.contains(next)) {
          Value temporary = ascendc::LocalTensorAutoOp::create(
              builder, loc, cast<ascendc::LocalTensorType>(next.getType()),
              ascendc::Position::VecCalc, false, false);
          markLane(temporary, next.getDefiningOp());
          ascendc::DataCopyOp::create(builder, loc, temporary, next);
          next = temporary;
        }
        sources.push_back(next);
      }
      for (auto [carried, source] : llvm::zip_equal(homes, sources)) {
        auto [index, home] = carried;
        if (source != home)
          ascendc::DataCopyOp::create(builder, loc, home, source);
        yield->setOperand(index, loop.getRegionIterArgs()[index]);
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }
};

} // namespace
