//===- ArithOps.cpp - arith in the executor -------------------------------===//
//
// Scalar arithmetic on indices, integers and floats. Integers wrap to their
// width; f16/bf16 results are rounded after each op. `arith.select` also
// picks between tiles and tensors.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"

#include "tilekit/Interp/MachineArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

static LogicalResult runConstant(ExecContext &context, Operation *raw) {
  auto op = cast<arith::ConstantOp>(raw);
  ElementKind kind = kindOf(op.getType());
  Attribute value = op.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    int64_t bits = kind == ElementKind::I1 || kind == ElementKind::U8
                       ? static_cast<int64_t>(integer.getValue().getZExtValue())
                       : integer.getValue().getSExtValue();
    context.set(op.getResult(), Scalar::ofInt(kind, bits));
    return success();
  }
  if (auto floating = dyn_cast<FloatAttr>(value)) {
    context.set(op.getResult(),
                Scalar::ofFloat(kind, floating.getValueAsDouble()));
    return success();
  }
  return op.emitOpError() << "holds a " << value
                          << ", which the executor does not support (only "
                             "scalar constants)";
}

/// Unsigned view of an integer of `kind`.
static uint64_t unsignedOf(ElementKind kind, int64_t value) {
  unsigned bits = getByteSize(kind) * 8;
  if (kind == ElementKind::I1)
    bits = 1;
  return bits == 64
             ? static_cast<uint64_t>(value)
             : static_cast<uint64_t>(value) & ((uint64_t(1) << bits) - 1);
}

/// A binary integer op: `fn(lhs, rhs, kind)` returns the result, or
/// std::nullopt for a division by zero.
template <typename OpTy, typename Fn> static OpHandler intBinary(Fn) {
  return [](ExecContext &context, Operation *raw) -> LogicalResult {
    auto op = cast<OpTy>(raw);
    const Scalar &lhs = context.scalar(op.getLhs());
    const Scalar &rhs = context.scalar(op.getRhs());
    std::optional<int64_t> result = Fn()(lhs.i, rhs.i, lhs.kind);
    if (!result)
      return op.emitOpError() << "divides by zero";
    context.set(op.getResult(), Scalar::ofInt(lhs.kind, *result));
    return success();
  };
}

template <typename OpTy, typename Fn> static OpHandler floatBinary(Fn) {
  return [](ExecContext &context, Operation *raw) -> LogicalResult {
    auto op = cast<OpTy>(raw);
    const Scalar &lhs = context.scalar(op.getLhs());
    float result = Fn()(static_cast<float>(lhs.f),
                        static_cast<float>(context.scalar(op.getRhs()).f));
    context.set(op.getResult(), Scalar::ofFloat(lhs.kind, result));
    return success();
  };
}

using MaybeInt = std::optional<int64_t>;

static bool compareInt(arith::CmpIPredicate predicate, ElementKind kind,
                       int64_t lhs, int64_t rhs) {
  uint64_t ul = unsignedOf(kind, lhs), ur = unsignedOf(kind, rhs);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return lhs == rhs;
  case arith::CmpIPredicate::ne:
    return lhs != rhs;
  case arith::CmpIPredicate::slt:
    return lhs < rhs;
  case arith::CmpIPredicate::sle:
    return lhs <= rhs;
  case arith::CmpIPredicate::sgt:
    return lhs > rhs;
  case arith::CmpIPredicate::sge:
    return lhs >= rhs;
  case arith::CmpIPredicate::ult:
    return ul < ur;
  case arith::CmpIPredicate::ule:
    return ul <= ur;
  case arith::CmpIPredicate::ugt:
    return ul > ur;
  case arith::CmpIPredicate::uge:
    return ul >= ur;
  }
  llvm_unreachable("unknown predicate");
}

static bool compareFloat(arith::CmpFPredicate predicate, double lhs,
                         double rhs) {
  bool unordered = std::isnan(lhs) || std::isnan(rhs);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && lhs == rhs;
  case P::OGT:
    return !unordered && lhs > rhs;
  case P::OGE:
    return !unordered && lhs >= rhs;
  case P::OLT:
    return !unordered && lhs < rhs;
  case P::OLE:
    return !unordered && lhs <= rhs;
  case P::ONE:
    return !unordered && lhs != rhs;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || lhs == rhs;
  case P::UGT:
    return unordered || lhs > rhs;
  case P::UGE:
    return unordered || lhs >= rhs;
  case P::ULT:
    return unordered || lhs < rhs;
  case P::ULE:
    return unordered || lhs <= rhs;
  case P::UNE:
    return unordered || lhs != rhs;
  case P::UNO:
    return unordered;
  }
  llvm_unreachable("unknown predicate");
}

static LogicalResult runCmpI(ExecContext &context, Operation *raw) {
  auto op = cast<arith::CmpIOp>(raw);
  const Scalar &lhs = context.scalar(op.getLhs());
  bool result = compareInt(op.getPredicate(), lhs.kind, lhs.i,
                           context.scalar(op.getRhs()).i);
  context.set(op.getResult(), Scalar::ofInt(ElementKind::I1, result));
  return success();
}

static LogicalResult runCmpF(ExecContext &context, Operation *raw) {
  auto op = cast<arith::CmpFOp>(raw);
  bool result = compareFloat(op.getPredicate(), context.scalar(op.getLhs()).f,
                             context.scalar(op.getRhs()).f);
  context.set(op.getResult(), Scalar::ofInt(ElementKind::I1, result));
  return success();
}

static LogicalResult runSelect(ExecContext &context, Operation *raw) {
  auto op = cast<arith::SelectOp>(raw);
  if (!op.getCondition().getType().isInteger(1))
    return op.emitOpError() << "selects elementwise with a vector "
                               "condition, which the executor does not "
                               "support";
  bool condition = context.scalar(op.getCondition()).i != 0;
  Value chosen = condition ? op.getTrueValue() : op.getFalseValue();
  context.set(op.getResult(), isa<pto::TileType>(chosen.getType())
                                  ? RuntimeValue(context.tile(chosen))
                                  : context.get(chosen));
  return success();
}

/// Conversions between scalar kinds.
template <typename OpTy>
static LogicalResult runCast(ExecContext &context, Operation *raw) {
  auto op = cast<OpTy>(raw);
  const Scalar &in = context.scalar(op.getIn());
  ElementKind to = kindOf(op.getType());
  Scalar out;
  if constexpr (std::is_same_v<OpTy, arith::IndexCastUIOp> ||
                std::is_same_v<OpTy, arith::ExtUIOp>) {
    out = Scalar::ofInt(to, static_cast<int64_t>(unsignedOf(in.kind, in.i)));
  } else if constexpr (std::is_same_v<OpTy, arith::IndexCastOp> ||
                       std::is_same_v<OpTy, arith::ExtSIOp> ||
                       std::is_same_v<OpTy, arith::TruncIOp>) {
    out = Scalar::ofInt(to, in.i);
  } else if constexpr (std::is_same_v<OpTy, arith::SIToFPOp>) {
    out = Scalar::ofFloat(to, static_cast<double>(in.i));
  } else if constexpr (std::is_same_v<OpTy, arith::UIToFPOp>) {
    out = Scalar::ofFloat(to, static_cast<double>(unsignedOf(in.kind, in.i)));
  } else if constexpr (std::is_same_v<OpTy, arith::FPToSIOp> ||
                       std::is_same_v<OpTy, arith::FPToUIOp>) {
    // Out of range saturates and NaN becomes 0, as tile casts do; fptoui
    // saturates to the unsigned range of the width.
    bool toUnsigned = std::is_same_v<OpTy, arith::FPToUIOp>;
    double lowest = toUnsigned ? 0 : getLowest(to);
    double highest = toUnsigned && to != ElementKind::Index
                         ? std::ldexp(1.0, 8 * getByteSize(to)) - 1
                         : getHighest(to);
    out = Scalar::ofInt(to, saturateToInt(std::trunc(in.f), lowest, highest));
  } else { // ExtFOp, TruncFOp
    out = Scalar::ofFloat(to, in.f);
  }
  context.set(op.getResult(), out);
  return success();
}

template <typename OpTy>
static LogicalResult runNegF(ExecContext &context, Operation *raw) {
  auto op = cast<OpTy>(raw);
  const Scalar &in = context.scalar(op.getOperand());
  context.set(op.getResult(), Scalar::ofFloat(in.kind, -in.f));
  return success();
}

/// Floor division and Python-style remainder helpers.
static MaybeInt floorDiv(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  int64_t q = divideWrapping(a, b), r = remainderWrapping(a, b);
  return (r != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static MaybeInt ceilDiv(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  int64_t q = divideWrapping(a, b), r = remainderWrapping(a, b);
  return (r != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

#define INT_OP(OP, EXPR)                                                       \
  addHandler<arith::OP>(map,                                                   \
                        intBinary<arith::OP>([](int64_t a, int64_t b,          \
                                                ElementKind k) -> MaybeInt {   \
                          (void)a;                                             \
                          (void)b;                                             \
                          (void)k;                                             \
                          return EXPR;                                         \
                        }))

#define FLOAT_OP(OP, EXPR)                                                     \
  addHandler<arith::OP>(                                                       \
      map,                                                                     \
      floatBinary<arith::OP>([](float a, float b) -> float { return EXPR; }))

void interp::registerArithHandlers(HandlerMap &map) {
  addHandler<arith::ConstantOp>(map, runConstant);
  INT_OP(AddIOp, static_cast<int64_t>(static_cast<uint64_t>(a) +
                                      static_cast<uint64_t>(b)));
  INT_OP(SubIOp, static_cast<int64_t>(static_cast<uint64_t>(a) -
                                      static_cast<uint64_t>(b)));
  INT_OP(MulIOp, static_cast<int64_t>(static_cast<uint64_t>(a) *
                                      static_cast<uint64_t>(b)));
  INT_OP(DivSIOp, b == 0 ? MaybeInt() : MaybeInt(divideWrapping(a, b)));
  INT_OP(DivUIOp, b == 0 ? MaybeInt()
                         : MaybeInt(static_cast<int64_t>(unsignedOf(k, a) /
                                                         unsignedOf(k, b))));
  INT_OP(RemSIOp, b == 0 ? MaybeInt() : MaybeInt(remainderWrapping(a, b)));
  INT_OP(RemUIOp, b == 0 ? MaybeInt()
                         : MaybeInt(static_cast<int64_t>(unsignedOf(k, a) %
                                                         unsignedOf(k, b))));
  INT_OP(FloorDivSIOp, floorDiv(a, b));
  INT_OP(CeilDivSIOp, ceilDiv(a, b));
  INT_OP(CeilDivUIOp, b == 0
                          ? MaybeInt()
                          : MaybeInt(static_cast<int64_t>(
                                unsignedOf(k, a) / unsignedOf(k, b) +
                                (unsignedOf(k, a) % unsignedOf(k, b) != 0))));
  INT_OP(MinSIOp, std::min(a, b));
  INT_OP(MaxSIOp, std::max(a, b));
  INT_OP(MinUIOp, unsignedOf(k, a) < unsignedOf(k, b) ? a : b);
  INT_OP(MaxUIOp, unsignedOf(k, a) > unsignedOf(k, b) ? a : b);
  INT_OP(AndIOp, a & b);
  INT_OP(OrIOp, a | b);
  INT_OP(XOrIOp, a ^ b);
  INT_OP(ShLIOp, shiftLeft(a, b));
  INT_OP(ShRSIOp, shiftRightArithmetic(a, b));
  INT_OP(ShRUIOp, b < 0 || b >= 64
                      ? MaybeInt(0)
                      : MaybeInt(static_cast<int64_t>(unsignedOf(k, a) >> b)));
  FLOAT_OP(AddFOp, a + b);
  FLOAT_OP(SubFOp, a - b);
  FLOAT_OP(MulFOp, a * b);
  FLOAT_OP(DivFOp, a / b);
  FLOAT_OP(RemFOp, std::fmod(a, b));
  FLOAT_OP(MaximumFOp, maximumPropagatingNaN(a, b));
  FLOAT_OP(MinimumFOp, minimumPropagatingNaN(a, b));
  FLOAT_OP(MaxNumFOp, maxNum(a, b));
  FLOAT_OP(MinNumFOp, minNum(a, b));
  addHandler<arith::NegFOp>(map, runNegF<arith::NegFOp>);
  addHandler<arith::CmpIOp>(map, runCmpI);
  addHandler<arith::CmpFOp>(map, runCmpF);
  addHandler<arith::SelectOp>(map, runSelect);
  addHandler<arith::IndexCastOp>(map, runCast<arith::IndexCastOp>);
  addHandler<arith::IndexCastUIOp>(map, runCast<arith::IndexCastUIOp>);
  addHandler<arith::ExtSIOp>(map, runCast<arith::ExtSIOp>);
  addHandler<arith::ExtUIOp>(map, runCast<arith::ExtUIOp>);
  addHandler<arith::TruncIOp>(map, runCast<arith::TruncIOp>);
  addHandler<arith::SIToFPOp>(map, runCast<arith::SIToFPOp>);
  addHandler<arith::UIToFPOp>(map, runCast<arith::UIToFPOp>);
  addHandler<arith::FPToSIOp>(map, runCast<arith::FPToSIOp>);
  addHandler<arith::FPToUIOp>(map, runCast<arith::FPToUIOp>);
  addHandler<arith::ExtFOp>(map, runCast<arith::ExtFOp>);
  addHandler<arith::TruncFOp>(map, runCast<arith::TruncFOp>);
}
