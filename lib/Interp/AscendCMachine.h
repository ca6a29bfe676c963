//===- AscendCMachine.h - The on-chip state of an AscendC kernel -*- C++
//-*-===//
//
// The byte pools of the buffers, the placeholders' addresses and the
// happens-before model of one invocation of an AscendC kernel, shared by
// the cores that run it (MixedKernel.h). Internal to the executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_ASCENDCMACHINE_H
#define TILEKIT_LIB_INTERP_ASCENDCMACHINE_H

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/CoreGroups.h"
#include "tilekit/Dialect/AscendC/Transforms/HappensBefore.h"

#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Interp/Values.h"
#include "tilekit/Trace/Trace.h"

#include "mlir/IR/Diagnostics.h"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

namespace tilekit::interp {

/// The on-chip state of one invocation of an AscendC kernel.
struct AscendCMachine {
  AscendCMachine(bool checkRaces, UndefinedData undefined)
      : checkRaces(checkRaces), undefined(undefined),
        model([this](mlir::Operation *later,
                     const ascendc::HappensBefore::Access &earlier,
                     const ascendc::HappensBefore::Access &now) {
          raced = true;
          mlir::InFlightDiagnostic diag =
              later->emitError()
              << ascendc::HappensBefore::describeRace(earlier, now)
              << " (a race)";
          diag.attachNote(earlier.payload.op->getLoc())
              << "the unordered access";
        }) {}

  /// Bytes [address, address + bytes) of a pool (Local::pool), grown as
  /// needed: bytes no op wrote read as 0, or 0xFF under --undefined=nan.
  uint8_t *bytes(unsigned poolId, int64_t address, int64_t bytes) {
    std::vector<uint8_t> &pool = pools[poolId];
    if (pool.size() < static_cast<size_t>(address + bytes))
      pool.resize(address + bytes, undefined == UndefinedData::NaN ? 0xFF : 0);
    return pool.data() + address;
  }

  /// Under --undefined=check, one flag per byte of a pool from `address`
  /// on, non-zero while no op has written the byte.
  uint8_t *unwrittenFlags(unsigned pool, int64_t address, int64_t bytes) {
    std::vector<uint8_t> &flags = unwritten[pool];
    if (flags.size() < static_cast<size_t>(address + bytes))
      flags.resize(address + bytes, 1);
    return flags.data() + address;
  }

  /// Whether any of the `bytes` bytes at `address` is unwritten.
  bool isUnwritten(unsigned pool, int64_t address, int64_t bytes) {
    const uint8_t *flags = unwrittenFlags(pool, address, bytes);
    return std::any_of(flags, flags + bytes, [](uint8_t flag) { return flag; });
  }
  /// Marks the `bytes` bytes at `address` unwritten or written.
  void setUnwritten(unsigned pool, int64_t address, int64_t bytes,
                    bool unwritten) {
    std::fill_n(unwrittenFlags(pool, address, bytes), bytes, unwritten ? 1 : 0);
  }

  bool checking() const { return undefined == UndefinedData::Check; }

  bool checkRaces;
  UndefinedData undefined;
  bool raced = false;
  llvm::DenseMap<unsigned, std::vector<uint8_t>> pools;
  /// The flags unwrittenFlags hands out, per buffer.
  llvm::DenseMap<unsigned, std::vector<uint8_t>> unwritten;
  /// Under --undefined=check, one flag per element of each workspace's
  /// storage, non-zero while no op has written the element (the machine
  /// does not clear a workspace); null for GM storage that is no workspace.
  llvm::DenseMap<const TensorStorage *, std::shared_ptr<std::vector<uint8_t>>>
      unwrittenWorkspace;
  llvm::DenseMap<unsigned, int64_t> nextFree;
  llvm::DenseMap<mlir::Operation *, int64_t> placeholders;
  /// The core each kernel without core groups runs on.
  llvm::DenseMap<mlir::Operation *, unsigned> kernelCores;
  /// Whether each kernel runs its lanes on two vector cores (1:2), for
  /// the trace.
  llvm::DenseMap<mlir::Operation *, bool> twoVectorCores;
  /// A mixed kernel's trace records per core (the cube, vector cores 0 and
  /// 1) until it returns, then merged into one order that depends on their
  /// contents only (MergeOrder.h), as a compiled producer merges them.
  std::array<std::vector<trace::Record>, 3> traceStreams;
  /// The tensor of each ascendc.workspace op, shared by the cores (a
  /// launch kernel's regions live in the Interpreter instead, shared by
  /// its blocks and its host's other launches).
  llvm::DenseMap<mlir::Operation *, WorkspaceRegion> workspaces;
  ascendc::HappensBefore model;
};

class ExecContext;

/// The AscendC machine of the invocation `context` runs (made on first use).
AscendCMachine &machineOf(ExecContext &context);

/// The core an op runs on (0 the cube, 1 the vector core): its group's,
/// else the core running the mixed kernel, else the one its kernel runs on
/// (a kernel without groups runs on one core).
unsigned coreOf(AscendCMachine &machine, mlir::Operation *op);

/// A local tensor operand: where its elements are. `owner` is the vector
/// core whose UB holds it (getTensorOwner: a lane's UB tensor its lane's,
/// every other tensor 0).
struct Local {
  ascendc::Buffer buffer;
  int64_t address;
  ElementKind kind;
  int64_t elements;
  int64_t elementBytes;
  unsigned owner = 0;

  /// The byte pool of the machine it is in: its buffer, per lane.
  unsigned pool() const { return ascendc::getStoragePool(buffer, owner); }
};

/// A local tensor at run time: its pool (buffer and owner) and byte
/// address in one index (the pool above bit 40), so that it flows through
/// scf.if and loop results as any value does, whatever op defined it.
constexpr int64_t kBufferShift = 40;

inline Scalar localHandle(ascendc::Buffer buffer, int64_t address,
                          unsigned owner = 0) {
  return Scalar::ofInt(
      ElementKind::Index,
      (static_cast<int64_t>(ascendc::getStoragePool(buffer, owner))
       << kBufferShift) |
          address);
}

Local localOf(ExecContext &context, mlir::Value tensor);

/// After `op` ran: the trace records of what the machine does for it
/// (AscendCTrace.cpp). An op on a pipe the trace cannot describe is an
/// error, so a kernel is never timed without some of its work.
mlir::LogicalResult emitAscendCTraceRecords(ExecContext &context,
                                            mlir::Operation *op);
/// Sends a mixed kernel's trace streams, merged, to the trace.
void flushAscendCTraceStreams(Interpreter &interpreter,
                              AscendCMachine &machine);

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_ASCENDCMACHINE_H
