//===- AscendCOps.cpp - AscendC op verifiers ------------------------------===//
//
// Verifiers check what the positions of operands make possible on the
// machine: which buffer each instruction reads and writes. Operands whose
// position is unknown (function arguments) are not constrained.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/VectorRepeat.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include <functional>

#include <limits>

using namespace mlir;
using namespace tilekit::ascendc;

/// The tensor's bytes, saturated at INT64_MAX (a kernel may write any
/// shape; the comparisons below then fail instead of overflowing).
static int64_t getBytes(LocalTensorType type) {
  int64_t bytes = getElementBytes(type.getElementType());
  for (int64_t extent : type.getShape())
    if (__builtin_mul_overflow(bytes, extent, &bytes))
      return std::numeric_limits<int64_t>::max();
  return bytes;
}

static bool isLocal(Value value) {
  return isa<LocalTensorType>(value.getType());
}

/// `value`'s position is one of `allowed`, or unknown.
static LogicalResult expectPosition(Operation *op, Value value, StringRef role,
                                    ArrayRef<Position> allowed) {
  std::optional<Position> position = getPosition(value);
  if (!position || llvm::is_contained(allowed, *position))
    return success();
  std::string names;
  for (Position p : allowed)
    names += (names.empty() ? "" : ", ") + stringifyPosition(p).str();
  return op->emitOpError() << role << " must be at " << names
                           << ", but it is at " << stringifyPosition(*position);
}

static constexpr Position kUB[] = {Position::VecIn, Position::VecOut,
                                   Position::VecCalc, Position::CO2};
static constexpr Position kL1[] = {Position::A1, Position::B1, Position::C1};

/// `narrow` has extent 1 along `axis` and `wide`'s extents elsewhere, of
/// one element type: the shapes of a broadcast (narrow into wide) and of a
/// reduction (wide into narrow).
static LogicalResult verifyAlongAxis(Operation *op, Value wide, Value narrow,
                                     int64_t axis, StringRef verb) {
  auto wideType = cast<LocalTensorType>(wide.getType());
  auto narrowType = cast<LocalTensorType>(narrow.getType());
  bool fits = wideType.getRank() == narrowType.getRank() &&
              axis < wideType.getRank() &&
              wideType.getElementType() == narrowType.getElementType();
  for (int64_t d = 0; fits && d < wideType.getRank(); ++d)
    fits = d == axis ? narrowType.getDimSize(d) == 1
                     : narrowType.getDimSize(d) == wideType.getDimSize(d);
  if (!fits)
    return op->emitOpError()
           << verb << " along axis " << axis << " between " << wideType
           << " and " << narrowType << "; the narrow tensor has extent 1 "
           << "along the axis and the wide one's elsewhere, of one element "
              "type";
  return success();
}

/// The low level takes one mask, a count or two bit words, with its repeat
/// count; the bit words select lanes of 16- or 32-bit elements (a repeat
/// of 8-bit ones has 256 lanes, more than two words hold).
static LogicalResult verifyL0Mask(VectorL0OpInterface l0) {
  Operation *op = l0.getOperation();
  // The strides are fields of Ascend C's repeat parameters: block strides
  // uint16_t (uint8_t in BinaryRepeatParams), repeat strides uint8_t.
  if (DenseI64ArrayAttr strides = l0.getStridesAttr()) {
    unsigned sources = 0;
    for (Value operand : op->getOperands().drop_front())
      sources += isa<LocalTensorType>(operand.getType());
    size_t blockStrides = strides.size() / 2;
    for (auto [index, stride] : llvm::enumerate(strides.asArrayRef())) {
      bool block = index < blockStrides;
      int64_t most = block && sources != 2 ? 65535 : 255;
      if (stride < 0 || stride > most)
        return op->emitOpError()
               << (block ? "block" : "repeat") << " stride " << stride
               << " (stride " << index << ") does not fit Ascend C's "
               << (most == 255 ? "uint8_t" : "uint16_t")
               << " field: expected 0 to " << most;
    }
  }
  // Ascend C's repeatTimes is a uint8_t: a larger count would wrap.
  if (Value repeat = l0.getRepeat())
    if (std::optional<int64_t> times = getConstantIntValue(repeat);
        times && (*times < 0 || *times > kMaxRepeats))
      return op->emitOpError()
             << "repeats " << *times
             << " times, which does not fit Ascend C's uint8_t repeatTimes: "
                "expected 0 to "
             << kMaxRepeats;
  bool bits = l0.getMaskHigh() || l0.getMaskLow();
  if (bits && !(l0.getMaskHigh() && l0.getMaskLow()))
    return op->emitOpError("takes both words of a lane bit mask");
  if (bits && l0.getMask())
    return op->emitOpError("takes a mask count or lane bits, not both");
  if (!(l0.getMask() || bits) != !l0.getRepeat())
    return op->emitOpError("takes a mask and a repeat count together");
  if (!bits)
    return success();
  unsigned widest = 0;
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<LocalTensorType>(operand.getType());
        type && !(isa<CompareL0Op>(op) && operand == op->getOperand(0)))
      widest = std::max(widest, type.getElementType().getIntOrFloatBitWidth());
  if (widest < 16)
    return op->emitOpError() << "selects lanes by bits for " << widest
                             << "-bit elements; a bit mask covers the lanes "
                                "of 16- and 32-bit ones";
  return success();
}

/// Vector instructions read and write UB.
static LogicalResult verifyVectorOp(Operation *op) {
  if (auto l0 = dyn_cast<VectorL0OpInterface>(op);
      l0 && failed(verifyL0Mask(l0)))
    return failure();
  for (Value operand : op->getOperands())
    if (isLocal(operand) &&
        failed(expectPosition(op, operand, "an operand", kUB)))
      return failure();
  if (auto scratch = dyn_cast<ScratchOpInterface>(op)) {
    auto tmp = scratch.getTmpMutable();
    if (!tmp.empty() && !cast<LocalTensorType>(tmp[0].get().getType())
                             .getElementType()
                             .isInteger(8))
      return op->emitOpError("takes its scratch as a tensor of bytes");
  }
  return success();
}

/// A sort op's operands: `pairs` of 8-byte (score, index) pairs holding at
/// least `count` pairs, `scores` of its f16 or f32 element type and
/// `indices` of i32 holding at least `count` elements each.
static LogicalResult verifySortPairs(Operation *op, Value pairs, Value scores,
                                     Value indices, int64_t count) {
  if (failed(verifyVectorOp(op)))
    return failure();
  auto pairType = cast<LocalTensorType>(pairs.getType());
  auto scoreType = cast<LocalTensorType>(scores.getType());
  auto indexType = cast<LocalTensorType>(indices.getType());
  Type element = pairType.getElementType();
  if (!element.isF16() && !element.isF32())
    return op->emitOpError() << "sorts " << element
                             << " scores; the vector unit sorts f16 and f32";
  if (scoreType.getElementType() != element)
    return op->emitOpError() << "takes scores of " << scoreType.getElementType()
                             << " beside pairs of " << element;
  if (!indexType.getElementType().isInteger(32))
    return op->emitOpError()
           << "takes indices of " << indexType.getElementType() << ", not i32";
  int64_t slots = 8 / getElementBytes(element);
  if (pairType.getNumElements() < count * slots ||
      scoreType.getNumElements() < count || indexType.getNumElements() < count)
    return op->emitOpError()
           << "moves " << count << " pairs, more than its tensors hold";
  return success();
}

/// A merge's operands: two lists of `count` pairs into one of `2 count`.
static LogicalResult verifyMergePairs(Operation *op, Value dst, Value first,
                                      Value second, int64_t count) {
  if (failed(verifyVectorOp(op)))
    return failure();
  Type element = cast<LocalTensorType>(dst.getType()).getElementType();
  if (!element.isF16() && !element.isF32())
    return op->emitOpError() << "merges " << element
                             << " pairs; the vector unit sorts f16 and f32";
  int64_t slots = 8 / getElementBytes(element);
  for (Value list : {first, second}) {
    auto type = cast<LocalTensorType>(list.getType());
    if (type.getElementType() != element)
      return op->emitOpError() << "merges lists of " << type.getElementType()
                               << " into " << element;
    if (type.getNumElements() < count * slots)
      return op->emitOpError()
             << "merges " << count << " pairs from a list that holds fewer";
  }
  if (cast<LocalTensorType>(dst.getType()).getNumElements() < 2 * count * slots)
    return op->emitOpError()
           << "merges " << 2 * count << " pairs into a tensor that holds fewer";
  return success();
}

/// A reduction's source rows: whole 32-byte blocks (the API's srcInnerPad
/// layout), holding `count` values each when given (a row fold only), else
/// their width; a constant count makes the rows exactly that wide, a
/// run-time one is checked as the kernel runs.
static LogicalResult verifyPaddedColumns(Operation *op, Value src, int64_t axis,
                                         Value count) {
  auto type = cast<LocalTensorType>(src.getType());
  int64_t perBlock = 32 / getElementBytes(type.getElementType());
  if (type.getDimSize(1) % perBlock)
    return op->emitOpError()
           << "folds a tensor " << type
           << " whose rows are not whole 32-byte blocks, as the API reads "
              "them (srcInnerPad)";
  if (!count)
    return success();
  if (axis != 1)
    return op->emitOpError() << "gives a count of columns to a column fold; "
                                "only a row fold takes one";
  std::optional<int64_t> cols = getConstantIntValue(count);
  if (!cols)
    return success();
  if (*cols < 1)
    return op->emitOpError() << "folds " << *cols << " values of each row";
  int64_t padded = llvm::divideCeil(*cols, perBlock) * perBlock;
  if (type.getDimSize(1) != padded)
    return op->emitOpError()
           << "folds " << *cols << " values of each row of a tensor " << type
           << " whose rows are not " << *cols
           << " rounded up to whole 32-byte blocks (" << padded << ")";
  return success();
}

/// The scratch of a reduction `op` (Ascend C's `api`) folding with `fold`.
static FailureOr<uint32_t>
getFoldScratchBytes(Operation *op, Value src, int64_t axis,
                    tilekit::machine::scratch::Fold fold, StringRef api,
                    bool c310) {
  auto type = cast<LocalTensorType>(src.getType());
  Type element = type.getElementType();
  uint32_t bytes = getElementBytes(element);
  if (!tilekit::machine::scratch::foldTakes(fold, c310, bytes,
                                            isa<FloatType>(element)))
    return op->emitOpError()
           << "folds " << element << ", which the API's " << api
           << " does not take on " << (c310 ? "C310" : "C220")
           << "; cast to f32 first";
  return tilekit::machine::scratch::foldBytes(
      fold, bytes, axis == 1, type.getDimSize(0), type.getDimSize(1));
}

#define GET_OP_CLASSES
#include "tilekit/Dialect/AscendC/IR/AscendCOps.cpp.inc"

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto kernel = symbols.lookupNearestSymbolFrom<FunctionOpInterface>(
      *this, getCalleeAttr());
  if (!kernel)
    return emitOpError() << "launches '" << getCallee()
                         << "', which is not a function";
  if (kernel->hasAttr(AscendCDialect::kHostAttrName))
    return emitOpError() << "launches the host function '" << getCallee()
                         << "'; only kernels are launched";
  if (kernel.getResultTypes().size() != 0)
    return emitOpError() << "launches '" << getCallee()
                         << "', which returns values; a kernel returns none";
  if (TypeRange(getArgs().getTypes()) != TypeRange(kernel.getArgumentTypes()))
    return emitOpError() << "passes operands whose types are not those of '"
                         << getCallee() << "''s arguments";
  return success();
}

LogicalResult GlobalReshapeOp::verify() {
  auto from = cast<GlobalTensorType>(getSource().getType());
  auto to = cast<GlobalTensorType>(getResult().getType());
  if (from.getElementType() != to.getElementType())
    return emitOpError() << "views " << from.getElementType() << " elements as "
                         << to.getElementType();
  if (static_cast<int64_t>(getSizes().size()) != to.getNumDynamicDims())
    return emitOpError() << "gives " << getSizes().size() << " extents for the "
                         << to.getNumDynamicDims()
                         << " dynamic dimensions of its result";
  if (from.hasStaticShape() && to.hasStaticShape() &&
      from.getNumElements() != to.getNumElements())
    return emitOpError() << "views " << from.getNumElements() << " elements as "
                         << to.getNumElements();
  return success();
}

LogicalResult GlobalReadOp::verify() {
  auto source = cast<GlobalTensorType>(getSource().getType());
  if (static_cast<int64_t>(getIndices().size()) != source.getRank())
    return emitOpError() << "gives " << getIndices().size()
                         << " indices for a rank-" << source.getRank()
                         << " tensor";
  if (source.getElementType() != getResult().getType())
    return emitOpError() << "reads a " << getResult().getType()
                         << " from a tensor of " << source.getElementType();
  auto func = (*this)->getParentOfType<FunctionOpInterface>();
  if (!func || !func->hasAttr(AscendCDialect::kHostAttrName))
    return emitOpError() << "reads GM on the host: only a host function may "
                            "(a kernel reads GM through local tensors)";
  return success();
}

LogicalResult GlobalDimOp::verify() {
  int64_t rank = cast<GlobalTensorType>(getSource().getType()).getRank();
  if (static_cast<int64_t>(getDim()) >= rank)
    return emitOpError() << "reads dimension " << getDim() << " of a rank-"
                         << rank << " tensor";
  return success();
}

Value GlobalDimOp::getGivenExtent() {
  auto shape = cast<GlobalTensorType>(getSource().getType()).getShape();
  if (!ShapedType::isDynamic(shape[getDim()]))
    return nullptr;
  int64_t before =
      llvm::count_if(shape.take_front(getDim()), ShapedType::isDynamic);
  Operation *maker = getSource().getDefiningOp();
  if (auto reshape = dyn_cast_or_null<GlobalReshapeOp>(maker))
    return reshape.getSizes()[before];
  if (auto region = dyn_cast_or_null<WorkspaceOp>(maker))
    return region.getSizes()[before];
  return nullptr;
}

int64_t WorkspaceOp::getRegionBytes() {
  auto type = cast<GlobalTensorType>(getType());
  if (!type.hasStaticShape())
    return 0;
  return llvm::alignTo(
      type.getNumElements() * type.getElementTypeBitWidth() / 8, 32);
}

int64_t WorkspaceOp::getStaticOffset() {
  int64_t offset = 0;
  for (Operation &other : *getOperation()->getBlock()) {
    auto region = dyn_cast<WorkspaceOp>(&other);
    if (region && !region.isDynamic() &&
        (isDynamic() || other.isBeforeInBlock(getOperation())))
      offset += region.getRegionBytes();
  }
  return offset;
}

SmallVector<Operation *> WorkspaceOp::getDynamicRegionsBefore() {
  SmallVector<Operation *> before;
  for (Operation &other : *getOperation()->getBlock()) {
    if (&other == getOperation())
      break;
    if (auto region = dyn_cast<WorkspaceOp>(&other);
        region && region.isDynamic())
      before.push_back(region);
  }
  return before;
}

Operation *WorkspaceOp::getSizeComputation(SmallVectorImpl<Operation *> &ops) {
  auto func = getOperation()->getParentOfType<FunctionOpInterface>();
  llvm::SetVector<Operation *> found;
  Operation *obstacle = nullptr;
  // Operands first: each op after what it reads.
  std::function<bool(Value)> visit = [&](Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner()->getParentOp() == func.getOperation())
        return true;
      obstacle = arg.getOwner()->getParentOp();
      return false;
    }
    Operation *op = value.getDefiningOp();
    if (found.contains(op))
      return true;
    if (auto dim = dyn_cast<GlobalDimOp>(op)) {
      // A static extent is a constant; a region's run-time one, its size.
      auto type = cast<GlobalTensorType>(dim.getSource().getType());
      if (ShapedType::isDynamic(type.getShape()[dim.getDim()])) {
        Value given = dim.getGivenExtent();
        if (!visit(given ? given : dim.getSource()))
          return false;
      }
      found.insert(op);
      return true;
    }
    bool known = op->getDialect()->getNamespace() == "arith" && isPure(op) &&
                 op->getNumRegions() == 0;
    if (!known) {
      obstacle = op;
      return false;
    }
    for (Value operand : op->getOperands())
      if (!visit(operand))
        return false;
    found.insert(op);
    return true;
  };
  for (Value size : getSizes())
    if (!visit(size))
      return obstacle;
  ops.append(found.begin(), found.end());
  return nullptr;
}

LogicalResult WorkspaceOp::verify() {
  auto type = cast<GlobalTensorType>(getType());
  int64_t dynamic = llvm::count_if(type.getShape(), ShapedType::isDynamic);
  if (static_cast<int64_t>(getSizes().size()) != dynamic)
    return emitOpError() << "has " << getSizes().size() << " sizes for "
                         << dynamic << " run-time extents of its type";
  return success();
}

LogicalResult LocalTensorAutoOp::verify() {
  if (getInput() && getOutput())
    return emitOpError("is marked both input and output");
  return success();
}

LogicalResult LocalTensorOp::verify() {
  if (getInput() && getOutput())
    return emitOpError("is marked both input and output");
  int64_t need = getBytes(getType());
  if (getSize() < need)
    return emitOpError() << "size " << getSize()
                         << " is smaller than the tensor's " << need
                         << " bytes";
  return success();
}

LogicalResult ReinterpretCastOp::verify() {
  int64_t from = getBytes(getSource().getType());
  int64_t to = getBytes(getType());
  int64_t skipped = 0;
  if (Value offset = getOffset()) {
    std::optional<int64_t> elements = getConstantIntValue(offset);
    if (!elements)
      return success(); // checked when the kernel runs
    if (*elements < 0)
      return emitOpError() << "starts at element " << *elements;
    // A kernel's offset may be anything: its bytes may overflow.
    if (__builtin_mul_overflow(
            *elements, getElementBytes(getSource().getType().getElementType()),
            &skipped))
      return emitOpError() << "starts at element " << *elements
                           << ", past the source's end";
  }
  if (skipped > from || to > from - skipped)
    return emitOpError() << "views " << to << " bytes from byte " << skipped
                         << " of " << from << ", past the source's end";
  return success();
}

/// A window is two extents with two row strides, and replaces a count.
static LogicalResult verifyWindow(Operation *op, ValueRange window,
                                  ValueRange strides, Value count) {
  if (window.empty() && strides.empty())
    return success();
  if (window.size() != 2 || strides.size() != 2)
    return op->emitOpError() << "takes a window of 2 extents and 2 row "
                                "strides, not "
                             << window.size() << " and " << strides.size();
  if (count)
    return op->emitOpError("takes a count or a window, not both");
  return success();
}

/// An `atomic_add` transfer: into GM, of an element type the DMA's
/// accumulation takes (SetAtomicAdd<T>).
static LogicalResult verifyAtomicAdd(Operation *op, bool atomicAdd, Value dst,
                                     Value src) {
  if (!atomicAdd)
    return success();
  if (isa<LocalTensorType>(dst.getType()))
    return op->emitOpError("adds atomically into a local tensor; only "
                           "transfers into GM accumulate");
  Type element = cast<ShapedType>(dst.getType()).getElementType();
  if (!takesAtomicAdd(element))
    return op->emitOpError()
           << "adds " << element
           << " atomically; SetAtomicAdd takes float, half, bfloat16_t, "
              "int32_t, int16_t and int8_t";
  if (element != cast<ShapedType>(src.getType()).getElementType())
    return op->emitOpError()
           << "converts to " << element
           << " on the way to an atomic add, which would round twice";
  return success();
}

LogicalResult DataCopyOp::verify() {
  if (failed(verifyWindow(*this, getWindow(), getStrides(), getCount())) ||
      failed(verifyAtomicAdd(*this, getAtomicAdd(), getDst(), getSrc())))
    return failure();
  Type dstElement = cast<ShapedType>(getDst().getType()).getElementType();
  Type srcElement = cast<ShapedType>(getSrc().getType()).getElementType();
  if (dstElement != srcElement)
    return emitOpError() << "copies " << srcElement << " into " << dstElement
                         << "; use a cast to convert";
  bool dstLocal = isLocal(getDst()), srcLocal = isLocal(getSrc());
  // The machine has no GM to GM path; the others are checked through the
  // Ascend C positions each end may be at.
  if (!dstLocal && !srcLocal)
    return emitOpError("copies GM to GM, which no transfer engine does");
  if (!srcLocal) // GM -> UB or L1 (MTE2).
    return expectPosition(*this, getDst(), "the destination of a GM load",
                          {Position::VecIn, Position::VecCalc, Position::A1,
                           Position::B1, Position::C1});
  std::optional<Position> src = getPosition(getSrc());
  if (!dstLocal) // UB -> GM (MTE3), or L1 -> GM (MTE1, A2/A3 only).
    return expectPosition(*this, getSrc(), "the source of a GM store",
                          {Position::VecIn, Position::VecOut, Position::VecCalc,
                           Position::CO2, Position::A1, Position::B1});
  // L1 -> bias table, or (950) across the cores into UB (MTE1).
  if (src && getBuffer(*src) == Buffer::L1)
    return expectPosition(*this, getDst(), "the destination of an L1 copy",
                          {Position::C2, Position::VecIn, Position::VecCalc});
  if (failed(
          expectPosition(*this, getSrc(), "the source of a local copy", kUB)))
    return failure();
  // UB -> UB or UB -> L1 (MTE3).
  return expectPosition(*this, getDst(), "the destination of a UB copy",
                        {Position::VecIn, Position::VecOut, Position::VecCalc,
                         Position::A1, Position::B1});
}

LogicalResult LoadDataOp::verify() {
  if (failed(expectPosition(*this, getSrc(), "the source", kL1)))
    return failure();
  return expectPosition(*this, getDst(), "the destination",
                        {Position::A2, Position::B2});
}

LogicalResult MmadOp::verify() {
  if (failed(expectPosition(*this, getDst(), "the accumulator",
                            {Position::CO1})) ||
      failed(
          expectPosition(*this, getA(), "the left operand", {Position::A2})) ||
      failed(
          expectPosition(*this, getB(), "the right operand", {Position::B2})))
    return failure();
  // The cube accumulates float products in f32 and integer ones in i32.
  Type a = cast<ShapedType>(getA().getType()).getElementType();
  Type b = cast<ShapedType>(getB().getType()).getElementType();
  Type acc = cast<ShapedType>(getDst().getType()).getElementType();
  Type expected = isa<FloatType>(a) ? Type(Float32Type::get(getContext()))
                                    : Type(IntegerType::get(getContext(), 32));
  if (a != b || acc != expected)
    return emitOpError() << "multiplies " << a << " by " << b << " into " << acc
                         << "; the cube multiplies one element type "
                         << "and accumulates it in " << expected;
  if (getBias())
    return expectPosition(*this, getBias(), "the bias", {Position::C2});
  return success();
}

LogicalResult FixpipeOp::verify() {
  if (failed(verifyWindow(*this, getWindow(), getStrides(), Value())) ||
      failed(verifyAtomicAdd(*this, getAtomicAdd(), getDst(), getSrc())))
    return failure();
  if (failed(expectPosition(*this, getSrc(), "the source", {Position::CO1})))
    return failure();
  if (isLocal(getDst()))
    return expectPosition(*this, getDst(), "the destination",
                          {Position::VecIn, Position::VecCalc, Position::CO2,
                           Position::A1, Position::B1});
  return success();
}

LogicalResult SubBlockGuardOp::verify() {
  auto func = dyn_cast<FunctionOpInterface>((*this)->getParentOp());
  if (!func || &func.getFunctionBody().front().front() != getOperation())
    return emitOpError("must be the first op of a function");
  if (!func.getResultTypes().empty())
    return emitOpError("returns early, so its function must return nothing");
  return success();
}

LogicalResult IfSubBlockOp::verify() {
  if (!(*this)->getParentOfType<IfAivOp>())
    return emitOpError("must be inside an ascendc.if_aiv: only vector cores "
                       "have sub-blocks");
  if ((*this)->getParentOfType<IfSubBlockOp>())
    return emitOpError("is inside another ascendc.if_subblock");
  return success();
}

//===----------------------------------------------------------------------===//
// Scratch of the advanced API (ScratchOpInterface)
//===----------------------------------------------------------------------===//

namespace scratch = tilekit::machine::scratch;

FailureOr<uint32_t> BroadcastOp::getScratchBytes(bool c310) {
  auto dst = getDst().getType();
  if (dst.getRank() != 2)
    return emitOpError("broadcasts a tensor of rank other than 2, which the "
                       "API's Broadcast does not take");
  return scratch::broadcastBytes(c310, getElementBytes(dst.getElementType()),
                                 getAxis(), dst.getDimSize(0),
                                 dst.getDimSize(1));
}
