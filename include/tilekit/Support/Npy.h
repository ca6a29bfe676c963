//===- Npy.h - NumPy .npy files -----------------------------------*- C++
//-*-===//
//
// Reads and writes version 1-3 `.npy` files holding little-endian arrays in
// C order. Writes are atomic: the file appears complete or not at all.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_NPY_H
#define TILEKIT_SUPPORT_NPY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilekit {

/// An array as a `.npy` file holds it.
struct NpyArray {
  /// NumPy type string, normalized to little-endian: "<f4", "<f2", "|i1"...
  std::string descr;
  std::vector<int64_t> shape;
  /// The elements, C order, little-endian, `elementSize()` bytes each, of
  /// an array built in memory.
  std::vector<uint8_t> data;
  /// An array read from a file keeps the file's (mapped) contents instead
  /// and views its elements there: they are copied once, by the reader.
  std::shared_ptr<llvm::MemoryBuffer> file;
  const uint8_t *fileElements = nullptr;

  /// The elements, wherever they are.
  const uint8_t *elements() const { return file ? fileElements : data.data(); }

  int64_t numElements() const;
  /// Bytes per element of `descr`.
  unsigned elementSize() const;
};

/// Bytes per element of a NumPy type string, or 0 when tilekit does not
/// handle it.
unsigned npyElementSize(llvm::StringRef descr);

llvm::Expected<NpyArray> readNpy(llvm::StringRef path);
/// Parses an in-memory `.npy` image; `name` labels errors.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes, llvm::StringRef name);

/// Writes `array` to `path` through a temporary file renamed into place.
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);
/// The bytes of `array` as an .npy file.
llvm::Expected<std::string> encodeNpy(const NpyArray &array);

} // namespace tilekit

#endif // TILEKIT_SUPPORT_NPY_H
