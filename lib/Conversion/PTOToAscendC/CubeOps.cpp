//===- CubeOps.cpp - Tile matmuls to mmad ---------------------------------===//
//
//   pto.tile.matmul %a, %b            -> a fresh CO1 tensor, mmad (init)
//   pto.tile.matmul_acc %c, %a, %b [init %p]
//                                     -> mmad into %c's tensor, init %p
//                                        (false without it): in place
//   pto.tile.gemv[_acc]               -> the same, with m = 1
//   pto.tile.batch_matmul[_acc]       -> one mmad per batch, on views
//   pto.tile.matmul_bias %a, %b, %bias
//                                     -> a fresh CO1 tensor, mmad with the
//                                        bias table operand (C2)
//
// m and n are the operand tiles' extents, k the left operand's valid
// columns (else its extent), as the tile matmul multiplies: padding columns
// of A and rows of B past k are never read, and rows and columns of the
// result past the valid ones are computed but never stored. The result's
// valid shape is A's valid rows by B's valid columns.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::lowering;

namespace {

template <typename From> struct MatmulLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhs = cast<pto::TileType>(op.getLhs().getType());
    auto rhs = cast<pto::TileType>(op.getRhs().getType());
    if (lhs.getRank() != 2)
      return op.emitOpError() << "multiplies rank-" << lhs.getRank()
                              << " tiles; a batch of matrices is "
                                 "pto.tile.batch_matmul";
    Location loc = op.getLoc();
    FailureOr<ValidShape> lhsShape = this->valid.require(op, op.getLhs());
    FailureOr<ValidShape> rhsShape = this->valid.require(op, op.getRhs());
    if (failed(lhsShape) || failed(rhsShape))
      return failure();
    ValidShape a = *lhsShape, b = *rhsShape;
    Value m = arith::ConstantIndexOp::create(rewriter, loc, lhs.getShape()[0]);
    Value n = arith::ConstantIndexOp::create(rewriter, loc, rhs.getShape()[1]);
    Value k = extentOr(rewriter, loc, a.cols, lhs.getShape()[1]);
    Value dst, init, bias;
    if constexpr (std::is_same_v<From, pto::TileMatmulBiasOp>)
      bias = adaptor.getBias();
    if constexpr (std::is_same_v<From, pto::TileMatmulAccOp> ||
                  std::is_same_v<From, pto::TileGemvAccOp>) {
      dst = adaptor.getAcc();
      init = adaptor.getInitCond();
      if (!init)
        init = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
    } else {
      dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                        op.getResult(), ascendc::Position::CO1);
    }
    ascendc::MmadOp::create(rewriter, loc, dst, adaptor.getLhs(),
                            adaptor.getRhs(), bias, m, n, k, init);
    if (a.rows || b.cols)
      this->valid.shapes[op.getResult()] = ValidShape{a.rows, b.cols};
    rewriter.replaceOp(op, dst);
    return success();
  }
};

/// pto.tile.batch_matmul[_acc]: one mmad per batch on the batch's views of
/// the 3-d operand tensors (a cube tensor holds each batch's matrix after
/// the one before). Whole tiles only: a partial valid shape of a batch
/// tile is not followed.
template <typename From> struct BatchMatmulLowering : TilePattern<From> {
  using TilePattern<From>::TilePattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhs = cast<pto::TileType>(op.getLhs().getType());
    auto rhs = cast<pto::TileType>(op.getRhs().getType());
    auto result = cast<pto::TileType>(op.getType());
    if (lhs.getRank() != 3 || rhs.getRank() != 3 || result.getRank() != 3)
      return op.emitOpError() << "multiplies rank-" << lhs.getRank()
                              << " tiles; a batch is lowered for rank 3";
    for (Value tile : op->getOperands()) {
      if (!isa<pto::TileType>(tile.getType()))
        continue;
      FailureOr<ValidShape> shape = this->valid.require(op, tile);
      if (failed(shape))
        return failure();
      if (shape->rows || shape->cols)
        return op.emitOpError()
               << "multiplies a batch tile with a partial valid shape, which "
                  "is not lowered; loop over the batch with pto.tile.matmul";
    }
    Location loc = op.getLoc();
    int64_t batch = lhs.getShape()[0], m = lhs.getShape()[1],
            k = lhs.getShape()[2], n = rhs.getShape()[2];
    Value dst, init;
    if constexpr (std::is_same_v<From, pto::TileBatchMatmulAccOp>) {
      dst = adaptor.getAcc();
      init = adaptor.getInitCond();
      if (!init)
        init = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
    } else {
      dst = createLocal(rewriter, loc, *this->getTypeConverter(),
                        op.getResult(), ascendc::Position::CO1);
    }
    auto matrix = [&](Value tensor, int64_t b, int64_t rows, int64_t cols) {
      auto type = ascendc::LocalTensorType::get(
          rewriter.getContext(), {rows, cols},
          cast<ascendc::LocalTensorType>(tensor.getType()).getElementType());
      return ascendc::ReinterpretCastOp::create(
          rewriter, loc, type, tensor,
          arith::ConstantIndexOp::create(rewriter, loc, b * rows * cols));
    };
    Value mValue = arith::ConstantIndexOp::create(rewriter, loc, m);
    Value nValue = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value kValue = arith::ConstantIndexOp::create(rewriter, loc, k);
    for (int64_t b = 0; b < batch; ++b)
      ascendc::MmadOp::create(
          rewriter, loc, matrix(dst, b, m, result.getShape()[2]),
          matrix(adaptor.getLhs(), b, m, k), matrix(adaptor.getRhs(), b, k, n),
          Value(), mValue, nValue, kValue, init);
    rewriter.replaceOp(op, dst);
    return success();
  }
};

} // namespace

void lowering::populateCubePatterns(PTOToAscendCTypes &types,
                                    RewritePatternSet &patterns,
                                    ValidShapes &valid) {
  patterns.add<
      MatmulLowering<pto::TileMatmulOp>, MatmulLowering<pto::TileMatmulAccOp>,
      MatmulLowering<pto::TileMatmulBiasOp>, MatmulLowering<pto::TileGemvOp>,
      MatmulLowering<pto::TileGemvAccOp>,
      BatchMatmulLowering<pto::TileBatchMatmulOp>,
      BatchMatmulLowering<pto::TileBatchMatmulAccOp>>(
      types, patterns.getContext(), valid);
}
