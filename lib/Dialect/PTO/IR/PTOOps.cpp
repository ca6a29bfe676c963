//===- PTOOps.cpp - PTO operation verifiers and custom syntax -------------===//
//
// Each verifier enforces what the machine requires of the op: operand shapes
// and element types agree, operands live in the buffers the hardware unit
// reads, index lists have one entry per dimension, and so on.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilekit::pto;
namespace machine = tilekit::machine;

//===----------------------------------------------------------------------===//
// Custom type lists: `: T` when every type is the same, `: A, B -> R` when
// they differ (tiles at different addresses, a scalar operand, an i1 mask).
//===----------------------------------------------------------------------===//

/// A split code is written as its integer (`split 1`); an unknown one is an
/// error naming the codes.
static ParseResult parseSplitCode(OpAsmParser &parser, IntegerAttr &split) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t code;
  if (parser.parseInteger(code) ||
      failed(verifySplitCode([&] { return parser.emitError(loc); }, code,
                             /*allowOdd=*/true)))
    return failure();
  split = parser.getBuilder().getI32IntegerAttr(static_cast<int32_t>(code));
  return success();
}

static void printSplitCode(OpAsmPrinter &printer, Operation *,
                           IntegerAttr split) {
  printer << split.getInt();
}

static ParseResult parseOpTypes(OpAsmParser &parser, Type &operand,
                                Type &result) {
  if (parser.parseType(operand))
    return failure();
  result = operand;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(result);
  return success();
}

static void printOpTypes(OpAsmPrinter &printer, Operation *, Type operand,
                         Type result) {
  printer << operand;
  if (result != operand)
    printer << " -> " << result;
}

static ParseResult parseOpTypes(OpAsmParser &parser, Type &first, Type &second,
                                Type &result) {
  if (parser.parseType(first))
    return failure();
  second = first;
  if (succeeded(parser.parseOptionalComma()) && parser.parseType(second))
    return failure();
  result = first;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(result);
  return success();
}

static void printOpTypes(OpAsmPrinter &printer, Operation *, Type first,
                         Type second, Type result) {
  printer << first;
  if (second != first)
    printer << ", " << second;
  if (result != first)
    printer << " -> " << result;
}

/// Accumulating matmuls: `: ACC, LHS, RHS [-> RESULT]`, the result defaulting
/// to the accumulator's type.
static ParseResult parseAccTypes(OpAsmParser &parser, Type &acc, Type &lhs,
                                 Type &rhs, Type &result) {
  if (parser.parseType(acc) || parser.parseComma() || parser.parseType(lhs) ||
      parser.parseComma() || parser.parseType(rhs))
    return failure();
  result = acc;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(result);
  return success();
}

static void printAccTypes(OpAsmPrinter &printer, Operation *, Type acc,
                          Type lhs, Type rhs, Type result) {
  printer << acc << ", " << lhs << ", " << rhs;
  if (result != acc)
    printer << " -> " << result;
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {
/// Element-type families an elementwise op accepts.
enum class ElemKind { Any, Float, Integer };
} // namespace

static StringRef describe(ElemKind kind) {
  switch (kind) {
  case ElemKind::Any:
    return "any";
  case ElemKind::Float:
    return "a float";
  case ElemKind::Integer:
    return "an integer";
  }
  llvm_unreachable("unknown element kind");
}

static bool matchesKind(Type elementType, ElemKind kind) {
  switch (kind) {
  case ElemKind::Any:
    return true;
  case ElemKind::Float:
    return isa<FloatType>(elementType);
  case ElemKind::Integer:
    return isa<IntegerType>(elementType);
  }
  llvm_unreachable("unknown element kind");
}

static LogicalResult checkElemKind(Operation *op, Type type, ElemKind kind) {
  Type elementType = cast<ShapedType>(type).getElementType();
  if (matchesKind(elementType, kind))
    return success();
  return op->emitOpError() << "needs " << describe(kind)
                           << " element type, got " << elementType;
}

/// A vector-unit operand or result must live in UB (`vec`).
static LogicalResult checkVec(Operation *op, Type type, StringRef role) {
  auto tile = dyn_cast<TileType>(type);
  if (!tile || tile.getMemorySpace() == MemorySpace::Vec)
    return success();
  return op->emitOpError() << role << " must be a 'vec' tile, got '"
                           << stringifyMemorySpace(tile.getMemorySpace())
                           << "'";
}

static LogicalResult checkSpace(Operation *op, TileType tile, MemorySpace space,
                                StringRef role) {
  if (tile.getMemorySpace() == space)
    return success();
  return op->emitOpError() << role << " must be a '"
                           << stringifyMemorySpace(space) << "' tile, got '"
                           << stringifyMemorySpace(tile.getMemorySpace())
                           << "'";
}

/// Same shape (compatible, for dynamic tensor dims) and element type.
static LogicalResult checkSameBox(Operation *op, Type a, Type b,
                                  StringRef what) {
  auto shapedA = cast<ShapedType>(a), shapedB = cast<ShapedType>(b);
  if (shapedA.getElementType() == shapedB.getElementType() &&
      succeeded(verifyCompatibleShape(shapedA.getShape(), shapedB.getShape())))
    return success();
  return op->emitOpError() << what
                           << " must have the same shape and element type, got "
                           << a << " and " << b;
}

static LogicalResult checkSameShape(Operation *op, Type a, Type b,
                                    StringRef what) {
  if (succeeded(verifyCompatibleShape(cast<ShapedType>(a).getShape(),
                                      cast<ShapedType>(b).getShape())))
    return success();
  return op->emitOpError() << what << " must have the same shape, got " << a
                           << " and " << b;
}

/// An index list (offsets, indices) has one entry per dimension.
static LogicalResult checkIndexCount(Operation *op, ValueRange indices,
                                     int64_t rank, StringRef what) {
  if (static_cast<int64_t>(indices.size()) == rank)
    return success();
  return op->emitOpError() << "expects " << rank << " " << what
                           << " (one per dimension), got " << indices.size();
}

/// Element access takes one index per dimension of the tile or tensor.
static LogicalResult checkIndicesCover(Operation *op, ValueRange indices,
                                       Type shaped) {
  return checkIndexCount(op, indices, cast<ShapedType>(shaped).getRank(),
                         "indices");
}

/// A valid shape is either absent (the whole box) or one extent per dim.
static LogicalResult checkValidShape(Operation *op, ValueRange validShape,
                                     int64_t rank) {
  if (validShape.empty() || static_cast<int64_t>(validShape.size()) == rank)
    return success();
  return op->emitOpError() << "valid shape needs " << rank
                           << " extents (one per dimension), got "
                           << validShape.size();
}

/// A scalar combined with elements must be of the same family: a float with
/// float elements, an integer or index with integer elements.
static LogicalResult checkScalarFor(Operation *op, Type scalar,
                                    Type shapedType) {
  Type elementType = cast<ShapedType>(shapedType).getElementType();
  bool elementIsFloat = isa<FloatType>(elementType);
  bool scalarIsFloat = isa<FloatType>(scalar);
  if (elementIsFloat == scalarIsFloat)
    return success();
  return op->emitOpError() << "scalar of type " << scalar
                           << " does not match element type " << elementType;
}

/// Sizes given for dynamic dimensions: exactly one per '?'.
static LogicalResult checkDynamicSizes(Operation *op, ValueRange sizes,
                                       GMTensorType type) {
  int64_t dynamic = llvm::count_if(type.getShape(), ShapedType::isDynamic);
  if (static_cast<int64_t>(sizes.size()) == dynamic)
    return success();
  return op->emitOpError() << "expects " << dynamic
                           << " size operands (one per '?' of " << type
                           << "), got " << sizes.size();
}

//===----------------------------------------------------------------------===//
// Elementwise families
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifyBinaryElementwise(OpTy op, ElemKind kind) {
  Operation *raw = op.getOperation();
  if (failed(checkVec(raw, op.getLhs().getType(), "lhs")) ||
      failed(checkVec(raw, op.getRhs().getType(), "rhs")) ||
      failed(checkVec(raw, op.getResult().getType(), "result")) ||
      failed(checkSameBox(raw, op.getLhs().getType(), op.getRhs().getType(),
                          "operands")) ||
      failed(checkSameBox(raw, op.getLhs().getType(), op.getResult().getType(),
                          "operands and result")))
    return failure();
  return checkElemKind(raw, op.getLhs().getType(), kind);
}

template <typename OpTy>
static LogicalResult verifyScalarElementwise(OpTy op, ElemKind kind) {
  Operation *raw = op.getOperation();
  if (failed(checkVec(raw, op.getSrc().getType(), "source")) ||
      failed(checkVec(raw, op.getResult().getType(), "result")) ||
      failed(checkSameBox(raw, op.getSrc().getType(), op.getResult().getType(),
                          "source and result")) ||
      failed(
          checkScalarFor(raw, op.getScalar().getType(), op.getSrc().getType())))
    return failure();
  return checkElemKind(raw, op.getSrc().getType(), kind);
}

template <typename OpTy>
static LogicalResult verifyUnaryElementwise(OpTy op, ElemKind kind) {
  Operation *raw = op.getOperation();
  if (failed(checkVec(raw, op.getSrc().getType(), "source")) ||
      failed(checkVec(raw, op.getResult().getType(), "result")) ||
      failed(checkSameBox(raw, op.getSrc().getType(), op.getResult().getType(),
                          "source and result")))
    return failure();
  return checkElemKind(raw, op.getSrc().getType(), kind);
}

/// Row reductions keep dim -2 and shrink the last dim to 1; column
/// reductions keep the last dim and shrink dim -2 to 1.
template <typename OpTy>
static LogicalResult verifyReduction(OpTy op, bool isRow) {
  Operation *raw = op.getOperation();
  auto src = cast<ShapedType>(op.getSrc().getType());
  auto result = cast<ShapedType>(op.getResult().getType());
  if (failed(checkVec(raw, src, "source")) ||
      failed(checkVec(raw, result, "result")))
    return failure();
  if (src.getRank() < 2)
    return op.emitOpError()
           << "reduces a 2-D (or batched) operand, got " << src;
  if (src.getElementType() != result.getElementType())
    return op.emitOpError()
           << "result element type " << result.getElementType()
           << " differs from the source's " << src.getElementType();
  SmallVector<int64_t> expected(src.getShape());
  expected[src.getRank() - (isRow ? 1 : 2)] = 1;
  if (result.getRank() != src.getRank() ||
      failed(verifyCompatibleShape(result.getShape(), expected))) {
    InFlightDiagnostic diag = op.emitOpError() << "result shape must be [";
    llvm::interleave(
        expected, diag,
        [&](int64_t dim) {
          if (ShapedType::isDynamic(dim))
            diag << "?";
          else
            diag << dim;
        },
        ", ");
    return diag << "], got " << result;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Index sequences, scans, selection, sorting, gather and scatter
//===----------------------------------------------------------------------===//

/// The i32 index tiles of argmax/argmin, sort32, gather and scatter.
static LogicalResult checkIndexTile(Operation *op, Type type, StringRef role) {
  if (failed(checkVec(op, type, role)))
    return failure();
  if (cast<ShapedType>(type).getElementType().isInteger(32))
    return success();
  return op->emitOpError() << role << " must have i32 elements, got " << type;
}

static LogicalResult check2D(Operation *op, TileType type, StringRef role) {
  if (type.getRank() == 2)
    return success();
  return op->emitOpError() << role << " must be a 2-D tile, got " << type;
}

LogicalResult TileIotaOp::verify() {
  auto type = cast<TileType>(getResult().getType());
  if (failed(checkVec(*this, type, "result")))
    return failure();
  Type element = type.getElementType();
  unsigned width = element.getIntOrFloatBitWidth();
  if (element.isBF16() || (width != 16 && width != 32))
    return emitOpError() << "needs 16- or 32-bit integer or f16/f32 "
                            "elements, got "
                         << element;
  if (getStart().getType() != element)
    return emitOpError() << "start of type " << getStart().getType()
                         << " must have the element type " << element;
  return success();
}

template <typename OpTy> static LogicalResult verifyScan(OpTy op) {
  auto type = cast<TileType>(op.getSrc().getType());
  if (failed(checkVec(op, type, "source")) ||
      failed(check2D(op, type, "source")))
    return failure();
  return success();
}

template <typename OpTy> static LogicalResult verifyArgReduce(OpTy op) {
  auto src = cast<TileType>(op.getSrc().getType());
  auto values = cast<TileType>(op.getValues().getType());
  auto indices = cast<TileType>(op.getIndices().getType());
  if (failed(checkVec(op, src, "source")) ||
      failed(checkVec(op, values, "values")) ||
      failed(checkIndexTile(op, indices, "indices")) ||
      failed(check2D(op, src, "source")))
    return failure();
  if (values.getElementType() != src.getElementType())
    return op.emitOpError() << "values must have the source's element type "
                            << src.getElementType() << ", got " << values;
  for (auto [what, result] :
       {std::pair<StringRef, TileType>{"values", values}, {"indices", indices}})
    if (result.getRank() != 2 || result.getDimSize(0) != src.getDimSize(0) ||
        result.getDimSize(1) != 1)
      return op.emitOpError() << what << " must be " << src.getDimSize(0)
                              << "x1 (one per row), got " << result;
  return success();
}

LogicalResult TileSort32Op::verify() {
  auto src = cast<TileType>(getSrc().getType());
  if (failed(checkVec(*this, src, "source")) ||
      failed(check2D(*this, src, "source")) ||
      failed(checkElemKind(*this, src, ElemKind::Float)) ||
      failed(checkIndexTile(*this, getIndices().getType(), "indices")) ||
      failed(checkSameBox(*this, src, getValues().getType(),
                          "source and values")) ||
      failed(checkSameShape(*this, src, getIndices().getType(),
                            "source and indices")))
    return failure();
  if (src.getElementType().isBF16())
    return emitOpError() << "sorts f16 or f32 values, got bf16";
  if (src.getDimSize(1) % 32 != 0)
    return emitOpError() << "sorts blocks of 32 columns, but the tile has "
                         << src.getDimSize(1) << " columns";
  return success();
}

LogicalResult TileMrgSortOp::verify() {
  auto values = cast<TileType>(getValues().getType());
  if (failed(checkVec(*this, values, "values")) ||
      failed(check2D(*this, values, "values")) ||
      failed(checkElemKind(*this, values, ElemKind::Float)) ||
      failed(checkIndexTile(*this, getIndices().getType(), "indices")) ||
      failed(checkSameShape(*this, values, getIndices().getType(),
                            "values and indices")))
    return failure();
  if (getBlock() <= 0)
    return emitOpError() << "block must be positive, got " << getBlock();
  return success();
}

LogicalResult TileGatherOp::verify() {
  auto src = cast<TileType>(getSrc().getType());
  auto result = cast<TileType>(getResult().getType());
  if (failed(checkVec(*this, src, "source")) ||
      failed(checkVec(*this, result, "result")) ||
      failed(checkIndexTile(*this, getIndices().getType(), "indices")) ||
      failed(checkSameShape(*this, getIndices().getType(), result,
                            "indices and result")))
    return failure();
  if (src.getElementType() != result.getElementType())
    return emitOpError() << "result element type " << result.getElementType()
                         << " differs from the source's "
                         << src.getElementType();
  return success();
}

LogicalResult TileScatterOp::verify() {
  auto src = cast<TileType>(getSrc().getType());
  auto dst = cast<TileType>(getDst().getType());
  if (failed(checkVec(*this, src, "source")) ||
      failed(checkVec(*this, dst, "destination")) ||
      failed(checkIndexTile(*this, getIndices().getType(), "indices")) ||
      failed(checkSameShape(*this, src, getIndices().getType(),
                            "source and indices")))
    return failure();
  if (src.getRank() != 2 || dst.getRank() != 2 ||
      src.getDimSize(1) != dst.getDimSize(1))
    return emitOpError() << "scatters rows: the source " << src
                         << " and the destination " << dst
                         << " must be 2-D with the same number of columns";
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "destination element type " << dst.getElementType()
                         << " differs from the source's "
                         << src.getElementType();
  return success();
}

LogicalResult TileValidDimOp::verify() {
  int64_t rank = cast<TileType>(getSrc().getType()).getRank();
  if (getDim() < 0 || getDim() >= rank)
    return emitOpError() << "dimension " << getDim()
                         << " is out of range for a tile of rank " << rank;
  return success();
}

#include "tilekit/Dialect/PTO/IR/PTOInterfaces.cpp.inc"

/// Expands broadcast an Mx1 (row) or 1xN (column) tile to MxN.
static LogicalResult checkExpandOperand(Operation *op, TileType vector,
                                        TileType full, bool isRow) {
  if (full.getRank() != 2 || vector.getRank() != 2)
    return op->emitOpError() << "broadcasts between 2-D tiles";
  int64_t keep = isRow ? 0 : 1;
  int64_t one = isRow ? 1 : 0;
  if (vector.getDimSize(one) != 1 ||
      vector.getDimSize(keep) != full.getDimSize(keep))
    return op->emitOpError()
           << (isRow ? "row" : "column") << " operand must be "
           << (isRow ? std::to_string(full.getDimSize(0)) + "x1"
                     : "1x" + std::to_string(full.getDimSize(1)))
           << " to broadcast over " << full << ", got " << vector;
  if (vector.getElementType() != full.getElementType())
    return op->emitOpError()
           << "element types differ: " << vector << " and " << full;
  return success();
}

template <typename OpTy>
static LogicalResult verifyExpand(OpTy op, bool isRow) {
  auto src = cast<TileType>(op.getSrc().getType());
  auto result = cast<TileType>(op.getResult().getType());
  if (failed(checkVec(op, src, "source")) ||
      failed(checkVec(op, result, "result")))
    return failure();
  return checkExpandOperand(op, src, result, isRow);
}

template <typename OpTy>
static LogicalResult verifyExpandBinary(OpTy op, bool isRow, ElemKind kind) {
  auto lhs = cast<TileType>(op.getLhs().getType());
  auto rhs = cast<TileType>(op.getRhs().getType());
  auto result = cast<TileType>(op.getResult().getType());
  if (failed(checkVec(op, lhs, "lhs")) || failed(checkVec(op, rhs, "rhs")) ||
      failed(checkVec(op, result, "result")) ||
      failed(checkSameBox(op, lhs, result, "lhs and result")) ||
      failed(checkExpandOperand(op, rhs, lhs, isRow)))
    return failure();
  return checkElemKind(op, lhs, kind);
}

//===----------------------------------------------------------------------===//
// Cube ops
//===----------------------------------------------------------------------===//

/// Checks C[.., M, N] = A[.., M, K] @ B[.., K, N] for tiles in L0A, L0B and
/// L0C. `rank` is 2, or 3 for batched matmuls.
static LogicalResult verifyCubeMatmul(Operation *op, Type lhsType, Type rhsType,
                                      Type resultType, int64_t rank) {
  auto lhs = cast<TileType>(lhsType), rhs = cast<TileType>(rhsType),
       result = cast<TileType>(resultType);
  if (failed(checkSpace(op, lhs, MemorySpace::Left, "lhs")) ||
      failed(checkSpace(op, rhs, MemorySpace::Right, "rhs")) ||
      failed(checkSpace(op, result, MemorySpace::Acc, "result")))
    return failure();
  if (lhs.getRank() != rank || rhs.getRank() != rank ||
      result.getRank() != rank)
    return op->emitOpError() << "expects rank-" << rank << " tiles";
  if (lhs.getElementType() != rhs.getElementType())
    return op->emitOpError()
           << "lhs and rhs element types differ: " << lhs.getElementType()
           << " and " << rhs.getElementType();
  Type expectedAcc = lhs.getElementType().isSignlessInteger(8)
                         ? Type(IntegerType::get(op->getContext(), 32))
                         : Type(Float32Type::get(op->getContext()));
  if (result.getElementType() != expectedAcc)
    return op->emitOpError()
           << lhs.getElementType() << " products accumulate in " << expectedAcc
           << ", not " << result.getElementType();
  ArrayRef<int64_t> a = lhs.getShape(), b = rhs.getShape(),
                    c = result.getShape();
  if (rank == 3 && (a[0] != b[0] || a[0] != c[0]))
    return op->emitOpError()
           << "batch sizes differ: " << a[0] << ", " << b[0] << " and " << c[0];
  int64_t m = a[rank - 2], k = a[rank - 1], kb = b[rank - 2], n = b[rank - 1];
  if (k != kb)
    return op->emitOpError() << "contraction sizes differ: lhs has K = " << k
                             << ", rhs has K = " << kb;
  if (c[rank - 2] != m || c[rank - 1] != n)
    return op->emitOpError()
           << "result must be " << m << "x" << n << ", got " << result;
  return success();
}

/// An accumulating matmul's accumulator is the result's box in L0C.
static LogicalResult verifyAccumulator(Operation *op, Type acc, Type result) {
  if (failed(
          checkSpace(op, cast<TileType>(acc), MemorySpace::Acc, "accumulator")))
    return failure();
  return checkSameBox(op, acc, result, "accumulator and result");
}

LogicalResult TileMatmulOp::verify() {
  return verifyCubeMatmul(*this, getLhs().getType(), getRhs().getType(),
                          getResult().getType(), 2);
}

LogicalResult TileMatmulAccOp::verify() {
  if (failed(
          verifyAccumulator(*this, getAcc().getType(), getResult().getType())))
    return failure();
  return verifyCubeMatmul(*this, getLhs().getType(), getRhs().getType(),
                          getResult().getType(), 2);
}

LogicalResult TileMatmulBiasOp::verify() {
  if (failed(verifyCubeMatmul(*this, getLhs().getType(), getRhs().getType(),
                              getResult().getType(), 2)))
    return failure();
  auto bias = cast<TileType>(getBias().getType());
  auto result = cast<TileType>(getResult().getType());
  if (failed(checkSpace(*this, bias, MemorySpace::Bias, "bias")))
    return failure();
  if (bias.getRank() != 2 || bias.getDimSize(0) != 1 ||
      bias.getDimSize(1) != result.getDimSize(1))
    return emitOpError() << "bias must be 1x" << result.getDimSize(1)
                         << ", got " << bias;
  if (bias.getElementType() != result.getElementType())
    return emitOpError() << "bias element type " << bias.getElementType()
                         << " differs from the accumulator's "
                         << result.getElementType();
  return success();
}

LogicalResult TileBatchMatmulOp::verify() {
  return verifyCubeMatmul(*this, getLhs().getType(), getRhs().getType(),
                          getResult().getType(), 3);
}

LogicalResult TileBatchMatmulAccOp::verify() {
  if (failed(
          verifyAccumulator(*this, getAcc().getType(), getResult().getType())))
    return failure();
  return verifyCubeMatmul(*this, getLhs().getType(), getRhs().getType(),
                          getResult().getType(), 3);
}

static LogicalResult verifyGemvRows(Operation *op, Type lhs) {
  if (cast<TileType>(lhs).getDimSize(0) == 1)
    return success();
  return op->emitOpError() << "lhs of a GEMV has one row, got " << lhs;
}

LogicalResult TileGemvOp::verify() {
  if (failed(verifyCubeMatmul(*this, getLhs().getType(), getRhs().getType(),
                              getResult().getType(), 2)))
    return failure();
  return verifyGemvRows(*this, getLhs().getType());
}

LogicalResult TileGemvAccOp::verify() {
  if (failed(verifyAccumulator(*this, getAcc().getType(),
                               getResult().getType())) ||
      failed(verifyCubeMatmul(*this, getLhs().getType(), getRhs().getType(),
                              getResult().getType(), 2)))
    return failure();
  return verifyGemvRows(*this, getLhs().getType());
}

//===----------------------------------------------------------------------===//
// Tile data movement and construction
//===----------------------------------------------------------------------===//

LogicalResult TileLoadOp::verify() {
  auto src = cast<GMTensorType>(getSrc().getType());
  auto tile = cast<TileType>(getResult().getType());
  if (failed(checkIndexCount(*this, getOffsets(), src.getRank(), "offsets")) ||
      failed(checkValidShape(*this, getValidShape(), tile.getRank())))
    return failure();
  if (tile.getRank() > src.getRank())
    return emitOpError() << "tile " << tile << " has more dimensions than "
                         << src;
  if (tile.getElementType() != src.getElementType())
    return emitOpError() << "tile element type " << tile.getElementType()
                         << " differs from the tensor's "
                         << src.getElementType();
  MemorySpace space = tile.getMemorySpace();
  if (space != MemorySpace::Vec && space != MemorySpace::Mat)
    return emitOpError() << "loads from GM reach 'vec' (UB) or 'mat' (L1), "
                            "not '"
                         << stringifyMemorySpace(space) << "'";
  return success();
}

LogicalResult TileStoreOp::verify() {
  auto tile = cast<TileType>(getTile().getType());
  auto dst = cast<GMTensorType>(getDst().getType());
  if (failed(checkIndexCount(*this, getOffsets(), dst.getRank(), "offsets")))
    return failure();
  if (tile.getRank() > dst.getRank())
    return emitOpError() << "tile " << tile << " has more dimensions than "
                         << dst;
  MemorySpace space = tile.getMemorySpace();
  if (space != MemorySpace::Vec && space != MemorySpace::Acc)
    return emitOpError() << "stores to GM leave from 'vec' (UB) or 'acc' "
                            "(L0C, through the fixpipe), not '"
                         << stringifyMemorySpace(space) << "'";
  // Only the fixpipe converts on the way out.
  if (space == MemorySpace::Vec &&
      tile.getElementType() != dst.getElementType())
    return emitOpError() << "a 'vec' tile stores its own element type; "
                         << tile.getElementType() << " differs from "
                         << dst.getElementType();
  return success();
}

LogicalResult TileCreateOp::verify() {
  return checkValidShape(*this, getValidShape(),
                         cast<TileType>(getResult().getType()).getRank());
}

LogicalResult TileFullOp::verify() {
  if (failed(checkValidShape(*this, getValidShape(),
                             cast<TileType>(getResult().getType()).getRank())))
    return failure();
  return checkScalarFor(*this, getValue().getType(), getResult().getType());
}

machine::Buffer tilekit::pto::getBuffer(MemorySpace space) {
  switch (space) {
#define TILEKIT_PTO_SPACE(SPACE, BUFFER)                                       \
  case MemorySpace::SPACE:                                                     \
    return machine::Buffer::BUFFER;
#include "tilekit/Machine/Machine.def"
  }
  llvm_unreachable("every memory space lives in a buffer");
}

static machine::Buffer bufferOf(Value tile) {
  return getBuffer(cast<TileType>(tile.getType()).getMemorySpace());
}

std::optional<machine::DataPath> TileLoadOp::getDataPath() {
  return machine::findPath(machine::Buffer::GM, bufferOf(getResult()));
}

std::optional<machine::DataPath> TileStoreOp::getDataPath() {
  return machine::findPath(bufferOf(getTile()), machine::Buffer::GM);
}

std::optional<machine::DataPath> TileMoveOp::getDataPath() {
  return machine::findMovePath(bufferOf(getSrc()), bufferOf(getResult()));
}

// Cube to vector leaves L0C through the fixpipe; vector to cube enters L1.
std::optional<machine::DataPath> TPushToAivOp::getDataPath() {
  return machine::DataPath::L0CToUb;
}
std::optional<machine::DataPath> TPopFromAicOp::getDataPath() {
  return machine::DataPath::L0CToUb;
}
std::optional<machine::DataPath> TPushToAicOp::getDataPath() {
  return machine::DataPath::UbToL1;
}
std::optional<machine::DataPath> TPopFromAivOp::getDataPath() {
  return machine::DataPath::UbToL1;
}

LogicalResult TileMoveOp::verify() {
  auto src = cast<TileType>(getSrc().getType());
  auto result = cast<TileType>(getResult().getType());
  if (!machine::findMovePath(getBuffer(src.getMemorySpace()),
                             getBuffer(result.getMemorySpace())))
    return emitOpError() << "there is no on-chip path from '"
                         << stringifyMemorySpace(src.getMemorySpace())
                         << "' to '"
                         << stringifyMemorySpace(result.getMemorySpace())
                         << "'";
  if (src.getMemorySpace() == MemorySpace::Acc)
    return checkSameShape(*this, src, result, "source and result");
  return checkSameBox(*this, src, result, "source and result");
}

LogicalResult TileSliceOp::verify() {
  auto src = cast<TileType>(getSrc().getType());
  auto result = cast<TileType>(getResult().getType());
  if (failed(checkIndexCount(*this, getOffsets(), src.getRank(), "offsets")) ||
      failed(checkValidShape(*this, getValidShape(), result.getRank())))
    return failure();
  if (result.getRank() != src.getRank() ||
      result.getElementType() != src.getElementType() ||
      result.getMemorySpace() != src.getMemorySpace())
    return emitOpError() << "slice " << result
                         << " must keep the rank, element type and memory "
                            "space of "
                         << src;
  return success();
}

LogicalResult TileAssembleOp::verify() {
  auto src = cast<TileType>(getSrc().getType());
  auto dst = cast<TileType>(getDst().getType());
  if (failed(checkIndexCount(*this, getOffsets(), dst.getRank(), "offsets")))
    return failure();
  if (src.getRank() != dst.getRank() ||
      src.getElementType() != dst.getElementType() ||
      src.getMemorySpace() != dst.getMemorySpace())
    return emitOpError() << "source " << src
                         << " must have the rank, element type and memory "
                            "space of the target "
                         << dst;
  return success();
}

LogicalResult TileFillPadOp::verify() {
  if (getPad() == PadValue::Null)
    return emitOpError() << "pads with zero, min or max, not null";
  if (failed(checkVec(*this, getSrc().getType(), "source")))
    return failure();
  return checkSameBox(*this, getSrc().getType(), getResult().getType(),
                      "source and result");
}

LogicalResult TileSetValidShapeOp::verify() {
  int64_t rank = cast<TileType>(getSrc().getType()).getRank();
  if (static_cast<int64_t>(getValidShape().size()) != rank)
    return emitOpError() << "valid shape needs " << rank
                         << " extents (one per dimension), got "
                         << getValidShape().size();
  return success();
}

LogicalResult TileReshapeOp::verify() {
  auto src = cast<TileType>(getSrc().getType());
  auto result = cast<TileType>(getResult().getType());
  if (src.getElementType() != result.getElementType() ||
      src.getMemorySpace() != result.getMemorySpace())
    return emitOpError() << "reshape keeps the element type and memory space";
  if (src.getNumElements() != result.getNumElements())
    return emitOpError() << "cannot reshape " << src.getNumElements()
                         << " elements into " << result.getNumElements();
  return success();
}

LogicalResult TileTransposeOp::verify() {
  auto src = cast<TileType>(getSrc().getType());
  auto result = cast<TileType>(getResult().getType());
  if (failed(checkVec(*this, src, "source")) ||
      failed(checkVec(*this, result, "result")))
    return failure();
  if (src.getRank() != 2 || result.getRank() != 2 ||
      src.getDimSize(0) != result.getDimSize(1) ||
      src.getDimSize(1) != result.getDimSize(0) ||
      src.getElementType() != result.getElementType())
    return emitOpError() << "result must be the transpose of " << src
                         << ", got " << result;
  return success();
}

LogicalResult TileReadOp::verify() {
  return checkIndicesCover(*this, getIndices(), getSrc().getType());
}

LogicalResult TileWriteOp::verify() {
  return checkIndicesCover(*this, getIndices(), getDst().getType());
}

//===----------------------------------------------------------------------===//
// Casts, comparisons, selects
//===----------------------------------------------------------------------===//

LogicalResult TileCastOp::verify() {
  if (failed(checkVec(*this, getSrc().getType(), "source")) ||
      failed(checkVec(*this, getResult().getType(), "result")))
    return failure();
  return checkSameShape(*this, getSrc().getType(), getResult().getType(),
                        "source and result");
}

LogicalResult TensorCastOp::verify() {
  return checkSameShape(*this, getSrc().getType(), getResult().getType(),
                        "source and result");
}

static LogicalResult checkMask(Operation *op, Type mask, Type like,
                               StringRef role) {
  if (failed(checkVec(op, mask, role)))
    return failure();
  if (!cast<ShapedType>(mask).getElementType().isInteger(1))
    return op->emitOpError() << role << " must have i1 elements, got " << mask;
  return checkSameShape(op, mask, like, "mask and data");
}

LogicalResult TileCmpOp::verify() {
  if (failed(checkVec(*this, getLhs().getType(), "lhs")) ||
      failed(checkVec(*this, getRhs().getType(), "rhs")) ||
      failed(checkSameBox(*this, getLhs().getType(), getRhs().getType(),
                          "operands")))
    return failure();
  return checkMask(*this, getResult().getType(), getLhs().getType(), "result");
}

LogicalResult TileCmpSOp::verify() {
  if (failed(checkVec(*this, getSrc().getType(), "source")) ||
      failed(checkScalarFor(*this, getScalar().getType(), getSrc().getType())))
    return failure();
  return checkMask(*this, getResult().getType(), getSrc().getType(), "result");
}

LogicalResult TileSelOp::verify() {
  if (failed(checkVec(*this, getLhs().getType(), "lhs")) ||
      failed(checkVec(*this, getRhs().getType(), "rhs")) ||
      failed(checkVec(*this, getResult().getType(), "result")) ||
      failed(checkSameBox(*this, getLhs().getType(), getRhs().getType(),
                          "operands")) ||
      failed(checkSameBox(*this, getLhs().getType(), getResult().getType(),
                          "operands and result")))
    return failure();
  return checkMask(*this, getMask().getType(), getLhs().getType(), "mask");
}

LogicalResult TileSelSOp::verify() {
  if (failed(checkVec(*this, getSrc().getType(), "source")) ||
      failed(checkVec(*this, getResult().getType(), "result")) ||
      failed(checkSameBox(*this, getSrc().getType(), getResult().getType(),
                          "source and result")) ||
      failed(checkScalarFor(*this, getScalar().getType(), getSrc().getType())))
    return failure();
  return checkMask(*this, getMask().getType(), getSrc().getType(), "mask");
}

//===----------------------------------------------------------------------===//
// Cross-core pipes and system ops
//===----------------------------------------------------------------------===//

/// Which buffer each end of a cross-core transfer uses: the cube side sends
/// from L0C or L1 and receives into L1; the vector side sends from and
/// receives into UB.
static LogicalResult verifyCrossCoreBuffer(TPushToAivOp op) {
  MemorySpace space = cast<TileType>(op.getTile().getType()).getMemorySpace();
  if (space == MemorySpace::Acc || space == MemorySpace::Mat)
    return success();
  return op.emitOpError() << "sends from the cube core's 'acc' or 'mat' "
                             "buffers, not '"
                          << stringifyMemorySpace(space) << "'";
}
static LogicalResult verifyCrossCoreBuffer(TPopFromAivOp op) {
  return checkSpace(op, cast<TileType>(op.getResult().getType()),
                    MemorySpace::Mat, "received tile");
}
static LogicalResult verifyCrossCoreBuffer(TPushToAicOp op) {
  return checkSpace(op, cast<TileType>(op.getTile().getType()),
                    MemorySpace::Vec, "sent tile");
}
static LogicalResult verifyCrossCoreBuffer(TPopFromAicOp op) {
  return checkSpace(op, cast<TileType>(op.getResult().getType()),
                    MemorySpace::Vec, "received tile");
}

template <typename OpTy>
static LogicalResult verifyCrossCore(OpTy op, FunctionKind placement,
                                     bool allowOdd) {
  std::optional<FunctionKind> kind = getEnclosingFunctionKind(op);
  if (kind && *kind != placement)
    return op.emitOpError()
           << "runs on the " << stringifyFunctionKind(placement)
           << " side of a group and cannot appear in a function of kind '"
           << stringifyFunctionKind(*kind) << "'";
  // Read the attributes signed: a negative code must not wrap around.
  int64_t split = op.getSplitAttr().getInt();
  if (failed(
          verifySplitCode([&] { return op.emitOpError(); }, split, allowOdd)))
    return failure();
  if (op.getPipeIdAttr().getInt() < 0)
    return op.emitOpError() << "pipe id must be non-negative";
  if (failed(verifyCrossCoreBuffer(op)))
    return failure();
  machine::SplitCode code = *machine::getSplitCode(split);
  auto tile = cast<TileType>(op->getNumOperands() ? op->getOperand(0).getType()
                                                  : op->getResult(0).getType());
  int64_t axis = machine::getSplitAxis(code);
  if (split != 0 && tile.getRank() <= axis)
    return op.emitOpError()
           << "split code " << split << " cuts dimension " << axis
           << ", but the tile has rank " << tile.getRank();
  // The cube core's side holds the whole tile, cut at the box half unless
  // an odd code gives its cut with lane_stride.
  std::optional<int64_t> stride;
  if constexpr (std::is_same_v<OpTy, TPushToAivOp>)
    stride = op.getLaneStride();
  constexpr bool wholeTile =
      std::is_same_v<OpTy, TPushToAivOp> || std::is_same_v<OpTy, TPopFromAivOp>;
  if (wholeTile && split != 0 && !stride && tile.getDimSize(axis) % 2 != 0)
    return op.emitOpError()
           << "split code " << split << " cuts the box at its half, but the "
           << "box extent along dim " << axis << " is " << tile.getDimSize(axis)
           << ", which is odd";
  if constexpr (std::is_same_v<OpTy, TPushToAivOp>) {
    if (stride) {
      if (split == 0)
        return op.emitOpError() << "lane_stride needs a split transfer "
                                   "(split code 3 or 4)";
      if (!machine::isOddSplit(code))
        return op.emitOpError()
               << "lane_stride moves the cut of the odd codes 3 and 4; "
                  "split code "
               << split << " always cuts the box at its half";
      if (*stride <= 0)
        return op.emitOpError()
               << "lane_stride must be positive, got " << *stride;
      int64_t extent = tile.getDimSize(axis);
      if (*stride >= extent)
        return op.emitOpError() << "lane_stride " << *stride
                                << " leaves lane 1 empty: the split "
                                   "dimension has extent "
                                << extent;
    }
  }
  return success();
}

template <typename OpTy> static LogicalResult verifySync(OpTy op) {
  if (op.getSetPipe() == Pipe::All || op.getWaitPipe() == Pipe::All)
    return op.emitOpError() << "synchronizes two specific pipes; use "
                               "pto.system.bar_all for every pipe";
  if (op.getSetPipe() == op.getWaitPipe())
    return op.emitOpError() << "synchronizes a pipe with itself; a pipe "
                               "already runs in order";
  // The flag hardware has eight events per pipe pair.
  int64_t event = op.getEventIdAttr().getInt();
  if (event < 0 || event > 7)
    return op.emitOpError() << "event id must be in [0, 7], got " << event;
  return success();
}

template <typename OpTy>
static LogicalResult verifyInitializePipe(OpTy op, FunctionKind placement) {
  std::optional<FunctionKind> kind = getEnclosingFunctionKind(op);
  if (kind && *kind != placement)
    return op.emitOpError()
           << "sets up the " << stringifyFunctionKind(placement)
           << " end of a pipe and cannot appear in a function of kind '"
           << stringifyFunctionKind(*kind) << "'";
  if (op.getPipeIdAttr().getInt() < 0)
    return op.emitOpError() << "pipe id must be non-negative";
  if (op.getSlotSize() <= 0 || op.getSlotSize() % 32 != 0)
    return op.emitOpError() << "slot size must be a positive multiple of 32 "
                               "bytes, got "
                            << op.getSlotSize();
  if (op.getSlotNum() <= 0)
    return op.emitOpError()
           << "needs at least one slot, got " << op.getSlotNum();
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor ops
//===----------------------------------------------------------------------===//

LogicalResult TensorCreateOp::verify() {
  return checkDynamicSizes(*this, getSizes(),
                           cast<GMTensorType>(getResult().getType()));
}

LogicalResult TensorFullOp::verify() {
  if (failed(checkDynamicSizes(*this, getSizes(),
                               cast<GMTensorType>(getResult().getType()))))
    return failure();
  return checkScalarFor(*this, getValue().getType(), getResult().getType());
}

LogicalResult TensorViewOp::verify() {
  auto src = cast<GMTensorType>(getSrc().getType());
  auto result = cast<GMTensorType>(getResult().getType());
  if (failed(checkDynamicSizes(*this, getSizes(), result)))
    return failure();
  if (src.getElementType() != result.getElementType())
    return emitOpError() << "a view keeps the element type";
  if (src.hasStaticShape() && result.hasStaticShape() &&
      src.getNumElements() != result.getNumElements())
    return emitOpError() << "cannot view " << src.getNumElements()
                         << " elements as " << result.getNumElements();
  return success();
}

LogicalResult TensorSliceOp::verify() {
  auto src = cast<GMTensorType>(getSrc().getType());
  auto result = cast<GMTensorType>(getResult().getType());
  if (failed(checkIndexCount(*this, getOffsets(), src.getRank(), "offsets")) ||
      failed(checkValidShape(*this, getValidShape(), result.getRank())))
    return failure();
  if (result.getRank() != src.getRank() ||
      result.getElementType() != src.getElementType())
    return emitOpError() << "slice " << result
                         << " must keep the rank and element type of " << src;
  if (!result.hasStaticShape())
    return emitOpError() << "the requested slice shape must be static, got "
                         << result;
  return success();
}

LogicalResult TensorAssembleOp::verify() {
  auto src = cast<GMTensorType>(getSrc().getType());
  auto dst = cast<GMTensorType>(getDst().getType());
  if (failed(checkIndexCount(*this, getOffsets(), dst.getRank(), "offsets")))
    return failure();
  if (src.getRank() != dst.getRank() ||
      src.getElementType() != dst.getElementType())
    return emitOpError() << "source " << src
                         << " must have the rank and element type of the "
                            "target "
                         << dst;
  return success();
}

LogicalResult TensorDimOp::verify() {
  int64_t rank = cast<GMTensorType>(getSrc().getType()).getRank();
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= rank)
    return emitOpError() << "dimension " << dim << " is out of range for a "
                         << rank << "-D tensor";
  return success();
}

LogicalResult TensorReadOp::verify() {
  return checkIndicesCover(*this, getIndices(), getSrc().getType());
}

LogicalResult TensorWriteOp::verify() {
  return checkIndicesCover(*this, getIndices(), getDst().getType());
}

/// Checks C = op(A) @ op(B) on GM tensors, where op transposes the last two
/// dimensions when the `*_trans` flag is set. Dynamic sizes match anything.
static LogicalResult verifyTensorMatmul(Operation *op, Type lhsType,
                                        Type rhsType, Type resultType,
                                        bool aTrans, bool bTrans) {
  auto lhs = cast<GMTensorType>(lhsType), rhs = cast<GMTensorType>(rhsType),
       result = cast<GMTensorType>(resultType);
  int64_t rank = lhs.getRank();
  if (rank < 2 || rhs.getRank() != rank || result.getRank() != rank)
    return op->emitOpError() << "expects operands and result of one rank "
                                "(2 or more), got "
                             << lhs << ", " << rhs << " and " << result;
  if (lhs.getElementType() != rhs.getElementType())
    return op->emitOpError()
           << "lhs and rhs element types differ: " << lhs.getElementType()
           << " and " << rhs.getElementType();
  if (isa<FloatType>(lhs.getElementType()) !=
      isa<FloatType>(result.getElementType()))
    return op->emitOpError()
           << "out_dtype " << result.getElementType() << " does not fit "
           << lhs.getElementType() << " inputs";
  auto dim = [](GMTensorType t, int64_t i) { return t.getDimSize(i); };
  auto agree = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  for (int64_t i = 0; i < rank - 2; ++i)
    if (!agree(dim(lhs, i), dim(rhs, i)) || !agree(dim(lhs, i), dim(result, i)))
      return op->emitOpError() << "batch dimension " << i << " differs";
  int64_t m = dim(lhs, rank - (aTrans ? 1 : 2));
  int64_t k = dim(lhs, rank - (aTrans ? 2 : 1));
  int64_t kb = dim(rhs, rank - (bTrans ? 1 : 2));
  int64_t n = dim(rhs, rank - (bTrans ? 2 : 1));
  if (!agree(k, kb))
    return op->emitOpError() << "contraction sizes differ: lhs has K = " << k
                             << ", rhs has K = " << kb;
  if (!agree(dim(result, rank - 2), m) || !agree(dim(result, rank - 1), n))
    return op->emitOpError()
           << "result " << result << " does not match the product's shape";
  return success();
}

LogicalResult TensorMatmulOp::verify() {
  return verifyTensorMatmul(*this, getLhs().getType(), getRhs().getType(),
                            getResult().getType(), getATrans(), getBTrans());
}

LogicalResult TensorMatmulAccOp::verify() {
  if (failed(checkSameBox(*this, getAcc().getType(), getResult().getType(),
                          "accumulator and result")))
    return failure();
  return verifyTensorMatmul(*this, getLhs().getType(), getRhs().getType(),
                            getResult().getType(), getATrans(), getBTrans());
}

//===----------------------------------------------------------------------===//
// Results that live in an operand's storage (SharedStorageOpInterface).
//===----------------------------------------------------------------------===//

OpOperand *TileAssembleOp::getStorageOperand(OpResult) {
  return &getDstMutable();
}
OpOperand *TileWriteOp::getStorageOperand(OpResult) { return &getDstMutable(); }
OpOperand *TileScatterOp::getStorageOperand(OpResult) {
  return &getDstMutable();
}
OpOperand *TileSetValidShapeOp::getStorageOperand(OpResult) {
  return &getSrcMutable();
}
OpOperand *TileReshapeOp::getStorageOperand(OpResult) {
  return &getSrcMutable();
}
OpOperand *TileRowCumsumOp::getStorageOperand(OpResult) {
  return &getSrcMutable();
}
OpOperand *TileColCumsumOp::getStorageOperand(OpResult) {
  return &getSrcMutable();
}
OpOperand *TileMrgSortOp::getStorageOperand(OpResult result) {
  return result == getSortedValues() ? &getValuesMutable()
                                     : &getIndicesMutable();
}

#define GET_OP_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOOps.cpp.inc"
