//===- PTOToAscendC.cpp - Lowering PTO kernels to AscendC -----------------===//
//
// A DialectConversion: the type converter maps `!pto.tensor` to
// `!ascendc.global_tensor` and vector tiles to `!ascendc.local_tensor`
// (same shape and element type); each tile result becomes a placeholder
// local tensor that its op writes (VECIN for loads, VECCALC for computed
// tiles), so the AscendC memory passes plan it. What lowers today:
//
//   pto.tile.load / store  -> global_tensor.subindex + data_copy (a tile of
//                             whole rows of its tensor: one contiguous copy;
//                             a valid shape of whole rows: a counted copy,
//                             and the store copies the same count)
//   pto.tile.<binary>      -> ascendc.<binary>_l2 (add sub mul div max min)
//   pto.tile.<binary>s     -> ascendc.<binary>s_l2 (adds muls maxs mins)
//   pto.tile.<unary>       -> ascendc.<unary>_l2 (exp log sqrt rsqrt recip
//                             abs relu)
//   pto.tile.cast          -> ascendc.cast_l2 (the same round mode)
//   pto.tile.row_expand[_<op>], col_expand[_<op>]
//                          -> ascendc.broadcast (axis 1 or 0), then the
//                             binary op (expdif: sub, then exp; f32 only)
//   pto.tile.row_<fold>, col_<fold>
//                          -> ascendc.reduce_<fold> (axis 1 or 0; the
//                             valid rows of a ragged tile)
//   pto.tensor.dim         -> ascendc.global_tensor.dim
//
// Everything else in PTO stays illegal, so the conversion fails with an
// error at the first op it cannot lower, naming it.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/PTOToAscendC.h"

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilekit;

namespace {

class PTOToAscendCTypes : public TypeConverter {
public:
  PTOToAscendCTypes() {
    addConversion([](Type type) { return type; });
    addConversion([](pto::GMTensorType type) -> Type {
      return ascendc::GlobalTensorType::get(type.getContext(), type.getShape(),
                                            type.getElementType());
    });
    addConversion([](pto::TileType type) -> std::optional<Type> {
      if (type.getMemorySpace() != pto::MemorySpace::Vec)
        return std::nullopt; // cube tiles are not lowered yet
      return ascendc::LocalTensorType::get(type.getContext(), type.getShape(),
                                           type.getElementType());
    });
  }
};

/// A fresh local tensor for the tile `result` at `position`.
Value createLocal(ConversionPatternRewriter &rewriter, Location loc,
                  const TypeConverter &types, Value result,
                  ascendc::Position position) {
  auto type =
      cast<ascendc::LocalTensorType>(types.convertType(result.getType()));
  return ascendc::LocalTensorAutoOp::create(rewriter, loc, type, position,
                                            /*input=*/false, /*output=*/false);
}

/// How many leading rows of each partial tile hold data: a tile load with
/// a valid shape of whole rows has that many; ops that keep the rows of an
/// operand pass them on (elementwise ops, row reductions and expansions),
/// a column reduction folds them, and a store copies rows x row elements.
/// Keyed by the PTO tile value.
struct ValidRows {
  llvm::DenseMap<Value, Value> rows;
  /// `result` has the valid rows of `from` (when they are known).
  void inherit(Value result, Value from) {
    if (Value count = rows.lookup(from))
      rows[result] = count;
  }
  /// Whether the module loads a partial tile anywhere: then a store of a
  /// tile whose rows the lowering cannot follow (through scf results)
  /// cannot be lowered, since it might write the padding rows.
  bool anyPartial = false;
};

/// The elements in the first `rows` rows of a tensor of `type`.
Value elementsInRows(OpBuilder &builder, Location loc, Value rows,
                     ShapedType type) {
  int64_t rowElements = 1;
  for (int64_t d = 1; d < type.getRank(); ++d)
    rowElements *= type.getDimSize(d);
  Value stride = arith::ConstantIndexOp::create(builder, loc, rowElements);
  return arith::MulIOp::create(builder, loc, rows, stride);
}

/// The element offset in `tensor` where the tile at `offsets` starts, when
/// the tile is whole rows of it (so one contiguous copy moves it).
FailureOr<Value> contiguousOffset(ConversionPatternRewriter &rewriter,
                                  Operation *op, pto::GMTensorType tensor,
                                  pto::TileType tile, ValueRange offsets) {
  if (tensor.getRank() != tile.getRank())
    return op->emitOpError() << "moves a tile of another rank than its "
                                "tensor's, which is not lowered yet";
  for (int64_t d = 1; d < tensor.getRank(); ++d)
    if (ShapedType::isDynamic(tensor.getShape()[d]))
      return op->emitOpError() << "moves a tile of a tensor whose rows are "
                                  "dynamic, which is not lowered yet";
  for (int64_t d = 1; d < tile.getRank(); ++d) {
    std::optional<int64_t> offset = getConstantIntValue(offsets[d]);
    if (tile.getShape()[d] != tensor.getShape()[d] || !offset || *offset != 0)
      return op->emitOpError()
             << "moves a tile that is not whole rows of its tensor; strided "
                "copies are not lowered to AscendC yet";
  }
  int64_t rowElements = 1;
  for (int64_t d = 1; d < tensor.getRank(); ++d)
    rowElements *= tensor.getShape()[d];
  Location loc = op->getLoc();
  Value stride = arith::ConstantIndexOp::create(rewriter, loc, rowElements);
  return arith::MulIOp::create(rewriter, loc, offsets.front(), stride)
      .getResult();
}

/// The valid rows of a tile load whose valid shape is whole rows (the
/// columns valid are all of them).
FailureOr<Value> wholeRowsValid(pto::TileLoadOp op, ValueRange valid) {
  auto tile = cast<pto::TileType>(op.getType());
  for (int64_t d = 1; d < tile.getRank(); ++d) {
    std::optional<int64_t> extent = getConstantIntValue(valid[d]);
    if (!extent || *extent != tile.getShape()[d])
      return op.emitOpError() << "loads a tile whose valid shape is not whole "
                                 "rows; masks for partial rows are not "
                                 "lowered yet";
  }
  return valid.front();
}

/// A pattern that reads or records the valid rows of tiles.
template <typename From> struct TilePattern : OpConversionPattern<From> {
  TilePattern(const TypeConverter &types, MLIRContext *context,
              ValidRows &valid)
      : OpConversionPattern<From>(types, context), valid(valid) {}
  ValidRows &valid;
};

struct TileLoadLowering : TilePattern<pto::TileLoadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value count;
    auto tile = cast<pto::TileType>(op.getType());
    if (!op.getValidShape().empty()) {
      FailureOr<Value> rows = wholeRowsValid(op, adaptor.getValidShape());
      if (failed(rows))
        return failure();
      valid.rows[op.getResult()] = *rows;
      count = elementsInRows(rewriter, op.getLoc(), *rows, tile);
    }
    FailureOr<Value> offset = contiguousOffset(
        rewriter, op, cast<pto::GMTensorType>(op.getSrc().getType()), tile,
        adaptor.getOffsets());
    if (failed(offset))
      return failure();
    Location loc = op.getLoc();
    Value view = ascendc::GlobalSubIndexOp::create(
        rewriter, loc, adaptor.getSrc().getType(), adaptor.getSrc(), *offset);
    Value local = createLocal(rewriter, loc, *getTypeConverter(),
                              op.getResult(), ascendc::Position::VecIn);
    ascendc::DataCopyOp::create(rewriter, loc, local, view, count);
    rewriter.replaceOp(op, local);
    return success();
  }
};

struct TileStoreLowering : TilePattern<pto::TileStoreOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A partial tile stores its valid rows only; a tile that comes from an
    // scf result or a block argument may be partial, unknown here.
    Value rows = valid.rows.lookup(op.getTile());
    Operation *producer = op.getTile().getDefiningOp();
    if (!rows && valid.anyPartial &&
        (!producer || !isa<pto::PTODialect>(producer->getDialect())))
      return op.emitOpError()
             << "stores a tile whose valid shape the lowering cannot follow "
                "here (it comes through an scf result); store it where it "
                "is computed";
    if (op.getAtomicAdd())
      return op.emitOpError() << "stores with atomic_add, which is not "
                                 "lowered to AscendC yet";
    FailureOr<Value> offset = contiguousOffset(
        rewriter, op, cast<pto::GMTensorType>(op.getDst().getType()),
        cast<pto::TileType>(op.getTile().getType()), adaptor.getOffsets());
    if (failed(offset))
      return failure();
    Location loc = op.getLoc();
    Value count;
    if (rows)
      count = elementsInRows(rewriter, loc, rows,
                             cast<ShapedType>(op.getTile().getType()));
    Value view = ascendc::GlobalSubIndexOp::create(
        rewriter, loc, adaptor.getDst().getType(), adaptor.getDst(), *offset);
    ascendc::DataCopyOp::create(rewriter, loc, view, adaptor.getTile(), count);
    // The stored tensor is the same GM buffer.
    rewriter.replaceOp(op, adaptor.getDst());
    return success();
  }
};

/// A tile op whose operands map one to one onto an AscendC L2 op that
/// writes a fresh local tensor.
template <typename From, typename To>
struct ElementwiseLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The result takes the valid shape of the first operand.
    this->valid.inherit(op.getResult(), op->getOperand(0));
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    SmallVector<Value> operands{dst};
    llvm::append_range(operands, adaptor.getOperands());
    // The optional count stays absent: the whole tensor (what lies past
    // a partial tile's rows is never stored).
    To::create(rewriter, loc, TypeRange(), operands,
               ArrayRef<NamedAttribute>());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.cast -> ascendc.cast_l2 with the same round mode (none when
/// absent); the result keeps the source's valid shape.
struct TileCastLowering : TilePattern<pto::TileCastOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(pto::TileCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    valid.inherit(op.getResult(), op.getSrc());
    Value dst = createLocal(rewriter, loc, *getTypeConverter(), op.getResult(),
                            ascendc::Position::VecCalc);
    // Numbered alike (lib/Registration/EnumAgreement.cpp).
    auto mode = static_cast<ascendc::RoundMode>(
        op.getRound().value_or(pto::RoundMode::None));
    ascendc::CastL2Op::create(rewriter, loc, dst, adaptor.getSrc(), mode,
                              Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// `rhs` (M x 1 for a row expansion, 1 x N for a column one) broadcast to
/// the shape of `like` in a fresh VECCALC tensor.
Value broadcastTo(ConversionPatternRewriter &rewriter, Location loc, Value rhs,
                  Type like, bool isRow) {
  auto shape = cast<ascendc::LocalTensorType>(like);
  auto type = ascendc::LocalTensorType::get(
      rewriter.getContext(), shape.getShape(),
      cast<ascendc::LocalTensorType>(rhs.getType()).getElementType());
  Value wide = ascendc::LocalTensorAutoOp::create(
      rewriter, loc, type, ascendc::Position::VecCalc, false, false);
  ascendc::BroadcastOp::create(rewriter, loc, wide, rhs, isRow ? 1 : 0);
  return wide;
}

/// pto.tile.row_expand / col_expand -> ascendc.broadcast; a row expansion
/// keeps its column's valid rows.
template <typename From, bool IsRow> struct ExpandLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (IsRow)
      this->valid.inherit(op.getResult(), op.getSrc());
    Type result = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, broadcastTo(rewriter, op.getLoc(), adaptor.getSrc(),
                                       result, IsRow));
    return success();
  }
};

/// pto.tile.row_<fold> / col_<fold> -> ascendc.reduce_<fold> along axis 1
/// or 0, folding the valid rows of a partial tile only; a row reduction
/// keeps them.
template <typename From, typename To, bool IsRow>
struct ReduceLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (cast<pto::TileType>(op.getType()).getRank() != 2)
      return op.emitOpError() << "reduces a tile of rank other than 2, "
                                 "which is not lowered to AscendC yet";
    if (IsRow)
      this->valid.inherit(op.getResult(), op.getSrc());
    Location loc = op.getLoc();
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    To::create(rewriter, loc, dst, adaptor.getSrc(), IsRow ? 1 : 0,
               this->valid.rows.lookup(op.getSrc()));
    rewriter.replaceOp(op, dst);
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

/// pto.tile.row_expand_<op> / col_expand_<op> -> broadcast, then the
/// binary op (expdif: sub, then exp). The result keeps lhs's valid shape.
template <typename From, typename To, bool IsRow, bool ExpDif = false>
struct ExpandBinaryLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<ascendc::LocalTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    // The tile op keeps exp's argument in f32; in a narrower tensor the
    // difference would round first.
    if (ExpDif && !type.getElementType().isF32())
      return op.emitOpError()
             << "computes exp of a difference in " << type.getElementType()
             << ", which is lowered only for f32 tiles";
    this->valid.inherit(op.getResult(), op.getLhs());
    Value wide = broadcastTo(rewriter, loc, adaptor.getRhs(), type, IsRow);
    Value dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                            op.getResult(), ascendc::Position::VecCalc);
    To::create(rewriter, loc, TypeRange(),
               ValueRange{dst, adaptor.getLhs(), wide},
               ArrayRef<NamedAttribute>());
    if (ExpDif)
      ascendc::ExpL2Op::create(rewriter, loc, dst, dst, Value());
    rewriter.replaceOp(op, dst);
    return success();
  }
};

struct ConvertPTOToAscendCPass
    : PassWrapper<ConvertPTOToAscendCPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertPTOToAscendCPass)

  StringRef getArgument() const final { return "convert-pto-to-ascendc"; }
  StringRef getDescription() const final {
    return "Lower PTO kernels to the AscendC dialect (vector tiles, "
           "whole-row loads and stores, elementwise ops, folds)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<ascendc::AscendCDialect, arith::ArithDialect>();
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    PTOToAscendCTypes types;
    ConversionTarget target(*context);
    target.addLegalDialect<ascendc::AscendCDialect, arith::ArithDialect>();
    target.addIllegalDialect<pto::PTODialect>();
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
    ValidRows valid;
    getOperation().walk([&](pto::TileLoadOp load) {
      valid.anyPartial |= !load.getValidShape().empty();
    });
    patterns.add<TileLoadLowering, TileStoreLowering, TileCastLowering,
                 ElementwiseLowering<pto::TileAddOp, ascendc::AddL2Op>,
                 ElementwiseLowering<pto::TileSubOp, ascendc::SubL2Op>,
                 ElementwiseLowering<pto::TileMulOp, ascendc::MulL2Op>,
                 ElementwiseLowering<pto::TileDivOp, ascendc::DivL2Op>,
                 ElementwiseLowering<pto::TileMaxOp, ascendc::MaxL2Op>,
                 ElementwiseLowering<pto::TileMinOp, ascendc::MinL2Op>,
                 ElementwiseLowering<pto::TileAddSOp, ascendc::AddsL2Op>,
                 ElementwiseLowering<pto::TileMulSOp, ascendc::MulsL2Op>,
                 ElementwiseLowering<pto::TileMaxSOp, ascendc::MaxsL2Op>,
                 ElementwiseLowering<pto::TileMinSOp, ascendc::MinsL2Op>,
                 ElementwiseLowering<pto::TileExpOp, ascendc::ExpL2Op>,
                 ElementwiseLowering<pto::TileLogOp, ascendc::LnL2Op>,
                 ElementwiseLowering<pto::TileSqrtOp, ascendc::SqrtL2Op>,
                 ElementwiseLowering<pto::TileRsqrtOp, ascendc::RsqrtL2Op>,
                 ElementwiseLowering<pto::TileRecipOp, ascendc::ReciprocalL2Op>,
                 ElementwiseLowering<pto::TileAbsOp, ascendc::AbsL2Op>,
                 ElementwiseLowering<pto::TileReluOp, ascendc::ReluL2Op>>(
        types, context, valid);
    patterns.add<TensorDimLowering>(types, context);
    patterns.add<ExpandLowering<pto::TileRowExpandOp, true>,
                 ExpandLowering<pto::TileColExpandOp, false>>(types, context,
                                                              valid);
#define REDUCE(STEM)                                                           \
  ReduceLowering<pto::TileRow##STEM##Op, ascendc::Reduce##STEM##Op, true>,     \
      ReduceLowering<pto::TileCol##STEM##Op, ascendc::Reduce##STEM##Op, false>
    patterns.add<REDUCE(Sum), REDUCE(Max), REDUCE(Min), REDUCE(Prod)>(
        types, context, valid);
#undef REDUCE
#define EXPAND(STEM, TO)                                                       \
  ExpandBinaryLowering<pto::TileRowExpand##STEM##Op, ascendc::TO, true>,       \
      ExpandBinaryLowering<pto::TileColExpand##STEM##Op, ascendc::TO, false>
    patterns
        .add<EXPAND(Add, AddL2Op), EXPAND(Sub, SubL2Op), EXPAND(Mul, MulL2Op),
             EXPAND(Div, DivL2Op), EXPAND(Max, MaxL2Op), EXPAND(Min, MinL2Op),
             ExpandBinaryLowering<pto::TileRowExpandExpDifOp, ascendc::SubL2Op,
                                  true, true>,
             ExpandBinaryLowering<pto::TileColExpandExpDifOp, ascendc::SubL2Op,
                                  false, true>>(types, context, valid);
#undef EXPAND
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> tilekit::createConvertPTOToAscendCPass() {
  return std::make_unique<ConvertPTOToAscendCPass>();
}

void tilekit::registerConvertPTOToAscendCPass() {
  PassRegistration<ConvertPTOToAscendCPass>();
}
