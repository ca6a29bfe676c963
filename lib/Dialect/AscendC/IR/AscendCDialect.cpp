//===- AscendCDialect.cpp - AscendC registration and types ----------------===//

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilekit::ascendc;

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.cpp.inc"
#include "tilekit/Dialect/AscendC/IR/AscendCEnums.cpp.inc"
#include "tilekit/Dialect/AscendC/IR/AscendCInterfaces.cpp.inc"
#include "tilekit/Dialect/AscendC/IR/AsctileDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilekit/Dialect/AscendC/IR/AscendCTypes.cpp.inc"

void AscendCDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tilekit/Dialect/AscendC/IR/AscendCOps.cpp.inc"
      >();
}

void AsctileDialect::initialize() {}

void AscendCDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilekit/Dialect/AscendC/IR/AscendCTypes.cpp.inc"
      >();
}

/// Parses `<DIMSxTYPE>`; local tensors must be static.
static LogicalResult parseShapeAndType(AsmParser &parser, bool allowDynamic,
                                       SmallVectorImpl<int64_t> &shape,
                                       Type &elementType) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return failure();
  if (!elementType.isIntOrFloat())
    return parser.emitError(loc, "a tensor element must be an integer or a "
                                 "float, not ")
           << elementType;
  if (!allowDynamic && llvm::any_of(shape, ShapedType::isDynamic))
    return parser.emitError(loc, "a local tensor needs a static shape");
  if (llvm::any_of(shape, [](int64_t d) { return d == 0; }))
    return parser.emitError(loc, "a tensor dimension must be positive");
  if (allowDynamic)
    return success();
  // No on-chip buffer comes near 4 GiB; the bound also keeps byte counts
  // free of overflow in every pass.
  constexpr uint64_t kMaxLocalBytes = uint64_t(1) << 32;
  uint64_t bytes = getElementBytes(elementType);
  for (int64_t dim : shape) {
    bool overflow = false;
    bytes =
        llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(dim), &overflow);
    if (overflow || bytes > kMaxLocalBytes)
      return parser.emitError(loc, "a local tensor larger than ")
             << kMaxLocalBytes << " bytes; no on-chip buffer is that large";
  }
  return success();
}

static void printShapeAndType(AsmPrinter &printer, ArrayRef<int64_t> shape,
                              Type elementType) {
  printer << '<';
  printer.printDimensionList(shape);
  printer << 'x' << elementType << '>';
}

Type LocalTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (failed(parseShapeAndType(parser, /*allowDynamic=*/false, shape,
                               elementType)))
    return {};
  return get(parser.getContext(), shape, elementType);
}

void LocalTensorType::print(AsmPrinter &printer) const {
  printShapeAndType(printer, getShape(), getElementType());
}

Type GlobalTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (failed(
          parseShapeAndType(parser, /*allowDynamic=*/true, shape, elementType)))
    return {};
  return get(parser.getContext(), shape, elementType);
}

void GlobalTensorType::print(AsmPrinter &printer) const {
  printShapeAndType(printer, getShape(), getElementType());
}
