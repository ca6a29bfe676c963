//===- PTOTypes.cpp - PTO tile and tensor types ---------------------------===//
//
// Parsing, printing and verification of `!pto.tile` and `!pto.tensor`, and
// the tile queries (size, overlap) that memory planning and the interpreter
// rely on.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilekit::pto;

#define GET_TYPEDEF_CLASSES
#include "tilekit/Dialect/PTO/IR/PTOTypes.cpp.inc"

void PTODialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilekit/Dialect/PTO/IR/PTOTypes.cpp.inc"
      >();
}

/// Element types a tile or GM tensor may hold: the machine's data types.
static bool isSupportedElementType(Type type) {
  if (type.isF32() || type.isF16() || type.isBF16())
    return true;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (intType.isSignless())
      return width == 1 || width == 8 || width == 16 || width == 32 ||
             width == 64;
    return intType.isUnsigned() && width == 8;
  }
  return false;
}

static LogicalResult
verifyElementType(function_ref<InFlightDiagnostic()> emitError, Type type) {
  if (isSupportedElementType(type))
    return success();
  return emitError() << "element type " << type
                     << " is not one of f32, f16, bf16, i8, i16, i32, i64, "
                        "ui8, i1";
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

static constexpr uint64_t kMaxTileBytes = uint64_t(1) << 32;
static constexpr uint64_t kMaxTensorElements = uint64_t(1) << 48;

// Canonical layouts follow pto-isa's tile aliases: L1 and L0C hold
// column-major block grids (NZ), L0A row-major blocks of row-major fractals
// (ZZ), L0B row-major blocks of column-major fractals (ZN); L0C fractals are
// 16x16 f32 (1024 bytes).
TileLayout TileType::getCanonicalLayout(MemorySpace space) {
  switch (space) {
  case MemorySpace::Vec:
  case MemorySpace::Bias:
    return {BLayout::RowMajor, SLayout::NoneBox, 512};
  case MemorySpace::Mat:
    return {BLayout::ColMajor, SLayout::RowMajor, 512};
  case MemorySpace::Left:
    return {BLayout::RowMajor, SLayout::RowMajor, 512};
  case MemorySpace::Right:
    return {BLayout::RowMajor, SLayout::ColMajor, 512};
  case MemorySpace::Acc:
    return {BLayout::ColMajor, SLayout::RowMajor, 1024};
  }
  llvm_unreachable("unknown memory space");
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               MemorySpace space, BLayout blayout,
                               SLayout slayout, int64_t fractal, PadValue pad,
                               std::optional<int64_t> addr) {
  if (shape.empty())
    return emitError() << "tile must have at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "tile dimensions must be static and positive";
  if (failed(verifyElementType(emitError, elementType)))
    return failure();
  // No on-chip buffer comes near 4 GiB; the bound also keeps byte counts
  // free of overflow everywhere else.
  uint64_t bytes = std::max(elementType.getIntOrFloatBitWidth(), 8u) / 8;
  for (int64_t dim : shape) {
    bool overflow = false;
    bytes =
        llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(dim), &overflow);
    if (overflow || bytes > kMaxTileBytes)
      return emitError() << "tile box exceeds " << kMaxTileBytes
                         << " bytes; no on-chip buffer is that large";
  }

  bool isCube = space == MemorySpace::Left || space == MemorySpace::Right ||
                space == MemorySpace::Acc;
  if (elementType.isInteger(1) && space != MemorySpace::Vec)
    return emitError() << "i1 mask tiles live in 'vec', not '"
                       << stringifyMemorySpace(space) << "'";
  if (space == MemorySpace::Acc &&
      !(elementType.isF32() || elementType.isSignlessInteger(32)))
    return emitError() << "'acc' tiles accumulate in f32 or i32, not "
                       << elementType;
  if ((space == MemorySpace::Left || space == MemorySpace::Right) &&
      !(elementType.isF16() || elementType.isBF16() || elementType.isF32() ||
        elementType.isSignlessInteger(8)))
    return emitError() << "cube operand tiles hold f16, bf16, f32 or i8, not "
                       << elementType;
  if (isCube && slayout == SLayout::NoneBox)
    return emitError() << "'" << stringifyMemorySpace(space)
                       << "' tiles are stored in fractals; slayout must not "
                          "be none_box";
  if (fractal != 32 && fractal != 512 && fractal != 1024)
    return emitError() << "fractal size must be 32, 512 or 1024 bytes, got "
                       << fractal;
  if (addr) {
    // UB, L1 and L0 buffers are addressed in 32-byte blocks.
    if (*addr < 0 || *addr % 32 != 0)
      return emitError() << "tile address must be a non-negative multiple "
                            "of 32 bytes, got "
                         << *addr;
    machine::Buffer buffer = getBuffer(space);
    int64_t limit = machine::getCapacityLimit(buffer);
    if (*addr > limit || static_cast<int64_t>(bytes) > limit - *addr)
      return emitError() << "tile at address " << *addr << " (" << bytes
                         << " bytes) runs past the end of "
                         << machine::getName(buffer)
                         << ", which holds at "
                            "most "
                         << limit << " bytes on any machine";
  }
  return success();
}

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  StringRef spaceName;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc spaceLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&spaceName))
    return {};
  std::optional<MemorySpace> space = symbolizeMemorySpace(spaceName);
  if (!space) {
    parser.emitError(spaceLoc, "unknown memory space '")
        << spaceName << "' (expected vec, mat, left, right, acc or bias)";
    return {};
  }

  TileLayout layout = getCanonicalLayout(*space);
  PadValue pad = PadValue::Null;
  std::optional<int64_t> addr;
  llvm::StringSet<> seen;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (!seen.insert(key).second) {
      parser.emitError(keyLoc, "tile parameter '") << key << "' given twice";
      return {};
    }
    auto parseEnum = [&](auto symbolize, auto &out,
                         StringRef expected) -> bool {
      StringRef word;
      SMLoc wordLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&word))
        return false;
      auto value = symbolize(word);
      if (!value) {
        parser.emitError(wordLoc, "invalid ")
            << key << " '" << word << "' (expected " << expected << ")";
        return false;
      }
      out = *value;
      return true;
    };
    bool ok;
    if (key == "blayout") {
      ok = parseEnum([](StringRef w) { return symbolizeBLayout(w); },
                     layout.blayout, "row_major, col_major");
    } else if (key == "slayout") {
      ok = parseEnum([](StringRef w) { return symbolizeSLayout(w); },
                     layout.slayout, "none_box, row_major, col_major");
    } else if (key == "pad") {
      ok = parseEnum([](StringRef w) { return symbolizePadValue(w); }, pad,
                     "null, zero, min, max");
    } else if (key == "fractal") {
      ok = succeeded(parser.parseInteger(layout.fractal));
    } else if (key == "addr") {
      int64_t value;
      ok = succeeded(parser.parseInteger(value));
      addr = value;
    } else {
      parser.emitError(keyLoc, "unknown tile parameter '")
          << key << "' (expected blayout, slayout, fractal, pad or addr)";
      return {};
    }
    if (!ok)
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType, *space, layout.blayout, layout.slayout,
                    layout.fractal, pad, addr);
}

void TileType::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printDimensionList(getShape());
  printer << 'x' << getElementType() << ", "
          << stringifyMemorySpace(getMemorySpace());
  TileLayout canonical = getCanonicalLayout(getMemorySpace());
  if (getBlayout() != canonical.blayout)
    printer << ", blayout = " << stringifyBLayout(getBlayout());
  if (getSlayout() != canonical.slayout)
    printer << ", slayout = " << stringifySLayout(getSlayout());
  if (getFractal() != canonical.fractal)
    printer << ", fractal = " << getFractal();
  if (getPad() != PadValue::Null)
    printer << ", pad = " << stringifyPadValue(getPad());
  if (getAddr())
    printer << ", addr = " << *getAddr();
  printer << '>';
}

ShapedType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  return TileType::get(getContext(), shape ? *shape : getShape(), elementType,
                       getMemorySpace(), getBlayout(), getSlayout(),
                       getFractal(), getPad(), getAddr());
}

unsigned TileType::getElementStorageBits() const {
  unsigned bits = getElementType().getIntOrFloatBitWidth();
  return bits < 8 ? 8 : bits;
}

int64_t TileType::getSizeInBytes() const {
  return ShapedType::getNumElements(getShape()) * getElementStorageBits() / 8;
}

bool TileType::overlaps(TileType other) const {
  if (!getAddr() || !other.getAddr() ||
      getMemorySpace() != other.getMemorySpace())
    return false;
  int64_t begin = *getAddr(), end = begin + getSizeInBytes();
  int64_t otherBegin = *other.getAddr(),
          otherEnd = otherBegin + other.getSizeInBytes();
  return begin < otherEnd && otherBegin < end;
}

TileType TileType::withMemorySpace(MemorySpace space) const {
  TileLayout layout = getCanonicalLayout(space);
  return TileType::get(getContext(), getShape(), getElementType(), space,
                       layout.blayout, layout.slayout, layout.fractal, getPad(),
                       getAddr());
}

TileType TileType::withAddr(std::optional<int64_t> addr) const {
  return TileType::get(getContext(), getShape(), getElementType(),
                       getMemorySpace(), getBlayout(), getSlayout(),
                       getFractal(), getPad(), addr);
}

//===----------------------------------------------------------------------===//
// GMTensorType
//===----------------------------------------------------------------------===//

LogicalResult GMTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "tensor must have at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0 && !ShapedType::isDynamic(dim))
      return emitError() << "tensor dimensions must be positive or '?'";
  // Static extents stay far below overflow: 2^48 elements is 2000 times the
  // largest HBM.
  uint64_t elements = 1;
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      continue;
    bool overflow = false;
    elements = llvm::SaturatingMultiply(elements, static_cast<uint64_t>(dim),
                                        &overflow);
    if (overflow || elements > kMaxTensorElements)
      return emitError() << "tensor has more than " << kMaxTensorElements
                         << " elements";
  }
  return verifyElementType(emitError, elementType);
}

Type GMTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType);
}

void GMTensorType::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printDimensionList(getShape());
  printer << 'x' << getElementType() << '>';
}

ShapedType GMTensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                   Type elementType) const {
  return GMTensorType::get(getContext(), shape ? *shape : getShape(),
                           elementType);
}
