//===- TensorIO.cpp - GM tensors to and from .npy arrays ------------------===//

#include "tilekit/Interp/TensorIO.h"

#include "tilekit/Support/HalfFloat.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <random>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::interp;

/// The dtype a kind is written as.
static StringRef descrFor(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
  case ElementKind::BF16:
    return "<f4";
  case ElementKind::F16:
    return "<f2";
  case ElementKind::I1:
    return "<b1";
  case ElementKind::I8:
    return "<i1";
  case ElementKind::U8:
    return "<u1";
  case ElementKind::I16:
    return "<i2";
  case ElementKind::I32:
    return "<i4";
  case ElementKind::I64:
  case ElementKind::Index:
    return "<i8";
  }
  llvm_unreachable("unknown element kind");
}

template <typename T> static T readAt(const NpyArray &array, size_t i) {
  T value;
  std::memcpy(&value, array.elements() + i * sizeof(T), sizeof(T));
  return value;
}

std::vector<double> interp::npyToDoubles(const NpyArray &array) {
  size_t count = array.numElements();
  std::vector<double> values(count);
  StringRef descr = array.descr;
  for (size_t i = 0; i < count; ++i) {
    double &out = values[i];
    if (descr == "<f4")
      out = readAt<float>(array, i);
    else if (descr == "<f8")
      out = readAt<double>(array, i);
    else if (descr == "<f2")
      out = f16BitsToF32(readAt<uint16_t>(array, i));
    else if (descr == "<i1")
      out = readAt<int8_t>(array, i);
    else if (descr == "<u1" || descr == "<b1")
      out = readAt<uint8_t>(array, i);
    else if (descr == "<i2")
      out = readAt<int16_t>(array, i);
    else if (descr == "<u2")
      out = readAt<uint16_t>(array, i);
    else if (descr == "<i4")
      out = readAt<int32_t>(array, i);
    else if (descr == "<u4")
      out = readAt<uint32_t>(array, i);
    else if (descr == "<i8")
      out = static_cast<double>(readAt<int64_t>(array, i));
    else
      out = static_cast<double>(readAt<uint64_t>(array, i));
  }
  return values;
}

Expected<TensorValue> interp::tensorFromNpy(const NpyArray &array,
                                            ElementKind kind) {
  StringRef expected = descrFor(kind);
  bool rawBF16 = kind == ElementKind::BF16 && array.descr == "<u2";
  if (array.descr != expected && !rawBF16)
    return createStringError(
        inconvertibleErrorCode(),
        "the kernel wants " + getKindName(kind) + " (dtype " + expected +
            (kind == ElementKind::BF16 ? " or raw bits as <u2" : "") +
            "), but the array holds " + array.descr);
  TensorValue tensor = makeTensor(kind, array.shape);
  ArrayData &data = tensor.storage->data;
  // An empty array has nothing to copy (and its buffers may be null, which
  // memcpy must not see even for 0 bytes).
  if (data.size() == 0)
    return tensor;
  // The 16-bit patterns, aligned for the vectorized widening.
  auto halves = [&] {
    std::vector<uint16_t> bits(data.size());
    std::memcpy(bits.data(), array.elements(), bits.size() * 2);
    return bits;
  };
  if (rawBF16) {
    bf16BitsToF32(halves().data(), data.floats.data(), data.size());
    return tensor;
  }
  // The dtype is the kind's: read straight into the storage, no detour
  // through doubles (which also lost int64 values past 2^53).
  size_t count = data.size();
  auto ints = [&](auto type) {
    using T = decltype(type);
    for (size_t i = 0; i < count; ++i)
      data.ints[i] = wrapInt(kind, static_cast<int64_t>(readAt<T>(array, i)));
  };
  switch (kind) {
  case ElementKind::F32:
    std::memcpy(data.floats.data(), array.elements(), count * sizeof(float));
    break;
  case ElementKind::F16:
    f16BitsToF32(halves().data(), data.floats.data(), count);
    break;
  case ElementKind::BF16:
    std::memcpy(data.floats.data(), array.elements(), count * sizeof(float));
    roundToBF16(data.floats.data(), data.floats.data(), count);
    break;
  case ElementKind::I1:
  case ElementKind::U8:
    ints(uint8_t());
    break;
  case ElementKind::I8:
    ints(int8_t());
    break;
  case ElementKind::I16:
    ints(int16_t());
    break;
  case ElementKind::I32:
    ints(int32_t());
    break;
  case ElementKind::I64:
  case ElementKind::Index:
    ints(int64_t());
    break;
  }
  return tensor;
}

NpyArray interp::npyFromTensor(const TensorValue &tensor) {
  NpyArray array;
  ElementKind kind = tensor.kind();
  array.descr = descrFor(kind).str();
  array.shape.assign(tensor.shape.begin(), tensor.shape.end());
  const ArrayData &data = tensor.storage->data;
  size_t count = tensor.numElements();
  unsigned size = array.elementSize();
  array.data.resize(count * size);
  if (count == 0)
    return array;
  if (kind == ElementKind::F16) {
    std::vector<uint16_t> bits(count);
    f32ToF16Bits(data.floats.data(), bits.data(), count);
    std::memcpy(array.data.data(), bits.data(), count * 2);
    return array;
  }
  if (kind == ElementKind::F32 || kind == ElementKind::BF16) {
    std::memcpy(array.data.data(), data.floats.data(), count * 4);
    return array;
  }
  for (size_t i = 0; i < count; ++i) {
    uint8_t *out = array.data.data() + i * size;
    if (kind == ElementKind::F32 || kind == ElementKind::BF16) {
      std::memcpy(out, &data.floats[i], 4);
    } else if (kind == ElementKind::F16) {
      uint16_t bits = f32ToF16Bits(data.floats[i]);
      std::memcpy(out, &bits, 2);
    } else {
      int64_t value = data.ints[i];
      std::memcpy(out, &value, size); // little-endian host
    }
  }
  return array;
}

// rand: draws what NumPy's legacy generator draws, so that an input is
// reproduced in Python (docs/executor.md gives the lines):
// numpy.random.RandomState(seed) is MT19937 seeded as std::mt19937 is.

/// RandomState.random_sample(): 53 random bits from two 32-bit draws.
static double sampleUnit(std::mt19937 &engine) {
  uint32_t high = engine() >> 5, low = engine() >> 6;
  return (high * 67108864.0 + low) / 9007199254740992.0;
}

/// RandomState.randint(low, high + 1) for a range below 2^32: a draw masked
/// to the range's bits, redrawn while it is past the range.
static int64_t sampleInt(std::mt19937 &engine, int64_t low, int64_t high) {
  uint32_t range = static_cast<uint32_t>(high - low), mask = range;
  for (unsigned shift = 1; shift < 32; shift *= 2)
    mask |= mask >> shift;
  uint32_t value;
  while ((value = engine() & mask) > range) {
  }
  return low + value;
}

TensorValue interp::randomTensor(ElementKind kind, ArrayRef<int64_t> shape,
                                 uint32_t seed) {
  TensorValue tensor = makeTensor(kind, shape);
  std::mt19937 engine(seed);
  ArrayData &data = tensor.storage->data;
  if (isFloatKind(kind)) {
    // RandomState.uniform(-1, 1): -1 + 2 * sample, a double, then f32.
    for (float &value : data.floats)
      value =
          roundFloat(kind, static_cast<float>(-1.0 + 2.0 * sampleUnit(engine)));
    return tensor;
  }
  int64_t low = kind == ElementKind::I1 || kind == ElementKind::U8 ? 0 : -8;
  int64_t high =
      kind == ElementKind::I1 ? 1 : (kind == ElementKind::U8 ? 16 : 8);
  for (int64_t &value : data.ints)
    value = sampleInt(engine, low, high);
  return tensor;
}

std::optional<ElementKind> interp::parseKindName(StringRef name) {
  for (ElementKind kind :
       {ElementKind::F32, ElementKind::F16, ElementKind::BF16, ElementKind::I1,
        ElementKind::I8, ElementKind::U8, ElementKind::I16, ElementKind::I32,
        ElementKind::I64})
    if (getKindName(kind) == name)
      return kind;
  return std::nullopt;
}

Expected<std::pair<SmallVector<int64_t, 4>, ElementKind>>
interp::parseShapeAndType(StringRef shapeText, StringRef typeText) {
  SmallVector<int64_t, 4> shape;
  SmallVector<StringRef> dims;
  shapeText.split(dims, 'x', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t extent;
    if (dim.getAsInteger(10, extent) || extent < 0)
      return createStringError(inconvertibleErrorCode(),
                               "bad shape '" + shapeText +
                                   "' (expected extents like 64x128)");
    shape.push_back(extent);
  }
  std::optional<ElementKind> kind = parseKindName(typeText);
  if (!kind)
    return createStringError(inconvertibleErrorCode(),
                             "unknown element type '" + typeText +
                                 "' (expected f32, f16, bf16, i1, i8, ui8, "
                                 "i16, i32 or i64)");
  return std::make_pair(shape, *kind);
}
