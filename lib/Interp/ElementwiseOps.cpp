//===- ElementwiseOps.cpp - Elementwise tile and tensor ops ---------------===//
//
// Elementwise ops compute over the whole box in f32 (int64 for integers)
// and round (wrap) each result to the element type, as the vector unit
// does. A tile result takes the valid shape of its first tile operand;
// integer division by zero inside the valid region is an error, outside it
// yields 0.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "ScalarFunctions.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Interp/MachineArith.h"
#include "tilekit/Support/HalfFloat.h"
#include "tilekit/Support/VectorMath.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

namespace {
/// An operand or result as elementwise code sees it: elements, box, valid.
struct Elements {
  std::shared_ptr<ArrayData> data;
  SmallVector<int64_t, 4> shape;
  SmallVector<int64_t, 4> valid;
};

/// Sentinel for "division by zero at this element".
struct DivByZero {};
} // namespace

static Elements elementsOf(ExecContext &context, Value value) {
  if (isa<TileType>(value.getType())) {
    TileValue tile = context.tile(value);
    return {tile.data, SmallVector<int64_t, 4>(tile.shape()),
            SmallVector<int64_t, 4>(ArrayRef<int64_t>(tile.valid))};
  }
  TensorValue &tensor = context.tensor(value);
  return {std::shared_ptr<ArrayData>(tensor.storage, &tensor.storage->data),
          tensor.shape, tensor.valid};
}

/// Binds `data` (with `shape` and `valid`) to the result of `op`.
static void setResult(ExecContext &context, Value result,
                      std::shared_ptr<ArrayData> data, ArrayRef<int64_t> shape,
                      ArrayRef<int64_t> valid) {
  if (auto type = dyn_cast<TileType>(result.getType())) {
    TileValue tile;
    tile.type = type;
    tile.valid.assign(valid.begin(), valid.end());
    tile.data = std::move(data);
    context.set(result, std::move(tile));
    return;
  }
  TensorValue tensor;
  tensor.storage = std::make_shared<TensorStorage>(data->kind, 0);
  tensor.storage->data = std::move(*data);
  tensor.shape.assign(shape.begin(), shape.end());
  tensor.valid.assign(valid.begin(), valid.end());
  context.set(result, std::move(tensor));
}

static bool inValidRegion(size_t linear, ArrayRef<int64_t> shape,
                          ArrayRef<int64_t> valid) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    int64_t i = static_cast<int64_t>(linear) % shape[d];
    linear /= shape[d];
    if (i >= valid[d])
      return false;
  }
  return true;
}

static LogicalResult checkSameShape(Operation *op, const Elements &a,
                                    const Elements &b) {
  if (a.shape == b.shape)
    return success();
  return op->emitOpError() << "operands have shapes " << formatShape(a.shape)
                           << " and " << formatShape(b.shape);
}

//===----------------------------------------------------------------------===//
// Binary, tile-scalar and unary families
//===----------------------------------------------------------------------===//

/// out[i] = fn(a[i], b(i)) where `rhsAt(i)` gives the right operand.
template <typename RhsFloat, typename RhsInt>
static LogicalResult applyBinary(Operation *op, const BinaryFn &fn,
                                 const Elements &lhs, ArrayData &out,
                                 RhsFloat rhsFloat, RhsInt rhsInt) {
  ElementKind kind = out.kind;
  size_t size = out.size();
  if (isFloatKind(kind)) {
    const float *a = lhs.data->floats.data();
    float *o = out.floats.data();
    for (size_t i = 0; i < size; ++i)
      o[i] = fn.onFloat(a[i], rhsFloat(i));
    if (fn.thenFloats)
      fn.thenFloats(o, o, size);
    roundFloats(kind, o, size);
    return success();
  }
  const int64_t *a = lhs.data->ints.data();
  int64_t *o = out.ints.data();
  for (size_t i = 0; i < size; ++i) {
    int64_t value;
    if (!fn.onInt(a[i], rhsInt(i), kind, value)) {
      if (inValidRegion(i, lhs.shape, lhs.valid))
        return op->emitOpError() << "divides by zero in the valid region";
      value = 0;
    }
    o[i] = wrapInt(kind, value);
  }
  return success();
}

template <const BinaryFn &Fn>
static LogicalResult runBinary(ExecContext &context, Operation *op) {
  Elements lhs = elementsOf(context, op->getOperand(0));
  Elements rhs = elementsOf(context, op->getOperand(1));
  if (failed(checkSameShape(op, lhs, rhs)))
    return failure();
  auto out = std::make_shared<ArrayData>(lhs.data->kind, lhs.data->size());
  const ArrayData &b = *rhs.data;
  if (failed(applyBinary(
          op, Fn, lhs, *out, [&](size_t i) { return b.floats[i]; },
          [&](size_t i) { return b.ints[i]; })))
    return failure();
  setResult(context, op->getResult(0), std::move(out), lhs.shape, lhs.valid);
  return success();
}

template <const BinaryFn &Fn>
static LogicalResult runBinaryScalar(ExecContext &context, Operation *op) {
  Elements lhs = elementsOf(context, op->getOperand(0));
  ElementKind kind = lhs.data->kind;
  auto [f, n] = convertScalar(context.scalar(op->getOperand(1)), kind);
  auto out = std::make_shared<ArrayData>(kind, lhs.data->size());
  if (failed(applyBinary(
          op, Fn, lhs, *out, [&](size_t) { return f; },
          [&](size_t) { return n; })))
    return failure();
  setResult(context, op->getResult(0), std::move(out), lhs.shape, lhs.valid);
  return success();
}

template <const UnaryFn &Fn>
static LogicalResult runUnary(ExecContext &context, Operation *op) {
  Elements src = elementsOf(context, op->getOperand(0));
  ElementKind kind = src.data->kind;
  size_t size = src.data->size();
  auto out = std::make_shared<ArrayData>(kind, size);
  if (isFloatKind(kind)) {
    const float *in = src.data->floats.data();
    float *o = out->floats.data();
    if (Fn.onFloats) {
      Fn.onFloats(in, o, size);
    } else {
      for (size_t i = 0; i < size; ++i)
        o[i] = Fn.onFloat(in[i]);
    }
    roundFloats(kind, o, size);
  } else {
    for (size_t i = 0; i < size; ++i)
      out->ints[i] = wrapInt(kind, Fn.onInt(src.data->ints[i], kind));
  }
  setResult(context, op->getResult(0), std::move(out), src.shape, src.valid);
  return success();
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

static LogicalResult runCastImpl(ExecContext &context, Operation *op,
                                 std::optional<RoundMode> modeAttr) {
  Elements src = elementsOf(context, op->getOperand(0));
  ElementKind to = kindOf(op->getResult(0).getType());
  auto out = std::make_shared<ArrayData>(
      castElements(*src.data, to, modeAttr.value_or(RoundMode::None)));
  setResult(context, op->getResult(0), std::move(out), src.shape, src.valid);
  return success();
}

template <typename OpTy>
static LogicalResult runCast(ExecContext &context, Operation *op) {
  return runCastImpl(context, op, cast<OpTy>(op).getRound());
}

//===----------------------------------------------------------------------===//
// Comparisons and selects
//===----------------------------------------------------------------------===//

template <typename RhsFloat, typename RhsInt>
static std::shared_ptr<ArrayData> compareAll(CmpPredicate predicate,
                                             const ArrayData &lhs,
                                             RhsFloat rhsFloat, RhsInt rhsInt) {
  auto out = std::make_shared<ArrayData>(ElementKind::I1, lhs.size());
  for (size_t i = 0, e = lhs.size(); i < e; ++i)
    out->ints[i] = isFloatKind(lhs.kind)
                       ? comparePredicate(predicate, lhs.floats[i], rhsFloat(i))
                       : comparePredicate(predicate, lhs.ints[i], rhsInt(i));
  return out;
}

static LogicalResult runCmp(ExecContext &context, Operation *raw) {
  auto op = cast<TileCmpOp>(raw);
  Elements lhs = elementsOf(context, op.getLhs());
  Elements rhs = elementsOf(context, op.getRhs());
  const ArrayData &b = *rhs.data;
  auto out = compareAll(
      op.getPredicate(), *lhs.data, [&](size_t i) { return b.floats[i]; },
      [&](size_t i) { return b.ints[i]; });
  setResult(context, op.getResult(), std::move(out), lhs.shape, lhs.valid);
  return success();
}

static LogicalResult runCmpS(ExecContext &context, Operation *raw) {
  auto op = cast<TileCmpSOp>(raw);
  Elements lhs = elementsOf(context, op.getSrc());
  ElementKind kind = lhs.data->kind;
  auto [f, n] = convertScalar(context.scalar(op.getScalar()), kind);
  auto out = compareAll(
      op.getPredicate(), *lhs.data, [&](size_t) { return f; },
      [&](size_t) { return n; });
  setResult(context, op.getResult(), std::move(out), lhs.shape, lhs.valid);
  return success();
}

static LogicalResult runSel(ExecContext &context, Operation *raw) {
  auto op = cast<TileSelOp>(raw);
  Elements mask = elementsOf(context, op.getMask());
  Elements lhs = elementsOf(context, op.getLhs());
  Elements rhs = elementsOf(context, op.getRhs());
  auto out = std::make_shared<ArrayData>(*lhs.data);
  for (size_t i = 0, e = out->size(); i < e; ++i)
    if (!mask.data->ints[i]) {
      if (isFloatKind(out->kind))
        out->floats[i] = rhs.data->floats[i];
      else
        out->ints[i] = rhs.data->ints[i];
    }
  setResult(context, op.getResult(), std::move(out), lhs.shape, lhs.valid);
  return success();
}

static LogicalResult runSelS(ExecContext &context, Operation *raw) {
  auto op = cast<TileSelSOp>(raw);
  Elements mask = elementsOf(context, op.getMask());
  Elements src = elementsOf(context, op.getSrc());
  auto out = std::make_shared<ArrayData>(*src.data);
  double scalar = context.scalar(op.getScalar()).asDouble();
  for (size_t i = 0, e = out->size(); i < e; ++i)
    if (!mask.data->ints[i])
      out->set(i, scalar);
  setResult(context, op.getResult(), std::move(out), src.shape, src.valid);
  return success();
}

//===----------------------------------------------------------------------===//
// Broadcasts
//===----------------------------------------------------------------------===//

/// Index of the broadcast operand element that (r, c) of an MxN box reads.
static size_t broadcastIndex(bool isRow, int64_t r, int64_t c) {
  return isRow ? r : c;
}

template <bool IsRow>
static LogicalResult runExpand(ExecContext &context, Operation *op) {
  Elements src = elementsOf(context, op->getOperand(0));
  auto type = cast<TileType>(op->getResult(0).getType());
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  auto out = std::make_shared<ArrayData>(src.data->kind, rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      size_t from = broadcastIndex(IsRow, r, c);
      if (isFloatKind(out->kind))
        out->floats[r * cols + c] = src.data->floats[from];
      else
        out->ints[r * cols + c] = src.data->ints[from];
    }
  SmallVector<int64_t, 2> valid =
      IsRow ? SmallVector<int64_t, 2>{src.valid[0], cols}
            : SmallVector<int64_t, 2>{rows, src.valid[1]};
  setResult(context, op->getResult(0), std::move(out), type.getShape(), valid);
  return success();
}

// exp(a - b): the difference, then exp over the whole result.
static const BinaryFn kExpDif = {[](float a, float b) { return a - b; },
                                 INT_FN(out = a - b), expArray};

template <const BinaryFn &Fn, bool IsRow>
static LogicalResult runExpandBinary(ExecContext &context, Operation *op) {
  Elements lhs = elementsOf(context, op->getOperand(0));
  Elements rhs = elementsOf(context, op->getOperand(1));
  int64_t cols = lhs.shape[1];
  size_t size = lhs.data->size();
  auto out = std::make_shared<ArrayData>(lhs.data->kind, size);
  // The broadcast operand spread over the box row by row, so that the op
  // itself is one flat loop.
  const ArrayData &b = *rhs.data;
  ArrayData spread(b.kind, size);
  auto spreadRows = [&](auto &to, const auto &from) {
    for (size_t r = 0, rows = size / cols; r < rows; ++r) {
      auto row = to.begin() + r * cols;
      if (IsRow)
        std::fill(row, row + cols, from[broadcastIndex(IsRow, r, 0)]);
      else
        std::copy_n(from.begin(), cols, row);
    }
  };
  if (isFloatKind(b.kind))
    spreadRows(spread.floats, b.floats);
  else
    spreadRows(spread.ints, b.ints);
  if (failed(applyBinary(
          op, Fn, lhs, *out, [&](size_t i) { return spread.floats[i]; },
          [&](size_t i) { return spread.ints[i]; })))
    return failure();
  setResult(context, op->getResult(0), std::move(out), lhs.shape, lhs.valid);
  return success();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#define BINARY(STEM, FN)                                                       \
  addHandler<Tile##STEM##Op>(map, runBinary<FN>);                              \
  addHandler<Tile##STEM##SOp>(map, runBinaryScalar<FN>);                       \
  addHandler<Tensor##STEM##Op>(map, runBinary<FN>);                            \
  addHandler<Tensor##STEM##SOp>(map, runBinaryScalar<FN>)

#define UNARY(STEM, FN)                                                        \
  addHandler<Tile##STEM##Op>(map, runUnary<FN>);                               \
  addHandler<Tensor##STEM##Op>(map, runUnary<FN>)

#define EXPAND(STEM, FN)                                                       \
  addHandler<TileRowExpand##STEM##Op>(map, runExpandBinary<FN, true>);         \
  addHandler<TileColExpand##STEM##Op>(map, runExpandBinary<FN, false>)

void interp::registerElementwiseHandlers(HandlerMap &map) {
  BINARY(Add, kAdd);
  BINARY(Sub, kSub);
  BINARY(Mul, kMul);
  BINARY(Div, kDiv);
  BINARY(Max, kMax);
  BINARY(Min, kMin);
  BINARY(Rem, kRem);
  BINARY(And, kAnd);
  BINARY(Or, kOr);
  BINARY(Xor, kXor);
  BINARY(Shl, kShl);
  BINARY(Shr, kShr);
  UNARY(Neg, kNeg);
  UNARY(Exp, kExp);
  UNARY(Log, kLog);
  UNARY(Sqrt, kSqrt);
  UNARY(Rsqrt, kRsqrt);
  UNARY(Recip, kRecip);
  UNARY(Abs, kAbs);
  UNARY(Relu, kRelu);
  UNARY(Not, kNot);
  UNARY(Tanh, kTanh);
  UNARY(Sigmoid, kSigmoid);
  UNARY(Erf, kErf);
  addHandler<TileCastOp>(map, runCast<TileCastOp>);
  addHandler<TensorCastOp>(map, runCast<TensorCastOp>);
  addHandler<TileCmpOp>(map, runCmp);
  addHandler<TileCmpSOp>(map, runCmpS);
  addHandler<TileSelOp>(map, runSel);
  addHandler<TileSelSOp>(map, runSelS);
  addHandler<TileRowExpandOp>(map, runExpand<true>);
  addHandler<TileColExpandOp>(map, runExpand<false>);
  EXPAND(Add, kAdd);
  EXPAND(Sub, kSub);
  EXPAND(Mul, kMul);
  EXPAND(Div, kDiv);
  EXPAND(Max, kMax);
  EXPAND(Min, kMin);
  EXPAND(ExpDif, kExpDif);
}
