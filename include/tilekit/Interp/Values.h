//===- Values.h - Runtime values of the executor ------------------*- C++
//-*-===//
//
// Scalars, tiles and GM tensors as the executor holds them. Tiles are
// values: an op makes a new tile (sharing storage where only metadata
// changes). GM tensors are references to one buffer: stores write into it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_INTERP_VALUES_H
#define TILEKIT_INTERP_VALUES_H

#include "tilekit/Dialect/PTO/IR/PTODialect.h"
#include "tilekit/Interp/ElementKind.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdlib>
#include <memory>
#include <variant>
#include <vector>

namespace tilekit::interp {

/// Element storage that comes zeroed from calloc, which takes large arrays
/// straight from fresh (zero) pages of the kernel rather than writing zeros
/// over them: value-initializing an element does nothing. Only ArrayData's
/// constructor grows these vectors, so every element is zero or written.
template <typename T> struct ZeroedAllocator {
  using value_type = T;
  ZeroedAllocator() = default;
  template <typename U> ZeroedAllocator(const ZeroedAllocator<U> &) {}
  T *allocate(size_t count) {
    void *memory = std::calloc(count ? count : 1, sizeof(T));
    if (!memory)
      llvm::report_bad_alloc_error("tile or tensor elements");
    return static_cast<T *>(memory);
  }
  void deallocate(T *memory, size_t) { std::free(memory); }
  template <typename U> void construct(U *) {}
  template <typename U, typename... Args>
  void construct(U *at, Args &&...args) {
    ::new (static_cast<void *>(at)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(ZeroedAllocator, ZeroedAllocator) { return true; }
};
template <typename T> using ElementVector = std::vector<T, ZeroedAllocator<T>>;

/// Elements of one kind, row-major. Float kinds use `floats`, integer kinds
/// `ints`; the other vector stays empty.
struct ArrayData {
  ArrayData(ElementKind kind, size_t size);

  ElementKind kind;
  ElementVector<float> floats;
  ElementVector<int64_t> ints;

  size_t size() const {
    return isFloatKind(kind) ? floats.size() : ints.size();
  }
  /// Element `i` as a double (slow path, for summaries and conversions).
  double get(size_t i) const {
    return isFloatKind(kind) ? floats[i] : static_cast<double>(ints[i]);
  }
  /// Stores `value` rounded or wrapped to the kind.
  void set(size_t i, double value);
  /// Element `i` as a scalar of the kind, exactly.
  struct Scalar scalarAt(size_t i) const;
  /// Stores a scalar converted to the kind (integers stay exact).
  void setScalar(size_t i, const struct Scalar &value);
  /// Adds element `j` of `from` to element `i`, the sum rounded or wrapped
  /// to the kind once: an atomic add into GM (pto.tile.store atomic_add,
  /// the AscendC transfers' atomic_add). Integers add exactly.
  void accumulate(size_t i, const ArrayData &from, size_t j);
  void fill(double value);
  void fill(const struct Scalar &value);
  /// Stores `start + offset` as an index sequence holds it (pto.tile.iota,
  /// Ascend C's CreateVecIndex): an integer wraps, a float is the exact sum
  /// rounded to f32 and then to the kind.
  void setIndex(size_t i, const struct Scalar &start, int64_t offset);
};

/// A scalar: floats in `f` (exact in the kind), integers in `i` (wrapped).
struct Scalar {
  ElementKind kind = ElementKind::Index;
  double f = 0;
  int64_t i = 0;

  static Scalar ofInt(ElementKind kind, int64_t value);
  static Scalar ofFloat(ElementKind kind, double value);
  double asDouble() const { return isFloatKind(kind) ? f : double(i); }
};

/// An on-chip tile: its static type, its runtime valid shape, its elements.
struct TileValue {
  pto::TileType type;
  llvm::SmallVector<int64_t, 2> valid;
  std::shared_ptr<ArrayData> data;
  /// The on-chip buffer holding the tile, as the trace names it: one static
  /// buffer per allocating op and work item (a loop rewrites the same
  /// buffer), kept by ops that update a tile in place (accumulation,
  /// metadata changes); addressed tiles are named by space and address.
  uint64_t buffer = 0;
  /// Under --undefined=check, one byte per element, non-zero where the
  /// element is undefined; null when every element is defined.
  std::shared_ptr<std::vector<uint8_t>> undefined;
  /// Under --undefined=check, which write of an addressed tile this value
  /// is: its bytes in the pool are its own only while they carry this id.
  uint64_t writeId = 0;

  llvm::ArrayRef<int64_t> shape() const { return type.getShape(); }
  ElementKind kind() const { return data->kind; }
  bool isFullyValid() const { return llvm::ArrayRef(valid) == shape(); }
};

/// The storage of a GM tensor.
struct TensorStorage {
  explicit TensorStorage(ElementKind kind, size_t size);
  ArrayData data;
  /// The GM buffer's name in the trace.
  uint64_t buffer;
};

/// A fresh buffer name for the trace.
uint64_t newBufferId();

/// A GM tensor: a buffer with a concrete shape and a valid shape.
struct TensorValue {
  std::shared_ptr<TensorStorage> storage;
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<int64_t, 4> valid;
  /// Where a view (AscendC's global_tensor.subindex) starts in the
  /// storage, in elements; 0 for a whole tensor.
  int64_t offset = 0;

  ElementKind kind() const { return storage->data.kind; }
  int64_t numElements() const;
};

using RuntimeValue = std::variant<Scalar, TileValue, TensorValue>;

/// The element kind of a shaped or scalar type the executor has checked
/// (see Interpreter::checkBlockTypes).
ElementKind kindOf(mlir::Type type);

/// Formats a list of extents as "[a, b]".
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Number of elements of a shape.
int64_t product(llvm::ArrayRef<int64_t> shape);

/// A fresh zero-filled tile of `type`, fully valid.
TileValue makeTile(pto::TileType type, ElementKind kind);

/// A fresh zero-filled GM tensor.
TensorValue makeTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

} // namespace tilekit::interp

#endif // TILEKIT_INTERP_VALUES_H
