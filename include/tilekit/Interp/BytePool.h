//===- BytePool.h - Addressed on-chip storage ---------------------*- C++
//-*-===//
//
// Tiles with an address live in a byte pool, one per memory space and
// function invocation: writing a tile stores its elements at their physical
// offsets (fractal layouts included), and reading a tile decodes whatever
// the bytes hold now, so tiles whose address ranges overlap alias.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERP_BYTEPOOL_H
#define TILEKIT_INTERP_BYTEPOOL_H

#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Interp/Values.h"

#include <array>

namespace tilekit::interp {

/// The byte offset of element (row, col) of a 2-D tile in its buffer,
/// relative to the tile's address, following blayout/slayout/fractal. Other
/// ranks are row-major.
int64_t getPhysicalOffset(pto::TileType type, ElementKind kind,
                          llvm::ArrayRef<int64_t> index);

/// Bytes from the tile's address to one past its last element.
int64_t getPhysicalExtent(pto::TileType type, ElementKind kind);

/// Element `i` of `data` as the machine stores it (`getByteSize(kind)`
/// bytes, little-endian, 16-bit floats rounded to nearest even).
void encodeElement(ElementKind kind, const ArrayData &data, size_t i,
                   uint8_t *out);
/// The element the bytes at `in` hold, into element `i` of `data`.
void decodeElement(ElementKind kind, const uint8_t *in, ArrayData &data,
                   size_t i);

class BytePools {
public:
  /// Bytes never written read as 0, or as 0xFF under --undefined=nan; under
  /// --undefined=check the pools remember which write each byte holds.
  explicit BytePools(UndefinedData mode) : mode(mode) {}

  /// Stores the elements of an addressed tile (as its write `writeId`).
  void store(const TileValue &tile);
  /// Decodes an addressed tile of `type` with the given valid shape. Under
  /// --undefined=check, elements whose bytes do not all hold write
  /// `writeId` (never written, or overwritten through another tile since)
  /// are marked undefined.
  TileValue load(pto::TileType type, ElementKind kind,
                 llvm::ArrayRef<int64_t> valid, uint64_t writeId);

private:
  std::vector<uint8_t> &pool(pto::MemorySpace space, int64_t end);
  UndefinedData mode;
  std::array<std::vector<uint8_t>, 6> pools;
  std::array<std::vector<uint64_t>, 6> owners;
};

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_BYTEPOOL_H
