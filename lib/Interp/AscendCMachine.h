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
#include "tilekit/Dialect/AscendC/Transforms/HappensBefore.h"

#include "tilekit/Interp/Values.h"

#include "mlir/IR/Diagnostics.h"

#include <vector>

namespace tilekit::interp {

/// The on-chip state of one invocation of an AscendC kernel.
struct AscendCMachine {
  explicit AscendCMachine(bool checkRaces)
      : checkRaces(checkRaces),
        model([this](mlir::Operation *later,
                     const ascendc::HappensBefore::Access &earlier,
                     const ascendc::HappensBefore::Access &now) {
          raced = true;
          mlir::InFlightDiagnostic diag =
              later->emitError()
              << ascendc::HappensBefore::describeRace(earlier, now)
              << " (a race)";
          diag.attachNote(earlier.payload.op->getLoc()) << "the unordered access";
        }) {}

  /// Bytes [address, address + bytes) of `buffer`, grown as needed.
  uint8_t *bytes(ascendc::Buffer buffer, int64_t address, int64_t bytes) {
    std::vector<uint8_t> &pool = pools[static_cast<unsigned>(buffer)];
    if (pool.size() < static_cast<size_t>(address + bytes))
      pool.resize(address + bytes, 0);
    return pool.data() + address;
  }

  bool checkRaces;
  bool raced = false;
  llvm::DenseMap<unsigned, std::vector<uint8_t>> pools;
  llvm::DenseMap<unsigned, int64_t> nextFree;
  llvm::DenseMap<mlir::Operation *, int64_t> placeholders;
  /// The core each kernel without core groups runs on.
  llvm::DenseMap<mlir::Operation *, unsigned> kernelCores;
  /// The tensor of each ascendc.workspace op, shared by the cores.
  llvm::DenseMap<mlir::Operation *, TensorValue> workspaces;
  ascendc::HappensBefore model;
};

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_ASCENDCMACHINE_H
