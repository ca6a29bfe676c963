//===- BytePool.cpp - Addressed on-chip storage ---------------------------===//

#include "tilekit/Interp/BytePool.h"

#include "Indexing.h"

#include "tilekit/Support/HalfFloat.h"

#include <cstring>

using namespace tilekit;
using namespace tilekit::interp;
using pto::BLayout;
using pto::SLayout;
using pto::TileType;

namespace {
/// The fractal grid of a 2-D tile: block extents and how many blocks.
struct FractalGrid {
  int64_t blockRows, blockCols, gridRows, gridCols;
};
} // namespace

/// A fractal of `fractal` bytes is 16 rows of (fractal / 16) bytes when its
/// elements are row-major (L0A, L1, L0C), and (fractal / 16) bytes of rows by
/// 16 columns when column-major (L0B).
static FractalGrid getGrid(TileType type, ElementKind kind) {
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t span = std::max<int64_t>(
      1, type.getFractal() / 16 / static_cast<int64_t>(getByteSize(kind)));
  FractalGrid grid;
  if (type.getSlayout() == SLayout::ColMajor) {
    grid.blockRows = span;
    grid.blockCols = 16;
  } else {
    grid.blockRows = 16;
    grid.blockCols = span;
  }
  grid.gridRows = (rows + grid.blockRows - 1) / grid.blockRows;
  grid.gridCols = (cols + grid.blockCols - 1) / grid.blockCols;
  return grid;
}

int64_t interp::getPhysicalOffset(TileType type, ElementKind kind,
                                  llvm::ArrayRef<int64_t> index) {
  int64_t elementBytes = getByteSize(kind);
  if (type.getRank() != 2) {
    int64_t linear = 0;
    for (auto [dim, i] : llvm::zip(type.getShape(), index))
      linear = linear * dim + i;
    return linear * elementBytes;
  }
  int64_t row = index[0], col = index[1];
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  if (type.getSlayout() == SLayout::NoneBox) {
    int64_t linear = type.getBlayout() == BLayout::RowMajor ? row * cols + col
                                                            : col * rows + row;
    return linear * elementBytes;
  }
  FractalGrid grid = getGrid(type, kind);
  int64_t blockRow = row / grid.blockRows, blockCol = col / grid.blockCols;
  int64_t inRow = row % grid.blockRows, inCol = col % grid.blockCols;
  int64_t block = type.getBlayout() == BLayout::RowMajor
                      ? blockRow * grid.gridCols + blockCol
                      : blockCol * grid.gridRows + blockRow;
  int64_t inBlock = type.getSlayout() == SLayout::RowMajor
                        ? inRow * grid.blockCols + inCol
                        : inCol * grid.blockRows + inRow;
  return (block * grid.blockRows * grid.blockCols + inBlock) * elementBytes;
}

int64_t interp::getPhysicalExtent(TileType type, ElementKind kind) {
  int64_t elementBytes = getByteSize(kind);
  if (type.getRank() != 2 || type.getSlayout() == SLayout::NoneBox)
    return product(type.getShape()) * elementBytes;
  FractalGrid grid = getGrid(type, kind);
  return grid.gridRows * grid.blockRows * grid.gridCols * grid.blockCols *
         elementBytes;
}

std::vector<uint8_t> &BytePools::pool(pto::MemorySpace space, int64_t end) {
  size_t which = static_cast<size_t>(space);
  std::vector<uint8_t> &bytes = pools[which];
  if (static_cast<int64_t>(bytes.size()) < end) {
    bytes.resize(end, mode == UndefinedData::NaN ? 0xFF : 0);
    if (mode == UndefinedData::Check)
      owners[which].resize(end, 0);
  }
  return bytes;
}

void interp::encodeElement(ElementKind kind, const ArrayData &data, size_t i,
                           uint8_t *out) {
  switch (kind) {
  case ElementKind::F32:
    std::memcpy(out, &data.floats[i], 4);
    return;
  case ElementKind::F16: {
    uint16_t bits = f32ToF16Bits(data.floats[i]);
    std::memcpy(out, &bits, 2);
    return;
  }
  case ElementKind::BF16: {
    uint16_t bits = f32ToBF16Bits(data.floats[i]);
    std::memcpy(out, &bits, 2);
    return;
  }
  default: {
    int64_t value = data.ints[i];
    std::memcpy(out, &value, getByteSize(kind)); // little-endian host
    return;
  }
  }
}

void interp::decodeElement(ElementKind kind, const uint8_t *in, ArrayData &data,
                           size_t i) {
  switch (kind) {
  case ElementKind::F32:
    std::memcpy(&data.floats[i], in, 4);
    return;
  case ElementKind::F16:
  case ElementKind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, in, 2);
    data.floats[i] =
        kind == ElementKind::F16 ? f16BitsToF32(bits) : bf16BitsToF32(bits);
    return;
  }
  default: {
    int64_t value = 0;
    std::memcpy(&value, in, getByteSize(kind));
    data.ints[i] = wrapInt(kind, value); // sign-extends from the width
    return;
  }
  }
}

void BytePools::store(const TileValue &tile) {
  int64_t base = *tile.type.getAddr();
  ElementKind kind = tile.kind();
  std::vector<uint8_t> &bytes = pool(tile.type.getMemorySpace(),
                                     base + getPhysicalExtent(tile.type, kind));
  std::vector<uint64_t> &owner =
      owners[static_cast<size_t>(tile.type.getMemorySpace())];
  int64_t size = getByteSize(kind);
  int64_t linear = 0;
  forEachIndex(tile.shape(), [&](llvm::ArrayRef<int64_t> index) {
    int64_t at = base + getPhysicalOffset(tile.type, kind, index);
    encodeElement(kind, *tile.data, linear++, &bytes[at]);
    if (mode == UndefinedData::Check)
      std::fill_n(owner.begin() + at, size, tile.writeId);
  });
}

TileValue BytePools::load(TileType type, ElementKind kind,
                          llvm::ArrayRef<int64_t> valid, uint64_t writeId) {
  TileValue tile = makeTile(type, kind);
  tile.valid.assign(valid.begin(), valid.end());
  tile.writeId = writeId;
  int64_t base = *type.getAddr();
  std::vector<uint8_t> &bytes =
      pool(type.getMemorySpace(), base + getPhysicalExtent(type, kind));
  const std::vector<uint64_t> &owner =
      owners[static_cast<size_t>(type.getMemorySpace())];
  int64_t size = getByteSize(kind);
  int64_t linear = 0;
  forEachIndex(type.getShape(), [&](llvm::ArrayRef<int64_t> index) {
    int64_t at = base + getPhysicalOffset(type, kind, index);
    decodeElement(kind, &bytes[at], *tile.data, linear);
    if (mode == UndefinedData::Check &&
        std::any_of(owner.begin() + at, owner.begin() + at + size,
                    [&](uint64_t id) { return id != writeId; })) {
      if (!tile.undefined)
        tile.undefined =
            std::make_shared<std::vector<uint8_t>>(tile.data->size(), 0);
      (*tile.undefined)[linear] = 1;
    }
    ++linear;
  });
  return tile;
}
