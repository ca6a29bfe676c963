//===- OutlineTensorCompute.cpp - pto-outline-tensor-compute --------------===//
//
// A compiled orchestration is host code: it launches in-core work items and
// moves or computes no data itself. This pass gives the orchestration's data
// ops on whole tensors a kernel each: fills, slices, assembles, element
// writes, casts, the elementwise families, row and column folds and matmuls
// become a loop of calls of a generated in-core function, one call per band
// of rows of the op's box, which walks the band's tiles (load, compute,
// store) as the executor's tensor op does. A matmul's transposed operand is
// transposed into a workspace by a kernel of its own first; an integer
// matmul_acc is an add of the accumulator and a matmul. The lowering then
// sees only launches.
//
// The executor keeps a valid region for every GM tensor (a slice past the
// edge of its source has a partial one) and a compiled kernel keeps none, so
// the pass follows valid regions through the ops it outlines as index
// values of the orchestration and refuses, at the slice, a tensor whose
// region may be partial reaching anything else.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/Transforms/OutlineTensorCompute.h"
#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Dialect/PTO/Transforms/Passes.h"
#include "tilekit/Machine/ApiScratch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

namespace tilekit::pto {
#define GEN_PASS_DEF_OUTLINETENSORCOMPUTE
#include "tilekit/Dialect/PTO/Transforms/Passes.h.inc"
} // namespace tilekit::pto

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;

namespace {

/// The vector unit's and the cube's data come in blocks of this many bytes.
constexpr int64_t kBlock = machine::scratch::kBlockBytes;
/// Rows of a band (one call) and the widest tile row; a tile of 8-byte
/// elements then takes 16 KiB of UB.
constexpr int64_t kBandRows = 16;
constexpr int64_t kMaxTileColumns = 128;
/// The most a tile of a fold takes: it holds whole rows (or columns), and
/// Ascend C's reductions need scratch beside it.
constexpr int64_t kMaxFoldTileBytes = 32 * 1024;

/// A tensor the generated kernel reads or writes, with where the op's box
/// starts in it (one offset per dimension).
struct BoxOperand {
  Value tensor;
  SmallVector<Value, 4> offsets;
};

/// Makes a tile of the band from the loaded tiles (one per input) and the
/// kernel's scalar arguments; `rows` and `cols` are the tile's valid shape.
using TileMaker = std::function<Value(OpBuilder &, Location, ValueRange tiles,
                                      ValueRange scalars, TileType type,
                                      Value rows, Value cols)>;

/// One outlined op: its box, the tensors it reads and the one it writes.
struct Outline {
  Operation *op;
  StringRef stem;
  SmallVector<BoxOperand, 2> inputs;
  BoxOperand output;
  SmallVector<Value, 2> scalars;
  SmallVector<Value, 4> extents;
  /// What each extent is at most, when known before the kernel runs.
  SmallVector<int64_t, 4> bounds;
  /// A fold of each row or column of the box, which one tile must hold
  /// whole (its result tile has one column or one row); else elementwise.
  std::optional<ElementwiseFamily> fold;
  /// A matmul's depth (dynamic when known at run time only) and the K of
  /// one of its tiles (0 for other ops), and the tile shape an op needs.
  int64_t depth = 0, tileDepth = 0;
  int64_t tileRows = 0, tileCols = 0;
  /// The tile is transposed (pto.tile.transpose) and stored at the mirrored
  /// place of the output: the output's last two dimensions swap.
  bool transposes = false;
  Type tileElement;
  /// The element types of a fused chain's intermediate tiles, which the
  /// tile's columns must make whole 32-byte blocks of too.
  SmallVector<Type, 2> chainElements;
  TileMaker makeTile;
};

/// The kernels the pass writes.
enum class KernelKind { None, Fill, Write, Slice, Assemble, Map, Fold, Matmul };

KernelKind kernelKindOf(Operation *op) {
  if (isa<TensorFullOp>(op))
    return KernelKind::Fill;
  if (isa<TensorWriteOp>(op))
    return KernelKind::Write;
  if (isa<TensorSliceOp>(op))
    return KernelKind::Slice;
  if (isa<TensorAssembleOp>(op))
    return KernelKind::Assemble;
  if (isa<TensorCastOp>(op))
    return KernelKind::Map;
  if (isa<TensorMatmulOp>(op))
    return KernelKind::Matmul;
  auto elementwise = dyn_cast<ElementwiseOpInterface>(op);
  if (!elementwise || !op->hasTrait<pto::OpTrait::OrchestrationOp>())
    return KernelKind::None;
  switch (elementwise.getFamily()) {
  case ElementwiseFamily::Unary:
  case ElementwiseFamily::Binary:
  case ElementwiseFamily::Scalar:
    return KernelKind::Map;
  case ElementwiseFamily::RowReduce:
  case ElementwiseFamily::ColReduce:
    return KernelKind::Fold;
  default:
    return KernelKind::None;
  }
}

/// Bytes an element of `type` takes in GM and in a buffer.
int64_t elementBytes(Type type) {
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

/// The tile op of the same name as the tensor op `op` (`pto.tile.exp` for
/// `pto.tensor.exp`), at its location, with its attributes, on `operands`.
Value createTileOpLike(OpBuilder &builder, Operation *op, ValueRange operands,
                       TileType type) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("pto.tensor.");
  OperationState state(op->getLoc(), ("pto.tile." + name).str());
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(op->getAttrs());
  return builder.create(state)->getResult(0);
}

Value indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

/// The extent of each dimension of `tensor` as index values.
SmallVector<Value, 4> dimsOf(OpBuilder &builder, Location loc, Value tensor) {
  auto type = cast<GMTensorType>(tensor.getType());
  SmallVector<Value, 4> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(
        type.isDynamicDim(d)
            ? Value(TensorDimOp::create(builder, loc, builder.getIndexType(),
                                        tensor, builder.getI64IntegerAttr(d)))
            : indexConstant(builder, loc, type.getDimSize(d)));
  return dims;
}

/// A matmul's product box: A's leading dimensions and rows, B's columns.
SmallVector<Value, 4> productBox(OpBuilder &builder, TensorMatmulOp matmul) {
  SmallVector<Value, 4> box = dimsOf(builder, matmul.getLoc(), matmul.getLhs());
  box.back() = dimsOf(builder, matmul.getLoc(), matmul.getRhs()).back();
  return box;
}

SmallVector<Value, 4> zeros(OpBuilder &builder, Location loc, int64_t rank) {
  return SmallVector<Value, 4>(rank, indexConstant(builder, loc, 0));
}

/// The largest value `index` takes, when constants and the induction
/// variables of loops with constant bounds bound it.
std::optional<int64_t> largestValue(Value index) {
  if (std::optional<int64_t> constant = getConstantIntValue(index))
    return constant;
  if (auto loop = scf::getForInductionVarOwner(index)) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
      return std::nullopt;
    return *lb + (*ub - *lb - 1) / *step * *step;
  }
  if (auto add = index.getDefiningOp<arith::AddIOp>()) {
    std::optional<int64_t> lhs = largestValue(add.getLhs());
    std::optional<int64_t> rhs = largestValue(add.getRhs());
    if (lhs && rhs)
      return *lhs + *rhs;
  }
  return std::nullopt;
}

/// The GM buffer `tensor` is (a view or an update is its source's), or null
/// when the pass cannot tell.
Value bufferOf(Value tensor) {
  while (Operation *def = tensor.getDefiningOp()) {
    if (auto view = dyn_cast<TensorViewOp>(def))
      tensor = view.getSrc();
    else if (isa<TensorWriteOp, TensorAssembleOp>(def))
      tensor = def->getOperand(1);
    else
      return isa<TensorCreateOp, TensorFullOp, TensorSliceOp>(def) ||
                     kernelKindOf(def) == KernelKind::Map ||
                     kernelKindOf(def) == KernelKind::Matmul
                 ? tensor
                 : Value();
  }
  auto arg = cast<BlockArgument>(tensor);
  return isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) ? tensor
                                                                 : Value();
}

/// Whether the pass writes a kernel for `matmul`: operands the cube takes
/// (f16, bf16, int8; a transposed one is transposed into a workspace by a
/// kernel of the pass first).
bool matmulOutlines(TensorMatmulOp matmul) {
  Type element = cast<GMTensorType>(matmul.getLhs().getType()).getElementType();
  return element.isF16() || element.isBF16() || element.isInteger(8);
}

/// An integer `matmul_acc` as `add` of the accumulator (times 0 where its
/// init condition holds) and a `matmul`, which the pass then outlines: an
/// integer sum wraps to the same bits in any order. A float one stays: the
/// cube starts an L0C sum at zero or at a bias row, not at a tensor in GM,
/// and adding the accumulator afterwards rounds otherwise.
void splitIntegerMatmulAcc(TensorMatmulAccOp op) {
  auto accType = cast<GMTensorType>(op.getAcc().getType());
  Type element = accType.getElementType();
  if (!isa<IntegerType>(element))
    return;
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Type resultType = op.getResult().getType();
  Value product =
      TensorMatmulOp::create(builder, loc, resultType, op.getLhs(), op.getRhs(),
                             op.getATransAttr(), op.getBTransAttr());
  Value acc = op.getAcc();
  if (Value init = op.getInitCond()) {
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getIntegerAttr(element, 0));
    Value one = arith::ConstantOp::create(builder, loc,
                                          builder.getIntegerAttr(element, 1));
    Value scale = arith::SelectOp::create(builder, loc, init, zero, one);
    acc = TensorMulSOp::create(builder, loc, accType, acc, scale);
  }
  Value sum = TensorAddOp::create(builder, loc, resultType, acc, product);
  op.replaceAllUsesWith(sum);
  op.erase();
}

/// Whether nothing between `from` and `to` (later in its block) writes GM
/// or allocates: the values `from` reads are still there at `to`.
bool nothingWritesBetween(Operation *from, Operation *to) {
  if (from->getBlock() != to->getBlock() || !from->isBeforeInBlock(to))
    return false;
  for (Operation *op = from->getNextNode(); op != to; op = op->getNextNode())
    if (!isMemoryEffectFree(op))
      return false;
  return true;
}

class TensorComputeOutliner {
public:
  TensorComputeOutliner(ModuleOp module) : module(module), symbols(module) {}

  LogicalResult run(func::FuncOp orchestration);

private:
  /// The box, operands and tile of `op`, or nullopt when the pass leaves it
  /// (the lowering then says what to write instead).
  std::optional<Outline> plan(OpBuilder &builder, Operation *op);
  /// The elementwise ops of the chain ending in `root` (an elementwise op,
  /// or an assemble of one's result), producers first: `root`'s and,
  /// recursively, the ops whose only use is in the chain (fusedInto).
  void planChain(OpBuilder &builder, Operation *root, Outline &outline);
  /// Which op each elementwise op is computed in, when it is not its own
  /// kernel: its only user, in one pass over the tiles; and which matmuls
  /// store straight into the tensor they are assembled into.
  void findChains(ArrayRef<Operation *> work);
  /// Launches of a kernel that transposes each operand of `matmul` it reads
  /// transposed into a workspace, which the matmul then reads as it is.
  void untranspose(TensorMatmulOp matmul);
  /// `outline` as the cube kernel of `matmul`, its product stored at `out`.
  void planMatmul(OpBuilder &builder, TensorMatmulOp matmul,
                  const BoxOperand &out, Outline &outline);
  /// The tensor whose box and valid region `value` has: itself, or for the
  /// result of a fused op (never made) its first operand's.
  Value chainSource(Value value) const {
    while (Operation *def = value.getDefiningOp()) {
      if (!fusedInto.count(def))
        break;
      value = def->getOperand(0);
    }
    return value;
  }
  func::FuncOp buildKernel(const Outline &outline, int64_t tileRows,
                           int64_t tileCols);
  void emitLaunches(OpBuilder &builder, const Outline &outline);

  /// The valid region of `tensor` where it may be partial (a slice's);
  /// the whole tensor otherwise.
  SmallVector<Value, 4> validOf(OpBuilder &builder, Location loc,
                                Value tensor) {
    auto partial = partialValid.find(tensor);
    if (partial != partialValid.end())
      return partial->second;
    return dimsOf(builder, loc, tensor);
  }
  bool isPartial(Value tensor) const { return partialValid.count(tensor); }
  /// `tensor` (of one dimension) seen as one row, one view for all of its
  /// uses, made where it is.
  Value rowView(Value tensor);
  /// `to` has the valid region of `from`.
  void inherit(Value to, Value from) {
    auto partial = partialValid.find(from);
    if (partial == partialValid.end())
      return;
    SmallVector<Value, 4> valid = partial->second;
    Operation *origin = partialOrigin.lookup(from);
    partialValid[to] = std::move(valid);
    partialOrigin[to] = origin;
  }
  LogicalResult checkPartialStaysTracked();

  ModuleOp module;
  SymbolTable symbols;
  /// Tensors whose valid region may be partial, with it; and the slice each
  /// came from (for the error).
  llvm::DenseMap<Value, SmallVector<Value, 4>> partialValid;
  llvm::DenseMap<Value, Operation *> partialOrigin;
  /// The ops outlined so far, which follow valid regions, and the views and
  /// calls made for them.
  llvm::DenseSet<Operation *> outlined;
  llvm::DenseSet<Operation *> generated;
  llvm::DenseMap<Value, Value> rowViews;
  llvm::DenseMap<Operation *, Operation *> fusedInto;
};

/// Whether the slice's box lies inside its source for every value of its
/// offsets, and its valid shape (if given) is the whole box.
bool isWholeSlice(TensorSliceOp slice) {
  auto src = cast<GMTensorType>(slice.getSrc().getType());
  auto result = cast<GMTensorType>(slice.getResult().getType());
  for (auto [d, offset] : llvm::enumerate(slice.getOffsets())) {
    std::optional<int64_t> last = largestValue(offset);
    if (src.isDynamicDim(d) || !last ||
        *last + result.getDimSize(d) > src.getDimSize(d))
      return false;
  }
  for (auto [d, valid] : llvm::enumerate(slice.getValidShape()))
    if (getConstantIntValue(valid) != result.getDimSize(d))
      return false;
  return true;
}

std::optional<Outline> TensorComputeOutliner::plan(OpBuilder &builder,
                                                   Operation *op) {
  Location loc = op->getLoc();
  Outline outline;
  outline.op = op;
  auto loadedTile = [](OpBuilder &, Location, ValueRange tiles, ValueRange,
                       TileType, Value, Value) { return tiles.front(); };
  auto filledTile = [](OpBuilder &b, Location l, ValueRange, ValueRange scalars,
                       TileType type, Value rows, Value cols) -> Value {
    return TileFullOp::create(b, l, type, scalars.front(),
                              ValueRange{rows, cols});
  };
  // A fresh tensor for a result of extents `dims` (a workspace region).
  auto freshOutput = [&](Value result,
                         ArrayRef<Value> dims) -> std::optional<BoxOperand> {
    auto type = cast<GMTensorType>(result.getType());
    SmallVector<Value, 4> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        sizes.push_back(dims[d]);
    // Made with the orchestration's first ops, when the op runs once: the
    // orchestration then does nothing between its launches. Extents known
    // at run time are at hand only here; compile moves the region up.
    OpBuilder::InsertionGuard guard(builder);
    Block *entry = &op->getParentOfType<func::FuncOp>().front();
    if (op->getBlock() == entry && sizes.empty())
      builder.setInsertionPointToStart(entry);
    Value fresh = TensorCreateOp::create(builder, loc, type, sizes);
    return BoxOperand{fresh, zeros(builder, loc, type.getRank())};
  };

  if (auto full = dyn_cast<TensorFullOp>(op)) {
    auto type = cast<GMTensorType>(full.getType());
    SmallVector<Value, 4> dims;
    auto sizes = full.getSizes().begin();
    for (int64_t d = 0; d < type.getRank(); ++d)
      dims.push_back(type.isDynamicDim(d)
                         ? *sizes++
                         : indexConstant(builder, loc, type.getDimSize(d)));
    std::optional<BoxOperand> out = freshOutput(full.getResult(), dims);
    if (!out)
      return std::nullopt;
    outline.stem = "fill";
    outline.output = *out;
    outline.scalars = {full.getValue()};
    outline.extents = dims;
    outline.makeTile = filledTile;
  } else if (auto write = dyn_cast<TensorWriteOp>(op)) {
    outline.stem = "write";
    outline.output = {write.getDst(),
                      SmallVector<Value, 4>(write.getIndices())};
    outline.scalars = {write.getValue()};
    outline.extents.assign(write.getIndices().size(),
                           indexConstant(builder, loc, 1));
    outline.makeTile = filledTile;
  } else if (auto slice = dyn_cast<TensorSliceOp>(op)) {
    // Its box is its type's (static: the verifier says so).
    std::optional<BoxOperand> out =
        freshOutput(slice.getResult(), dimsOf(builder, loc, slice.getResult()));
    if (!out)
      return std::nullopt;
    outline.stem = "slice";
    outline.inputs = {
        {slice.getSrc(), SmallVector<Value, 4>(slice.getOffsets())}};
    outline.output = *out;
    // The data present in the source, which the executor copies.
    SmallVector<Value, 4> srcDims = dimsOf(builder, loc, slice.getSrc());
    auto shape = cast<GMTensorType>(slice.getType()).getShape();
    auto inside = [&](ArrayRef<Value> limits) {
      SmallVector<Value, 4> extents;
      Value zero = indexConstant(builder, loc, 0);
      for (auto [limit, offset, extent] :
           llvm::zip(limits, slice.getOffsets(), shape)) {
        Value left = builder.createOrFold<arith::SubIOp>(loc, limit, offset);
        left = builder.createOrFold<arith::MaxSIOp>(loc, left, zero);
        extents.push_back(arith::MinSIOp::create(
            builder, loc, left, indexConstant(builder, loc, extent)));
      }
      return extents;
    };
    outline.extents = inside(srcDims);
    outline.makeTile = loadedTile;
    if (!isWholeSlice(slice)) {
      SmallVector<Value, 4> valid(slice.getValidShape());
      if (valid.empty())
        valid = inside(validOf(builder, loc, slice.getSrc()));
      partialValid[slice.getResult()] = valid;
      partialOrigin[slice.getResult()] = slice;
    }
  } else if (auto matmul = dyn_cast<TensorMatmulOp>(op)) {
    if (!matmulOutlines(matmul))
      return std::nullopt;
    std::optional<BoxOperand> out =
        freshOutput(matmul.getResult(), productBox(builder, matmul));
    if (!out)
      return std::nullopt;
    planMatmul(builder, matmul, *out, outline);
  } else if (auto assemble = dyn_cast<TensorAssembleOp>(op)) {
    outline.stem = "assemble";
    int64_t rank = cast<GMTensorType>(assemble.getSrc().getType()).getRank();
    outline.output = {assemble.getDst(),
                      SmallVector<Value, 4>(assemble.getOffsets())};
    if (auto matmul = assemble.getSrc().getDefiningOp<TensorMatmulOp>();
        matmul && fusedInto.count(matmul)) {
      // The product stored straight into the assemble's target.
      outlined.insert(matmul);
      planMatmul(builder, matmul, outline.output, outline);
    } else {
      if (fusedInto.count(assemble.getSrc().getDefiningOp())) {
        planChain(builder, op, outline);
      } else {
        outline.inputs = {{assemble.getSrc(), zeros(builder, loc, rank)}};
        outline.makeTile = loadedTile;
      }
      outline.extents = validOf(builder, loc, chainSource(assemble.getSrc()));
    }
  } else if (kernelKindOf(op) == KernelKind::Map) {
    // Casts and the elementwise families: the tile ops of the same names on
    // each tile of the box, for the op and the producers fused into it.
    SmallVector<Value, 4> box =
        dimsOf(builder, loc, chainSource(op->getOperand(0)));
    std::optional<BoxOperand> out = freshOutput(op->getResult(0), box);
    if (!out)
      return std::nullopt;
    outline.output = *out;
    outline.extents = box;
    planChain(builder, op, outline);
  } else if (kernelKindOf(op) == KernelKind::Fold) {
    // A fold: the tile op of the same name on each tile of the box. It
    // sums in the executor's order only over whole rows (columns) of one
    // tile: the extent it folds must be static and the region whole.
    Value source = op->getOperand(0);
    ElementwiseFamily family = cast<ElementwiseOpInterface>(op).getFamily();
    auto src = cast<GMTensorType>(source.getType());
    bool rows = family == ElementwiseFamily::RowReduce;
    int64_t whole = src.getRank() == 2 ? src.getDimSize(rows ? 1 : 0)
                                       : ShapedType::kDynamic;
    int64_t bytes = elementBytes(src.getElementType());
    if (ShapedType::isDynamic(whole) || isPartial(source) ||
        whole * bytes * (rows ? 1 : kBlock / bytes) > kMaxFoldTileBytes)
      return std::nullopt;
    // One column of the source's rows, or one row of its columns.
    SmallVector<Value, 4> folded = dimsOf(builder, loc, source);
    folded[rows ? 1 : 0] = indexConstant(builder, loc, 1);
    std::optional<BoxOperand> out = freshOutput(op->getResult(0), folded);
    if (!out)
      return std::nullopt;
    outline.fold = family;
    outline.stem = op->getName().getStringRef().drop_front(
        StringRef("pto.tensor.").size());
    outline.inputs = {{source, zeros(builder, loc, src.getRank())}};
    outline.output = *out;
    // The box is the source's (its result is one column or row of it).
    outline.extents = dimsOf(builder, loc, source);
    outline.makeTile = [op](OpBuilder &b, Location, ValueRange tiles,
                            ValueRange, TileType type, Value, Value) {
      return createTileOpLike(b, op, tiles, type);
    };
  } else {
    return std::nullopt;
  }
  // A write or assemble updates its target, whose valid region it keeps.
  if (isa<TensorWriteOp, TensorAssembleOp>(op))
    inherit(op->getResult(0), op->getOperand(1));
  outline.tileElement =
      cast<GMTensorType>(outline.output.tensor.getType()).getElementType();
  // A box never exceeds the tensor it is read from or made as.
  if (isa<TensorWriteOp>(op))
    outline.bounds.assign(outline.extents.size(), 1);
  else
    outline.bounds.assign(
        cast<GMTensorType>(isa<TensorAssembleOp>(op) || outline.fold
                               ? op->getOperand(0).getType()
                               : op->getResult(0).getType())
            .getShape());
  return outline;
}

void TensorComputeOutliner::planMatmul(OpBuilder &builder,
                                       TensorMatmulOp matmul,
                                       const BoxOperand &out,
                                       Outline &outline) {
  // K in steps of one tile, accumulating in L0C: every sum adds its
  // products in K order, as the executor's matmul of the whole tensors
  // does (an integer sum is exact in any order).
  Location loc = matmul.getLoc();
  auto lhs = cast<GMTensorType>(matmul.getLhs().getType());
  int64_t rank = lhs.getRank();
  int64_t depth = lhs.getDimSize(rank - 1);
  int64_t bytes = elementBytes(lhs.getElementType());
  // K in whole fractal rows (32 bytes); n in 16 columns, or in the 32 x 32
  // squares of a 1-byte right operand; a right tile of at most 32 KiB.
  int64_t kStep = kBlock / bytes, tileCols = 64;
  outline.stem = "matmul";
  outline.inputs = {{matmul.getLhs(), zeros(builder, loc, rank)},
                    {matmul.getRhs(), zeros(builder, loc, rank)}};
  outline.output = out;
  outline.extents = productBox(builder, matmul);
  outline.depth = depth;
  // A K known at run time only: tiles of the most that fit, the last one
  // ragged.
  int64_t widest =
      llvm::alignDown(kMaxFoldTileBytes / (tileCols * bytes), kStep);
  outline.tileDepth =
      ShapedType::isDynamic(depth)
          ? widest
          : std::min<int64_t>(llvm::alignTo(depth, kStep), widest);
  outline.tileRows = kBandRows;
  outline.tileCols = tileCols;
}

void TensorComputeOutliner::untranspose(TensorMatmulOp matmul) {
  OpBuilder builder(matmul);
  Location loc = matmul.getLoc();
  Block *entry = &matmul->getParentOfType<func::FuncOp>().front();
  for (auto [operand, transposed] :
       {std::pair{&matmul.getLhsMutable(), matmul.getATrans()},
        std::pair{&matmul.getRhsMutable(), matmul.getBTrans()}}) {
    if (!transposed)
      continue;
    Value source = operand->get();
    auto type = cast<GMTensorType>(source.getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t, 4> shape(type.getShape());
    std::swap(shape[rank - 2], shape[rank - 1]);
    Value turned;
    {
      // Made with the orchestration's first ops, as other workspaces (run-
      // time extents are at hand only here; compile moves it up).
      OpBuilder::InsertionGuard guard(builder);
      SmallVector<Value, 4> sizes;
      if (!type.hasStaticShape()) {
        SmallVector<Value, 4> dims = dimsOf(builder, loc, source);
        std::swap(dims[rank - 2], dims[rank - 1]);
        for (int64_t d = 0; d < rank; ++d)
          if (ShapedType::isDynamic(shape[d]))
            sizes.push_back(dims[d]);
      } else if (matmul->getBlock() == entry) {
        builder.setInsertionPointToStart(entry);
      }
      turned = TensorCreateOp::create(
          builder, loc, GMTensorType::get(shape, type.getElementType()), sizes);
    }
    // Tiles of whole 16 x 16 blocks of 16-bit elements, which Ascend C's
    // Transpose takes, and rows of whole 32-byte blocks either way round.
    int64_t bytes = elementBytes(type.getElementType());
    int64_t unit = std::max<int64_t>(16, kBlock / bytes);
    Outline outline;
    outline.op = matmul;
    outline.stem = "transpose";
    outline.inputs = {{source, zeros(builder, loc, rank)}};
    outline.output = {turned, zeros(builder, loc, rank)};
    outline.extents = dimsOf(builder, loc, source);
    outline.bounds.assign(type.getShape().begin(), type.getShape().end());
    outline.tileElement = type.getElementType();
    outline.transposes = true;
    outline.tileRows = unit;
    outline.tileCols =
        type.isDynamicDim(rank - 1)
            ? kMaxTileColumns
            : std::min<int64_t>(kMaxTileColumns,
                                llvm::alignTo(type.getShape().back(), unit));
    outline.makeTile = [](OpBuilder &b, Location l, ValueRange tiles,
                          ValueRange, TileType tile, Value, Value) -> Value {
      return TileTransposeOp::create(b, l, tile, tiles.front());
    };
    emitLaunches(builder, outline);
    operand->assign(turned);
  }
  matmul.removeATransAttr();
  matmul.removeBTransAttr();
}

void TensorComputeOutliner::findChains(ArrayRef<Operation *> work) {
  for (Operation *op : work) {
    // A matmul whose product is only assembled into a tensor it does not
    // read is stored there: no workspace, no copy.
    if (auto matmul = dyn_cast<TensorMatmulOp>(op)) {
      auto assemble = op->hasOneUse()
                          ? dyn_cast<TensorAssembleOp>(*op->user_begin())
                          : TensorAssembleOp();
      if (!assemble || assemble.getSrc() != matmul.getResult() ||
          !matmulOutlines(matmul) || !nothingWritesBetween(op, assemble))
        continue;
      Value target = bufferOf(assemble.getDst());
      auto apart = [&](Value operand) {
        Value source = bufferOf(operand);
        return source && source != target;
      };
      if (target && apart(matmul.getLhs()) && apart(matmul.getRhs()))
        fusedInto[op] = assemble;
      continue;
    }
    if (kernelKindOf(op) != KernelKind::Map || !op->hasOneUse())
      continue;
    Operation *user = *op->getUsers().begin();
    auto assemble = dyn_cast<TensorAssembleOp>(user);
    bool consumes = kernelKindOf(user) == KernelKind::Map ||
                    (assemble && assemble.getSrc() == op->getResult(0));
    if (!consumes || !nothingWritesBetween(op, user))
      continue;
    // A chain stored into a buffer it reads would overwrite tiles a later
    // band still loads: it stays a copy of a fresh result.
    if (assemble) {
      Value target = bufferOf(assemble.getDst());
      bool apart = static_cast<bool>(target);
      SmallVector<Operation *> producers{op};
      while (apart && !producers.empty()) {
        Operation *producer = producers.pop_back_val();
        for (Value operand : producer->getOperands()) {
          if (!isa<GMTensorType>(operand.getType()))
            continue;
          Operation *def = operand.getDefiningOp();
          if (def && fusedInto.lookup(def) == producer)
            producers.push_back(def);
          else if (Value source = bufferOf(operand);
                   !source || source == target)
            apart = false;
        }
      }
      if (!apart)
        continue;
    }
    fusedInto[op] = user;
  }
}

void TensorComputeOutliner::planChain(OpBuilder &builder, Operation *root,
                                      Outline &outline) {
  Location loc = root->getLoc();
  SmallVector<Operation *> chain;
  std::function<void(Operation *)> collect = [&](Operation *consumer) {
    for (Value operand : consumer->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && fusedInto.lookup(def) == consumer)
        collect(def);
    if (kernelKindOf(consumer) == KernelKind::Map)
      chain.push_back(consumer);
  };
  collect(root);
  // The chain's inputs (each tensor it reads once) and scalars.
  llvm::DenseMap<Value, unsigned> inputOf, scalarOf;
  std::string stem;
  for (Operation *op : chain) {
    outlined.insert(op);
    StringRef name = op->getName().getStringRef();
    name.consume_front("pto.tensor.");
    stem += (stem.empty() ? "" : "_") + name.str();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && fusedInto.lookup(def) == op)
        continue;
      if (auto tensor = dyn_cast<GMTensorType>(operand.getType())) {
        if (inputOf.try_emplace(operand, outline.inputs.size()).second)
          outline.inputs.push_back(
              {operand, zeros(builder, loc, tensor.getRank())});
      } else if (scalarOf.try_emplace(operand, outline.scalars.size()).second) {
        outline.scalars.push_back(operand);
      }
    }
    outline.chainElements.push_back(
        cast<GMTensorType>(op->getResult(0).getType()).getElementType());
    // An elementwise result's valid region is its first operand's.
    inherit(op->getResult(0), op->getOperand(0));
  }
  outline.stem = builder.getStringAttr(stem).getValue();
  outline.makeTile = [chain, inputOf,
                      scalarOf](OpBuilder &b, Location, ValueRange tiles,
                                ValueRange scalars, TileType type, Value,
                                Value) -> Value {
    llvm::DenseMap<Value, Value> tileOf;
    for (Operation *op : chain) {
      SmallVector<Value, 3> operands;
      for (Value operand : op->getOperands()) {
        if (Value fused = tileOf.lookup(operand))
          operands.push_back(fused);
        else if (isa<GMTensorType>(operand.getType()))
          operands.push_back(tiles[inputOf.lookup(operand)]);
        else
          operands.push_back(scalars[scalarOf.lookup(operand)]);
      }
      auto result = TileType::get(
          type.getShape(),
          cast<GMTensorType>(op->getResult(0).getType()).getElementType(),
          MemorySpace::Vec);
      tileOf[op->getResult(0)] = createTileOpLike(b, op, operands, result);
    }
    return tileOf.lookup(chain.back()->getResult(0));
  };
}

/// One tile of a matmul's band: the band's rows of A and the tile's
/// columns of B, K in steps of a tile through L1 into L0A / L0B, one mmad a
/// step accumulating in L0C, the product stored from L0C (the fixpipe
/// converts it to C's element type).
void buildMatmulTile(OpBuilder &builder, Location loc, const Outline &outline,
                     ValueRange tensors,
                     llvm::function_ref<SmallVector<Value, 4>(size_t)> at,
                     Value rows, Value validCols, int64_t tileRows,
                     int64_t tileCols) {
  Type element = cast<GMTensorType>(tensors[0].getType()).getElementType();
  int64_t tileDepth = outline.tileDepth;
  auto lhsType = cast<GMTensorType>(tensors[0].getType());
  Value depth = ShapedType::isDynamic(outline.depth)
                    ? Value(TensorDimOp::create(
                          builder, loc, builder.getIndexType(), tensors[0],
                          builder.getI64IntegerAttr(lhsType.getRank() - 1)))
                    : indexConstant(builder, loc, outline.depth);
  Value step = indexConstant(builder, loc, tileDepth);
  auto tile = [&](int64_t r, int64_t c, MemorySpace space, Type type) {
    return TileType::get({r, c}, type, space);
  };
  // A at (lead..., row, k); B at (lead..., k, column); C at the tile.
  auto operands = [&](Value k) -> std::pair<Value, Value> {
    SmallVector<Value, 4> lhsAt = at(0), rhsAt = at(1);
    size_t rank = lhsAt.size();
    lhsAt[rank - 1] = k;
    rhsAt[rank - 2] = k;
    Value left = builder.createOrFold<arith::SubIOp>(loc, depth, k);
    Value kValid = builder.createOrFold<arith::MinSIOp>(loc, left, step);
    Value lhs = TileLoadOp::create(
        builder, loc, tile(tileRows, tileDepth, MemorySpace::Mat, element),
        tensors[0], lhsAt, ValueRange{rows, kValid});
    Value rhs = TileLoadOp::create(
        builder, loc, tile(tileDepth, tileCols, MemorySpace::Mat, element),
        tensors[1], rhsAt, ValueRange{kValid, validCols});
    return {TileMoveOp::create(
                builder, loc,
                tile(tileRows, tileDepth, MemorySpace::Left, element), lhs),
            TileMoveOp::create(
                builder, loc,
                tile(tileDepth, tileCols, MemorySpace::Right, element), rhs)};
  };
  Type sum = isa<FloatType>(element) ? Type(builder.getF32Type())
                                     : Type(builder.getI32Type());
  TileType accType = tile(tileRows, tileCols, MemorySpace::Acc, sum);
  auto [left, right] = operands(indexConstant(builder, loc, 0));
  Value product = TileMatmulOp::create(builder, loc, accType, left, right);
  if (ShapedType::isDynamic(outline.depth) || outline.depth > tileDepth) {
    auto steps = scf::ForOp::create(builder, loc, step, depth, step,
                                    ValueRange{product});
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(steps.getBody());
    auto [stepLeft, stepRight] = operands(steps.getInductionVar());
    Value acc = TileMatmulAccOp::create(builder, loc, accType,
                                        steps.getRegionIterArgs()[0], stepLeft,
                                        stepRight, Value());
    scf::YieldOp::create(builder, loc, acc);
    // The lowering follows a valid shape to the store only where it is set.
    builder.setInsertionPointAfter(steps);
    product = TileSetValidShapeOp::create(
        builder, loc, accType, steps.getResult(0), ValueRange{rows, validCols});
  }
  Value output = tensors.back();
  TileStoreOp::create(builder, loc, output.getType(), product, output, at(2));
}

func::FuncOp TensorComputeOutliner::buildKernel(const Outline &outline,
                                                int64_t tileRows,
                                                int64_t tileCols) {
  Location loc = outline.op->getLoc();
  MLIRContext *context = module.getContext();
  // (inputs..., output, scalars..., each tensor's offsets..., rows, cols)
  SmallVector<Type> argTypes;
  for (const BoxOperand &input : outline.inputs)
    argTypes.push_back(input.tensor.getType());
  argTypes.push_back(outline.output.tensor.getType());
  for (Value scalar : outline.scalars)
    argTypes.push_back(scalar.getType());
  size_t tensors = outline.inputs.size() + 1;
  size_t rank = outline.extents.size();
  argTypes.append(tensors * rank + 2, IndexType::get(context));

  OpBuilder builder(context);
  auto kernel = func::FuncOp::create(
      builder, loc, ("tk_" + outline.stem).str(),
      FunctionType::get(context, argTypes, outline.output.tensor.getType()));
  kernel.setPrivate();
  kernel->setAttr(PTODialect::kKindAttrName,
                  FunctionKindAttr::get(context, FunctionKind::InCore));
  symbols.insert(kernel);
  Block *body = kernel.addEntryBlock();
  builder.setInsertionPointToStart(body);
  ValueRange args = body->getArguments();
  ValueRange tensorArgs = args.take_front(tensors);
  ValueRange scalars = args.slice(tensors, outline.scalars.size());
  ValueRange offsets =
      args.slice(tensors + outline.scalars.size(), tensors * rank);
  Value rows = args[args.size() - 2], cols = args.back();

  Value zero = indexConstant(builder, loc, 0);
  Value width = indexConstant(builder, loc, tileCols);
  auto columns = scf::ForOp::create(builder, loc, zero, cols, width);
  builder.setInsertionPointToStart(columns.getBody());
  Value column = columns.getInductionVar();
  Value left = builder.createOrFold<arith::SubIOp>(loc, cols, column);
  Value validCols = builder.createOrFold<arith::MinSIOp>(loc, left, width);
  // A fold's tile holds its whole rows (columns), which the lowering folds
  // only when it sees them whole.
  if (outline.fold == ElementwiseFamily::RowReduce)
    validCols = indexConstant(builder, loc, outline.bounds.back());
  if (outline.fold == ElementwiseFamily::ColReduce)
    rows = indexConstant(builder, loc, outline.bounds[rank - 2]);
  // Where the tile starts in the tensor numbered `t` (a transposed tile's
  // columns are the output's rows).
  auto at = [&](size_t t) {
    SmallVector<Value, 4> position(offsets.slice(t * rank, rank));
    Value &along = outline.transposes && t + 1 == tensors ? position[rank - 2]
                                                          : position.back();
    along = builder.createOrFold<arith::AddIOp>(loc, along, column);
    // A fold's box starts at the origin of both tensors; constant offsets
    // show the lowering that the folded dimension is loaded whole.
    if (outline.fold == ElementwiseFamily::RowReduce)
      position.back() = zero;
    if (outline.fold == ElementwiseFamily::ColReduce)
      position[rank - 2] = zero;
    return position;
  };
  Value output = tensorArgs.back();
  if (outline.tileDepth) {
    buildMatmulTile(builder, loc, outline, tensorArgs, at, rows, validCols,
                    tileRows, tileCols);
    builder.setInsertionPointToEnd(body);
    func::ReturnOp::create(builder, loc, output);
    return kernel;
  }
  SmallVector<Value, 2> tiles;
  for (size_t t = 0; t + 1 < tensors; ++t) {
    auto element = cast<GMTensorType>(tensorArgs[t].getType()).getElementType();
    auto type = TileType::get({tileRows, tileCols}, element, MemorySpace::Vec);
    tiles.push_back(TileLoadOp::create(builder, loc, type, tensorArgs[t], at(t),
                                       ValueRange{rows, validCols}));
  }
  SmallVector<int64_t, 2> resultShape{tileRows, tileCols};
  if (outline.fold)
    resultShape[outline.fold == ElementwiseFamily::RowReduce ? 1 : 0] = 1;
  if (outline.transposes)
    std::swap(resultShape[0], resultShape[1]);
  auto resultType =
      TileType::get(resultShape, outline.tileElement, MemorySpace::Vec);
  Value tile = outline.makeTile(builder, loc, tiles, scalars, resultType, rows,
                                validCols);
  TileStoreOp::create(builder, loc, output.getType(), tile, output,
                      at(tensors - 1));
  builder.setInsertionPointToEnd(body);
  func::ReturnOp::create(builder, loc, output);
  return kernel;
}

void TensorComputeOutliner::emitLaunches(OpBuilder &builder,
                                         const Outline &outline) {
  Location loc = outline.op->getLoc();
  size_t rank = outline.extents.size();
  // Tensors of one dimension are seen as one row ([1, n]), which tiles take.
  SmallVector<BoxOperand, 3> operands(outline.inputs.begin(),
                                      outline.inputs.end());
  operands.push_back(outline.output);
  SmallVector<Value, 4> extents(outline.extents);
  SmallVector<int64_t, 4> bounds(outline.bounds);
  if (rank == 1) {
    for (BoxOperand &operand : operands) {
      operand.tensor = rowView(operand.tensor);
      operand.offsets.insert(operand.offsets.begin(),
                             indexConstant(builder, loc, 0));
    }
    extents.insert(extents.begin(), indexConstant(builder, loc, 1));
    bounds.insert(bounds.begin(), 1);
    rank = 2;
  }

  // Tile columns: whole 32-byte blocks of every element type involved.
  unsigned narrowest = 64;
  for (const BoxOperand &operand : operands)
    narrowest = std::min(
        narrowest,
        cast<GMTensorType>(operand.tensor.getType()).getElementTypeBitWidth());
  for (Type element : outline.chainElements)
    narrowest = std::min(narrowest, element.getIntOrFloatBitWidth());
  int64_t block = kBlock * 8 / std::max(narrowest, 8u);
  auto atMost = [](int64_t bound, int64_t limit) {
    return ShapedType::isDynamic(bound) ? limit
                                        : std::clamp<int64_t>(bound, 1, limit);
  };
  int64_t tileCols =
      llvm::alignTo(atMost(bounds.back(), kMaxTileColumns), block);
  int64_t tileRows = atMost(bounds[rank - 2], kBandRows);
  if (outline.tileRows) {
    tileRows = outline.tileRows;
    tileCols = outline.tileCols;
  }
  // A fold's tile holds whole rows (or whole columns): bounds are static.
  int64_t tileElementBytes = elementBytes(outline.tileElement);
  if (outline.fold == ElementwiseFamily::RowReduce) {
    tileCols = llvm::alignTo(bounds.back(), block);
    tileRows = std::clamp<int64_t>(
        kMaxFoldTileBytes / (tileCols * tileElementBytes), 1, kBandRows);
  } else if (outline.fold == ElementwiseFamily::ColReduce) {
    tileRows = bounds[rank - 2];
    tileCols = std::max<int64_t>(
        block,
        llvm::alignDown(std::min(tileCols, kMaxFoldTileBytes /
                                               (tileRows * tileElementBytes)),
                        block));
  }

  Outline viewed = outline;
  viewed.inputs.assign(operands.begin(), operands.end() - 1);
  viewed.output = operands.back();
  viewed.extents = extents;
  func::FuncOp kernel = buildKernel(viewed, tileRows, tileCols);

  // Loops over the leading dimensions and the bands of rows; one call a
  // band.
  OpBuilder::InsertionGuard guard(builder);
  Value zero = indexConstant(builder, loc, 0);
  Value one = indexConstant(builder, loc, 1);
  Value band = indexConstant(builder, loc, tileRows);
  SmallVector<Value, 4> position;
  for (size_t d = 0; d < rank; ++d) {
    if (d + 1 == rank) {
      position.push_back(zero);
      break;
    }
    int64_t step = d + 2 == rank ? tileRows : 1;
    // A dimension one call covers needs no loop.
    if (!ShapedType::isDynamic(bounds[d]) && bounds[d] <= step) {
      position.push_back(zero);
      continue;
    }
    auto loop = scf::ForOp::create(builder, loc, zero, extents[d],
                                   step == 1 ? one : band);
    builder.setInsertionPointToStart(loop.getBody());
    position.push_back(loop.getInductionVar());
  }
  Value left = builder.createOrFold<arith::SubIOp>(loc, extents[rank - 2],
                                                   position[rank - 2]);
  Value rows = builder.createOrFold<arith::MinSIOp>(loc, left, band);
  SmallVector<Value> args;
  for (const BoxOperand &operand : operands)
    args.push_back(operand.tensor);
  args.append(outline.scalars.begin(), outline.scalars.end());
  for (const BoxOperand &operand : operands) {
    SmallVector<Value, 4> at(position);
    if (outline.transposes && &operand == &operands.back())
      std::swap(at[rank - 2], at[rank - 1]);
    for (auto [offset, step] : llvm::zip(operand.offsets, at))
      args.push_back(builder.createOrFold<arith::AddIOp>(loc, offset, step));
  }
  args.push_back(rows);
  args.push_back(extents.back());
  generated.insert(func::CallOp::create(builder, loc, kernel, args));
}

Value TensorComputeOutliner::rowView(Value tensor) {
  auto [view, fresh] = rowViews.try_emplace(tensor);
  if (!fresh)
    return view->second;
  OpBuilder builder(tensor.getContext());
  if (Operation *def = tensor.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(cast<BlockArgument>(tensor).getOwner());
  Location loc = tensor.getLoc();
  auto type = cast<GMTensorType>(tensor.getType());
  auto row = GMTensorType::get({1, type.getDimSize(0)}, type.getElementType());
  SmallVector<Value, 1> sizes;
  if (type.isDynamicDim(0))
    sizes.push_back(TensorDimOp::create(builder, loc, builder.getIndexType(),
                                        tensor, builder.getI64IntegerAttr(0)));
  auto made = TensorViewOp::create(builder, loc, row, tensor, sizes);
  generated.insert(made);
  view->second = made;
  return made;
}

LogicalResult TensorComputeOutliner::checkPartialStaysTracked() {
  for (auto &[tensor, valid] : partialValid)
    for (OpOperand &use : tensor.getUses()) {
      Operation *user = use.getOwner();
      if (isa<TensorDimOp>(user) || outlined.contains(user) ||
          generated.contains(user))
        continue;
      return partialOrigin[tensor]->emitOpError()
             << "may leave part of its box outside the valid region (the box "
                "can reach past the source's edge, or a valid shape is "
                "given), and its result reaches '"
             << user->getName()
             << "', which a compiled kernel cannot tell: a GM tensor on the "
                "machine has no valid region; slice a box that stays inside "
                "the source (constant offsets or a loop with constant bounds "
                "show it), or pass the whole tensor and give the in-core "
                "function's pto.tile.load a valid shape";
    }
  return success();
}

LogicalResult TensorComputeOutliner::run(func::FuncOp orchestration) {
  // What the last function left behind names its erased ops.
  partialValid.clear();
  partialOrigin.clear();
  outlined.clear();
  generated.clear();
  rowViews.clear();
  fusedInto.clear();
  SmallVector<TensorMatmulAccOp> accumulating;
  orchestration.walk([&](TensorMatmulAccOp op) { accumulating.push_back(op); });
  for (TensorMatmulAccOp op : accumulating)
    splitIntegerMatmulAcc(op);
  SmallVector<Operation *> work;
  orchestration.walk([&](Operation *op) {
    if (op->hasTrait<pto::OpTrait::OrchestrationOp>() &&
        !isa<TensorCreateOp, TensorViewOp>(op))
      work.push_back(op);
  });
  // A transposed operand: transposed into a workspace first.
  for (Operation *op : work)
    if (auto matmul = dyn_cast<TensorMatmulOp>(op);
        matmul && (matmul.getATrans() || matmul.getBTrans()) &&
        matmulOutlines(matmul))
      untranspose(matmul);
  findChains(work);
  for (Operation *op : work) {
    if (fusedInto.count(op))
      continue; // computed in the kernel of the op it fuses into
    OpBuilder builder(op);
    std::optional<Outline> outline = plan(builder, op);
    if (!outline)
      continue;
    outlined.insert(op);
    emitLaunches(builder, *outline);
    op->getResult(0).replaceAllUsesWith(outline->output.tensor);
    inherit(outline->output.tensor, op->getResult(0));
  }
  // Uses are final once every op is replaced.
  LogicalResult tracked = checkPartialStaysTracked();
  // Users first: a fused op's result is used by the op it fuses into.
  for (Operation *op : llvm::reverse(work))
    if (outlined.contains(op))
      op->erase();
  return tracked;
}

struct OutlineTensorComputePass
    : public pto::impl::OutlineTensorComputeBase<OutlineTensorComputePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    TensorComputeOutliner outliner(module);
    SmallVector<func::FuncOp> hosts;
    for (auto func : module.getOps<func::FuncOp>()) {
      std::optional<FunctionKind> kind = getFunctionKind(func);
      // A function without a kind that computes only on whole tensors is
      // an orchestration with no launches of its own yet.
      bool tensorsOnly = !kind && !func.isExternal() &&
                         !func.walk([](Operation *op) {
                                return op->hasTrait<pto::OpTrait::InCoreOp>()
                                           ? WalkResult::interrupt()
                                           : WalkResult::advance();
                              })
                              .wasInterrupted();
      if (kind == FunctionKind::Orchestration || tensorsOnly)
        hosts.push_back(func);
    }
    for (func::FuncOp host : hosts) {
      if (!getFunctionKind(host) &&
          host.walk([](Operation *op) {
                return op->hasTrait<pto::OpTrait::OrchestrationOp>() &&
                               !isa<TensorCreateOp, TensorViewOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted())
        host->setAttr(
            PTODialect::kKindAttrName,
            FunctionKindAttr::get(&getContext(), FunctionKind::Orchestration));
      if (failed(outliner.run(host)))
        return signalPassFailure();
    }
  }
};

} // namespace

std::string pto::whyTensorOpStays(Operation *op) {
  if (isa<TensorMatmulAccOp>(op))
    return "for an integer accumulator (the product added to it wraps to "
           "the same bits in any order); the cube starts a float sum at zero "
           "or a bias row, not at a tensor in GM, and adding the "
           "accumulator afterwards would round otherwise";
  switch (kernelKindOf(op)) {
  case KernelKind::None:
    return "";
  case KernelKind::Fill:
  case KernelKind::Map:
  case KernelKind::Write:
  case KernelKind::Slice:
  case KernelKind::Assemble:
    return "in an orchestration";
  case KernelKind::Fold:
    return ("for a 2-d source whose folded extent is static and whose whole "
            "rows, or columns for a column fold, fit one tile of " +
            Twine(kMaxFoldTileBytes / 1024) + " KiB")
        .str();
  case KernelKind::Matmul:
    return "for f16, bf16 or int8 operands";
  }
  return "";
}
