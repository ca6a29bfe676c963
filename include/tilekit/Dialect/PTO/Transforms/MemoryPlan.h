//===- MemoryPlan.h - Addresses for the tiles of a PTO function -*- C++ -*-===//
//
// Memory planning: every tile of an in-core function gets a byte offset in
// its buffer. Tiles that must share storage (a loop-carried tile and the
// values it flows through, a result that updates or views an operand) form
// one storage class; classes whose lifetimes do not overlap share bytes.
// The plan is an analysis (`check` reports its footprints without changing
// the kernel); `pto-plan-memory` applies it to the tile types.
//
//===----------------------------------------------------------------------===//
#ifndef TILEKIT_DIALECT_PTO_TRANSFORMS_MEMORYPLAN_H
#define TILEKIT_DIALECT_PTO_TRANSFORMS_MEMORYPLAN_H

#include "tilekit/Machine/Machine.h"

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <array>

namespace tilekit::pto {

/// The bytes each buffer holds; the machine description's by default.
struct BufferCapacities {
  std::array<int64_t, machine::kNumBuffers> bytes;
  BufferCapacities();
  int64_t operator[](machine::Buffer buffer) const {
    return bytes[static_cast<unsigned>(buffer)];
  }
};

/// One buffer of a planned function.
struct BufferFootprint {
  machine::Buffer buffer;
  int64_t capacity = 0;
  /// The end of the highest planned range: what the buffer must hold.
  int64_t highWater = 0;
  /// The most bytes live at one point, and the tiles live there (one per
  /// storage class, in program order).
  int64_t peakLive = 0;
  llvm::SmallVector<mlir::Value> liveAtPeak;
  bool fits() const { return highWater <= capacity; }
};

struct PlanOptions {
  /// Double-buffer the loads of loops when the plan still fits: each such
  /// scf.for is unrolled by two and each half's loads form a buffer set
  /// (pto.buffer_set) that never shares storage with the other half's, so
  /// a load need not wait for the other half's readers.
  bool doubleBuffer = false;
};

struct MemoryPlan {
  /// The address of every tile value of the function.
  llvm::DenseMap<mlir::Value, int64_t> addresses;
  /// The buffers the function uses, in machine order.
  llvm::SmallVector<BufferFootprint> footprints;
  /// Bytes a storage class reserves (its size rounded up to the buffer's
  /// alignment), by the value that names the class.
  int64_t reservedBytes(mlir::Value value) const;
  llvm::DenseMap<mlir::Value, int64_t> reserved;
  /// Copies inserted so that tiles tied to one storage are never needed
  /// at the same time (a loop that carries `m_new` while still reading
  /// `m_old`).
  unsigned copies = 0;
  /// Loops unrolled by two for double buffering.
  unsigned doubleBufferedLoops = 0;
};

/// Whether `func` is planned: an in-core, cube or vector function (or one
/// without a kind) with a body, whose tile arguments and results, if any,
/// already carry addresses (a caller's storage is not this function's to
/// plan).
bool isPlannable(mlir::FunctionOpInterface func);

/// Plans `func`. Where tiles that must share storage would be live at the
/// same time, a `pto.tile.move` copy is inserted where they are tied (before
/// the yield, the loop or the in-place op) when their buffer allows one (UB,
/// L1). Fails, with an error at the op concerned, when it does not, when
/// tied tiles sit in different buffers or at different given addresses, or
/// when a given address is misaligned or runs past its buffer. A plan that
/// does not fit is returned (see BufferFootprint::fits and reportOverflow).
mlir::FailureOr<MemoryPlan>
computeMemoryPlan(mlir::FunctionOpInterface func,
                  const BufferCapacities &capacities,
                  const PlanOptions &options = {});

/// Emits, for each buffer of `plan` that does not fit, an error at `func`
/// naming the buffer, the capacity, the need and the peak, with a note at
/// each tile live at the peak. Fails when any buffer does not fit.
mlir::LogicalResult reportOverflow(mlir::FunctionOpInterface func,
                                   const MemoryPlan &plan);

/// Emits, for each buffer of `plan` that fits but takes more than half its
/// capacity, a warning at `func` (two work items share a core
/// double-buffered, so this one will run alone and lose the overlap: the
/// timing model's capacity gate), with a note at each tile live at the
/// peak.
void warnHalfBuffers(mlir::FunctionOpInterface func, const MemoryPlan &plan);

/// Rewrites the tile types of `func` with the plan's addresses.
void applyMemoryPlan(mlir::FunctionOpInterface func, const MemoryPlan &plan);

} // namespace tilekit::pto

#endif // TILEKIT_DIALECT_PTO_TRANSFORMS_MEMORYPLAN_H
