//===- MatmulOps.cpp - Cube matmuls in the executor -----------------------===//
//
// C = A @ B over A's valid K, as the MMAD's k is (pto-isa's TMATMUL takes
// m, k from A's valid shape and n from B's): padding columns of A and rows
// of B past it are never read. M and N span the box. Accumulates in f32,
// each element's products added in K order (OrderedGemm.h), or in int64
// wrapped to i32 for i8 inputs; a bias row is where the sums start. The
// result's valid shape is A's valid rows by B's valid columns. An
// accumulating matmul overwrites instead of adding where its init_cond
// holds.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "OrderedGemm.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

LogicalResult interp::matmulInto(Operation *op, const ArrayData &a,
                                 const ArrayData &b, ArrayData &out,
                                 int64_t batch, int64_t m, int64_t k, int64_t n,
                                 bool accumulate, bool aTrans, bool bTrans,
                                 int64_t kUsed) {
  if (kUsed < 0)
    kUsed = k;
  if (isFloatKind(a.kind)) {
    for (int64_t p = 0; p < batch; ++p)
      orderedGemm(aTrans, bTrans, m, n, kUsed, a.floats.data() + p * m * k,
                  aTrans ? m : k, b.floats.data() + p * k * n, bTrans ? k : n,
                  accumulate, out.floats.data() + p * m * n, n);
    return success();
  }
  for (int64_t p = 0; p < batch; ++p) {
    size_t aBase = p * m * k, bBase = p * k * n, cBase = p * m * n;
    for (int64_t i = 0; i < m; ++i) {
      int64_t *c = out.ints.data() + cBase + i * n;
      if (!accumulate)
        std::fill(c, c + n, 0);
      for (int64_t kk = 0; kk < kUsed; ++kk) {
        int64_t av = a.ints[aBase + (aTrans ? kk * m + i : i * k + kk)];
        for (int64_t j = 0; j < n; ++j)
          c[j] += av * b.ints[bBase + (bTrans ? j * k + kk : kk * n + j)];
      }
      for (int64_t j = 0; j < n; ++j)
        c[j] = wrapInt(out.kind, c[j]);
    }
  }
  return success();
}

/// Runs a tile matmul: `acc` (may be null) is the accumulator operand.
static LogicalResult runTileMatmul(ExecContext &context, Operation *op,
                                   Value accValue, Value lhsValue,
                                   Value rhsValue, Value biasValue,
                                   Value initCond) {
  TileValue lhs = context.tile(lhsValue);
  TileValue rhs = context.tile(rhsValue);
  auto type = cast<TileType>(op->getResult(0).getType());
  ArrayRef<int64_t> a = lhs.shape(), b = rhs.shape();
  int64_t rank = a.size();
  int64_t batch = rank == 3 ? a[0] : 1;
  int64_t m = a[rank - 2], k = a[rank - 1], n = b[rank - 1];
  bool accumulate = accValue && !(initCond && context.scalar(initCond).i);
  TileValue result;
  if (accumulate) {
    std::shared_ptr<ArrayData> data = context.dataForUpdate(accValue, op);
    result = context.tile(accValue);
    result.data = std::move(data);
    result.type = type;
  } else {
    result = makeTile(type, kindOf(type));
    // The accumulator is overwritten in place.
    if (accValue)
      result.buffer = context.tile(accValue).buffer;
  }
  if (biasValue) {
    // Each row of sums starts from the bias row (a matmul with a bias has
    // no batch), in the accumulator's kind.
    TileValue bias = context.tile(biasValue);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        result.data->setScalar(i * n + j, bias.data->scalarAt(j));
    accumulate = true;
  }
  if (failed(matmulInto(op, *lhs.data, *rhs.data, *result.data, batch, m, k, n,
                        accumulate,
                        /*aTrans=*/false, /*bTrans=*/false,
                        /*kUsed=*/lhs.valid[rank - 1])))
    return failure();
  result.valid.assign(lhs.valid.begin(), lhs.valid.end());
  result.valid[rank - 1] = rhs.valid[rank - 1];
  context.set(op->getResult(0), std::move(result));
  return success();
}

template <typename OpTy>
static LogicalResult runPlain(ExecContext &context, Operation *raw) {
  auto op = cast<OpTy>(raw);
  return runTileMatmul(context, op, Value(), op.getLhs(), op.getRhs(), Value(),
                       Value());
}

template <typename OpTy>
static LogicalResult runAcc(ExecContext &context, Operation *raw) {
  auto op = cast<OpTy>(raw);
  return runTileMatmul(context, op, op.getAcc(), op.getLhs(), op.getRhs(),
                       Value(), op.getInitCond());
}

static LogicalResult runBias(ExecContext &context, Operation *raw) {
  auto op = cast<TileMatmulBiasOp>(raw);
  return runTileMatmul(context, op, Value(), op.getLhs(), op.getRhs(),
                       op.getBias(), Value());
}

void interp::registerMatmulHandlers(HandlerMap &map) {
  addHandler<TileMatmulOp>(map, runPlain<TileMatmulOp>);
  addHandler<TileBatchMatmulOp>(map, runPlain<TileBatchMatmulOp>);
  addHandler<TileGemvOp>(map, runPlain<TileGemvOp>);
  addHandler<TileMatmulAccOp>(map, runAcc<TileMatmulAccOp>);
  addHandler<TileBatchMatmulAccOp>(map, runAcc<TileBatchMatmulAccOp>);
  addHandler<TileGemvAccOp>(map, runAcc<TileGemvAccOp>);
  addHandler<TileMatmulBiasOp>(map, runBias);
}
