//===- Binding.cpp - Kernel arguments in, outputs checked out -------------===//

#include "tilekit/Interp/Binding.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Interp/Compare.h"
#include "tilekit/Interp/ElementKind.h"
#include "tilekit/Interp/TensorIO.h"
#include "tilekit/Support/CheckedSize.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

static llvm::Error bindError(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

static llvm::Expected<TensorValue> tensorFrom(llvm::StringRef source,
                                              ElementKind kind) {
  // The executor holds floats as f32 and integers as i64.
  uint64_t heldBytes = isFloatKind(kind) ? 4 : 8;
  if (!source.starts_with("rand:") && !source.starts_with("zeros:")) {
    auto array = readNpy(source);
    if (!array)
      return array.takeError();
    if (llvm::Error error = checkAllocatable(
            uint64_t(array->numElements()) * heldBytes, "'" + source + "'"))
      return std::move(error);
    return tensorFromNpy(*array, kind);
  }
  SmallVector<llvm::StringRef> parts;
  source.split(parts, ':');
  bool random = parts[0] == "rand";
  if (parts.size() < 3 || parts.size() > (random ? 4u : 3u))
    return bindError(random ? "expected rand:SHAPE:TYPE[:SEED]"
                            : "expected zeros:SHAPE:TYPE");
  auto parsed = parseShapeAndType(parts[1], parts[2]);
  if (!parsed)
    return parsed.takeError();
  if (parsed->second != kind)
    return bindError("the argument holds " + getKindName(kind) + ", not " +
                     parts[2]);
  llvm::Expected<uint64_t> bytes =
      checkedBytes(parsed->first, heldBytes, "shape '" + parts[1] + "'");
  if (!bytes)
    return bytes.takeError();
  if (llvm::Error error = checkAllocatable(*bytes, "'" + source + "'"))
    return std::move(error);
  // NumPy's RandomState takes seeds below 2^32.
  uint32_t seed = 0;
  if (parts.size() == 4 && parts[3].getAsInteger(10, seed))
    return bindError("bad seed '" + parts[3] + "': expected 0 to 4294967295");
  return random ? randomTensor(kind, parsed->first, seed)
                : makeTensor(kind, parsed->first);
}

/// `tensor` as the value of an argument of GM tensor type `type`, if its
/// shape fits.
static llvm::Expected<RuntimeValue>
fitTensor(llvm::Expected<TensorValue> tensor, ShapedType type) {
  if (!tensor)
    return tensor.takeError();
  if (type.getRank() != static_cast<int64_t>(tensor->shape.size()) ||
      failed(verifyCompatibleShape(type.getShape(), tensor->shape))) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return bindError("shape " + formatShape(tensor->shape) + " does not fit " +
                     text);
  }
  return RuntimeValue(std::move(*tensor));
}

static bool isTensorType(Type type) {
  return isa<pto::GMTensorType, ascendc::GlobalTensorType>(type);
}

llvm::Expected<RuntimeValue> interp::bindArray(const NpyArray &array,
                                               Type type) {
  if (!isTensorType(type))
    return bindError("an array binds a GM tensor argument only");
  auto tensorType = cast<ShapedType>(type);
  std::optional<ElementKind> kind = getElementKind(tensorType.getElementType());
  if (!kind)
    return bindError("unsupported element type");
  // The executor holds floats as f32 and integers as i64.
  if (llvm::Error error = checkAllocatable(uint64_t(array.numElements()) *
                                               (isFloatKind(*kind) ? 4 : 8),
                                           "the array"))
    return std::move(error);
  return fitTensor(tensorFromNpy(array, *kind), tensorType);
}

llvm::Expected<RuntimeValue> interp::bindArgument(llvm::StringRef source,
                                                  Type type) {
  if (isTensorType(type)) {
    auto tensorType = cast<ShapedType>(type);
    std::optional<ElementKind> kind =
        getElementKind(tensorType.getElementType());
    if (!kind)
      return bindError("unsupported element type");
    return fitTensor(tensorFrom(source, *kind), tensorType);
  }
  if (isa<pto::TileType>(type))
    return bindError("tile arguments cannot be bound from the command line; "
                     "run a function that loads its tiles from tensors");
  std::optional<ElementKind> kind = getElementKind(type);
  if (!kind)
    return bindError("unsupported argument type");
  if (isFloatKind(*kind)) {
    double value;
    if (source.getAsDouble(value))
      return bindError("expected a number");
    return RuntimeValue(Scalar::ofFloat(*kind, value));
  }
  int64_t value;
  if (source.getAsInteger(0, value))
    return bindError("expected an integer");
  return RuntimeValue(Scalar::ofInt(*kind, value));
}

std::pair<double, double> interp::defaultTolerances(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return {1e-5, 1e-6};
  case ElementKind::F16:
    return {1e-3, 1e-3};
  case ElementKind::BF16:
    return {8e-3, 8e-3};
  default:
    return {0, 0};
  }
}

/// "[3, 5]" for element `linear` of `shape`.
static std::string indexOf(int64_t linear, llvm::ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = linear % std::max<int64_t>(shape[d], 1);
    linear /= std::max<int64_t>(shape[d], 1);
  }
  return formatShape(index);
}

ExpectationReport interp::compareWithExpected(const TensorValue &tensor,
                                              const NpyArray &expected,
                                              double rtol, double atol) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (llvm::ArrayRef<int64_t>(expected.shape) != llvm::ArrayRef(tensor.shape)) {
    os << "MISMATCH: shape " << formatShape(tensor.shape) << ", expected "
       << formatShape(expected.shape);
    return {false, text, std::nullopt, 0};
  }
  std::vector<double> actual = npyToDoubles(npyFromTensor(tensor));
  std::vector<double> wanted = npyToDoubles(expected);
  Comparison result = compareValues(actual, wanted, rtol, atol);
  os << (result.ok() ? "ok" : "MISMATCH")
     << llvm::format(" (max abs err %.3g, max rel err %.3g", result.maxAbsError,
                     result.maxRelError);
  // The maxima are over finite pairs; say so when NaN or an infinity
  // differs, or "max abs err 0" would read as a match.
  if (result.specialMismatches)
    os << llvm::format(" over finite elements; %lld NaN or infinity "
                       "mismatch(es)",
                       static_cast<long long>(result.specialMismatches));
  os << llvm::format("; rtol %g, atol %g)", rtol, atol);
  if (!result.ok())
    os << llvm::format(
        "; %lld of %zu elements differ, first at %s: got %.9g, expected %.9g",
        static_cast<long long>(result.mismatches), actual.size(),
        indexOf(result.firstMismatch, tensor.shape).c_str(),
        actual[result.firstMismatch], wanted[result.firstMismatch]);
  return {result.ok(), text, result, static_cast<int64_t>(actual.size())};
}
