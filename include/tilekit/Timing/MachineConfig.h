//===- MachineConfig.h - Figures of the modelled machine ---------*- C++
//-*-===//
//
// Every latency, size and bandwidth the timing model uses, parsed once from
// a JSON file (configs/*.json). Unknown keys are errors; each section may
// carry a "source" string citing where its figures come from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TIMING_MACHINECONFIG_H
#define TILEKIT_TIMING_MACHINECONFIG_H

#include "tilekit/Trace/Trace.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tilekit::timing {

/// Cycles of a vector op: slope * elements + bias.
struct VectorCost {
  double slope = 0;
  double bias = 0;
};

/// Cycles of an op that walks a tile row by row (a row or column
/// reduction, an expansion): rows * (perRow + perColumn * columns) + bias
/// + biasPerColumn * columns.
struct RowCost {
  double perRow = 0, perColumn = 0, bias = 0, biasPerColumn = 0;
};

/// What a vector op costs, and where the figure comes from: per repeat,
/// the instruction's figures (head + per_repeat * repeats + tail, a repeat
/// being `repeat_bytes` of the op's elements, so every element type is
/// covered through its size), or composed, the sum of other ops' costs (an
/// op the machine runs as a sequence of instructions); refined, for the
/// element types measured, by a fitted line (slope * elements + bias) or
/// a per-row fit (RowCost, the rows counted along `axis`).
struct VectorOpCost {
  llvm::StringMap<VectorCost> byType;
  llvm::StringMap<RowCost> byTypeRows;
  /// `axis` "col" in the config: a column op, its rows the elements over
  /// the record's columns; else ("row") the record's first dimension.
  bool columnAxis = false;
  std::optional<double> head, perRepeat, tail;
  std::vector<std::string> composedOf;
  std::string source;
};

struct MachineConfig {
  std::string name;
  double clockGHz = 1;
  unsigned cubeCores = 1;
  unsigned vectorCores = 2;
  /// Bytes of each on-chip space (index by trace::Space; GM unused).
  std::array<uint64_t, trace::kNumSpaces> capacity{};
  /// Bytes per cycle of each path on one core.
  std::array<double, trace::kNumDmaPaths> pathBytesPerCycle{};
  /// Cycles from a DMA's issue to its first data; transfers pipeline, so
  /// the pipe is busy only for bytes / bandwidth.
  uint64_t dmaLatency = 0;
  /// Cycles to launch a kernel, before any core starts.
  uint64_t launchCycles = 0;
  /// DMAs a core may have in flight at once.
  unsigned dmaMaxOutstanding = 8;
  /// Bytes per cycle of HBM, shared by all cores.
  double hbmBytesPerCycle = 1;
  /// An optional L2 in front of HBM: its size and bandwidth.
  std::optional<uint64_t> l2Bytes;
  double l2BytesPerCycle = 0;
  /// Cube: fixed cycles per matmul, bytes of K per step, cycles per
  /// 16 x k0 x 16 step by element type, weight-buffer slots.
  uint64_t cubeHeadCycles = 0;
  unsigned cubeK0Bytes = 32;
  llvm::StringMap<double> cubeCyclesPerStep;
  unsigned cubeWeightSlots = 2;
  /// Vector: per op kind and element type, else the default (given for
  /// 4-byte elements and scaled by element size).
  llvm::StringMap<VectorOpCost> vectorOps;
  VectorCost vectorDefault;
  /// Bytes one vector repeat processes (the per-repeat form's unit).
  unsigned vectorRepeatBytes = 256;
  uint64_t scalarCycles = 1;
  /// Cross-core transfers go through a GM workspace: the push stores
  /// (L0C -> GM or UB -> GM), the pop loads (GM -> UB or GM -> L1).
  /// Otherwise they take the direct path and the pop costs nothing more.
  bool crossCoreViaGm = false;

  /// The cycles of a DMA of `bytes` on `path` at `bytesPerCycle`.
  uint64_t dmaCycles(uint64_t bytes, double bytesPerCycle) const;
  /// The cycles of an M x K x N matmul of `dtype` elements of `size` bytes.
  uint64_t cubeCycles(uint64_t m, uint64_t k, uint64_t n, llvm::StringRef dtype,
                      unsigned size) const;
  /// Whether the config has a figure for vector op `op` on `dtype` (its
  /// own, or through the ops it is composed of).
  bool hasVectorCost(llvm::StringRef op, llvm::StringRef dtype) const;
  /// The cycles of vector op `op` over `elements` of `dtype`; `shape` is
  /// the record's (the result's valid rows and columns, for row fits).
  uint64_t vectorCycles(llvm::StringRef op, llvm::StringRef dtype,
                        unsigned size, uint64_t elements,
                        std::array<uint64_t, 2> shape = {0, 0}) const;
};

llvm::Expected<MachineConfig> parseMachineConfig(llvm::StringRef json,
                                                 llvm::StringRef name);
llvm::Expected<MachineConfig> loadMachineConfig(llvm::StringRef path);

} // namespace tilekit::timing

#endif // TILEKIT_TIMING_MACHINECONFIG_H
