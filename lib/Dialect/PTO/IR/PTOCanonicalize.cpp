//===- PTOCanonicalize.cpp - Canonicalization patterns of PTO ops ---------===//
//
// A constant `init_cond` on an accumulating matmul selects one arm at compile
// time, as PTO code generation picks the plain MAD over the accumulating one
// instead of branching on a constant:
//
//   matmul_acc %acc, %a, %b init %true   ->  matmul %a, %b
//   matmul_acc %acc, %a, %b init %false  ->  matmul_acc %acc, %a, %b
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tilekit::pto;

namespace {

/// Builds the non-accumulating op that replaces `op` when its init bit is a
/// constant true.
TileMatmulOp buildPlain(PatternRewriter &rewriter, TileMatmulAccOp op) {
  return TileMatmulOp::create(rewriter, op.getLoc(), op.getType(), op.getLhs(),
                              op.getRhs());
}
TileBatchMatmulOp buildPlain(PatternRewriter &rewriter,
                             TileBatchMatmulAccOp op) {
  return TileBatchMatmulOp::create(rewriter, op.getLoc(), op.getType(),
                                   op.getLhs(), op.getRhs());
}
TileGemvOp buildPlain(PatternRewriter &rewriter, TileGemvAccOp op) {
  return TileGemvOp::create(rewriter, op.getLoc(), op.getType(), op.getLhs(),
                            op.getRhs());
}
TensorMatmulOp buildPlain(PatternRewriter &rewriter, TensorMatmulAccOp op) {
  return TensorMatmulOp::create(rewriter, op.getLoc(), op.getType(),
                                op.getLhs(), op.getRhs(), op.getATransAttr(),
                                op.getBTransAttr());
}

template <typename AccOp>
struct FoldConstantInitCond : OpRewritePattern<AccOp> {
  using OpRewritePattern<AccOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AccOp op,
                                PatternRewriter &rewriter) const override {
    Value init = op.getInitCond();
    if (!init)
      return failure();
    if (matchPattern(init, m_One())) {
      rewriter.replaceOp(op, buildPlain(rewriter, op).getResult());
      return success();
    }
    if (matchPattern(init, m_Zero())) {
      rewriter.modifyOpInPlace(op, [&] { op.getInitCondMutable().clear(); });
      return success();
    }
    return failure();
  }
};

} // namespace

void TileMatmulAccOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                  MLIRContext *context) {
  patterns.add<FoldConstantInitCond<TileMatmulAccOp>>(context);
}

void TileBatchMatmulAccOp::getCanonicalizationPatterns(
    RewritePatternSet &patterns, MLIRContext *context) {
  patterns.add<FoldConstantInitCond<TileBatchMatmulAccOp>>(context);
}

void TileGemvAccOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                MLIRContext *context) {
  patterns.add<FoldConstantInitCond<TileGemvAccOp>>(context);
}

void TensorMatmulAccOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                    MLIRContext *context) {
  patterns.add<FoldConstantInitCond<TensorMatmulAccOp>>(context);
}
