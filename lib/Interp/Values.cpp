//===- Values.cpp - Runtime values of the executor ------------------------===//

#include "tilekit/Interp/Values.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cmath>

using namespace tilekit;
using namespace tilekit::interp;

ArrayData::ArrayData(ElementKind kind, size_t size) : kind(kind) {
  if (isFloatKind(kind))
    floats.resize(size); // zeros, see ZeroedAllocator
  else
    ints.resize(size);
}

void ArrayData::set(size_t i, double value) {
  if (isFloatKind(kind))
    floats[i] = roundFloat(kind, static_cast<float>(value));
  else
    ints[i] = wrapInt(kind, static_cast<int64_t>(value));
}

void ArrayData::accumulate(size_t i, const ArrayData &from, size_t j) {
  if (!isFloatKind(kind) && !isFloatKind(from.kind))
    ints[i] = wrapInt(
        kind, static_cast<int64_t>(static_cast<uint64_t>(ints[i]) +
                                   static_cast<uint64_t>(from.ints[j])));
  else
    set(i, get(i) + from.get(j));
}

Scalar ArrayData::scalarAt(size_t i) const {
  return isFloatKind(kind) ? Scalar::ofFloat(kind, floats[i])
                           : Scalar::ofInt(kind, ints[i]);
}

void ArrayData::setScalar(size_t i, const Scalar &value) {
  if (!isFloatKind(kind) && !isFloatKind(value.kind))
    ints[i] = wrapInt(kind, value.i);
  else
    set(i, value.asDouble());
}

void ArrayData::fill(const Scalar &value) {
  if (!isFloatKind(kind) && !isFloatKind(value.kind))
    std::fill(ints.begin(), ints.end(), wrapInt(kind, value.i));
  else
    fill(value.asDouble());
}

void ArrayData::setIndex(size_t i, const Scalar &start, int64_t offset) {
  if (isFloatKind(kind))
    floats[i] = roundFloat(kind, static_cast<float>(start.f + double(offset)));
  else
    ints[i] =
        wrapInt(kind, static_cast<int64_t>(static_cast<uint64_t>(start.i) +
                                           static_cast<uint64_t>(offset)));
}

void ArrayData::fill(double value) {
  if (isFloatKind(kind))
    std::fill(floats.begin(), floats.end(),
              roundFloat(kind, static_cast<float>(value)));
  else
    std::fill(ints.begin(), ints.end(),
              wrapInt(kind, static_cast<int64_t>(value)));
}

Scalar Scalar::ofInt(ElementKind kind, int64_t value) {
  Scalar scalar;
  scalar.kind = kind;
  scalar.i = wrapInt(kind, value);
  return scalar;
}

Scalar Scalar::ofFloat(ElementKind kind, double value) {
  Scalar scalar;
  scalar.kind = kind;
  scalar.f = roundFloat(kind, static_cast<float>(value));
  return scalar;
}

int64_t TensorValue::numElements() const { return product(shape); }

int64_t interp::product(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

uint64_t interp::newBufferId() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

TensorStorage::TensorStorage(ElementKind kind, size_t size)
    : data(kind, size), buffer(newBufferId()) {}

TileValue interp::makeTile(pto::TileType type, ElementKind kind) {
  TileValue tile;
  tile.type = type;
  // Tiles are named when bound to a value (ExecContext::set): by their
  // address for addressed tiles, per work item and core.
  tile.valid.assign(type.getShape().begin(), type.getShape().end());
  tile.data = std::make_shared<ArrayData>(kind, product(type.getShape()));
  return tile;
}

TensorValue interp::makeTensor(ElementKind kind,
                               llvm::ArrayRef<int64_t> shape) {
  TensorValue tensor;
  tensor.storage = std::make_shared<TensorStorage>(kind, product(shape));
  tensor.shape.assign(shape.begin(), shape.end());
  tensor.valid = tensor.shape;
  return tensor;
}

ElementKind interp::kindOf(mlir::Type type) {
  if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(type))
    type = shaped.getElementType();
  std::optional<ElementKind> kind = getElementKind(type);
  if (!kind)
    llvm::report_fatal_error("executor reached an unverified element type");
  return *kind;
}

std::string interp::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os);
  os << "]";
  return text;
}
