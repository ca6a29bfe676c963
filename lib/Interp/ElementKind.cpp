//===- ElementKind.cpp - Element types as the executor stores them --------===//

#include "tilekit/Interp/ElementKind.h"

#include "tilekit/Support/HalfFloat.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ErrorHandling.h"

#include <limits>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

std::optional<ElementKind> interp::getElementKind(Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isIndex())
    return ElementKind::Index;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return std::nullopt;
  switch (intType.getWidth()) {
  case 1:
    return ElementKind::I1;
  case 8:
    return intType.isUnsigned() ? ElementKind::U8 : ElementKind::I8;
  case 16:
    return ElementKind::I16;
  case 32:
    return ElementKind::I32;
  case 64:
    return ElementKind::I64;
  default:
    return std::nullopt;
  }
}

unsigned interp::getByteSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::I1:
  case ElementKind::I8:
  case ElementKind::U8:
    return 1;
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::I64:
  case ElementKind::Index:
    return 8;
  }
  llvm_unreachable("unknown element kind");
}

StringRef interp::getKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::I1:
    return "i1";
  case ElementKind::I8:
    return "i8";
  case ElementKind::U8:
    return "ui8";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  case ElementKind::Index:
    return "index";
  }
  llvm_unreachable("unknown element kind");
}

float interp::roundFloat(ElementKind kind, float value) {
  switch (kind) {
  case ElementKind::F16:
    return roundToF16(value);
  case ElementKind::BF16:
    return roundToBF16(value);
  default:
    return value;
  }
}

void interp::roundFloats(ElementKind kind, float *values, size_t count) {
  if (kind == ElementKind::F16)
    roundToF16(values, values, count);
  else if (kind == ElementKind::BF16)
    roundToBF16(values, values, count);
}

int64_t interp::wrapInt(ElementKind kind, int64_t value) {
  switch (kind) {
  case ElementKind::I1:
    return value & 1;
  case ElementKind::I8:
    return static_cast<int8_t>(value);
  case ElementKind::U8:
    return static_cast<uint8_t>(value);
  case ElementKind::I16:
    return static_cast<int16_t>(value);
  case ElementKind::I32:
    return static_cast<int32_t>(value);
  default:
    return value;
  }
}

double interp::getLowest(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return std::numeric_limits<float>::lowest();
  case ElementKind::F16:
    return -65504.0;
  case ElementKind::BF16:
    return -3.3895313892515355e38; // -(2 - 2^-7) * 2^127
  case ElementKind::I1:
  case ElementKind::U8:
    return 0;
  case ElementKind::I8:
    return -128;
  case ElementKind::I16:
    return -32768;
  case ElementKind::I32:
    return std::numeric_limits<int32_t>::min();
  case ElementKind::I64:
  case ElementKind::Index:
    return static_cast<double>(std::numeric_limits<int64_t>::min());
  }
  llvm_unreachable("unknown element kind");
}

double interp::getHighest(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return std::numeric_limits<float>::max();
  case ElementKind::F16:
    return 65504.0;
  case ElementKind::BF16:
    return 3.3895313892515355e38;
  case ElementKind::I1:
    return 1;
  case ElementKind::U8:
    return 255;
  case ElementKind::I8:
    return 127;
  case ElementKind::I16:
    return 32767;
  case ElementKind::I32:
    return std::numeric_limits<int32_t>::max();
  case ElementKind::I64:
  case ElementKind::Index:
    return static_cast<double>(std::numeric_limits<int64_t>::max());
  }
  llvm_unreachable("unknown element kind");
}
