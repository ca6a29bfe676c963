//===- Simulator.h - The pipe-level timing model -----------------*- C++
//-*-===//
//
// Reads trace records only. Each AI core runs its pipes (MTE1, MTE2, MTE3,
// M, V, FIX, S) as in-order queues; an op starts when its pipe is free and
// its dataflow dependencies allow; work items are spread over the cores.
// See docs/timing-model.md for the rules.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TIMING_SIMULATOR_H
#define TILEKIT_TIMING_SIMULATOR_H

#include "tilekit/Timing/MachineConfig.h"
#include "tilekit/Trace/Trace.h"

#include "llvm/Support/Error.h"

#include <array>
#include <vector>

namespace tilekit::timing {

struct SimOptions {
  /// Cores to spread work items over; 0 takes the config's AIC count.
  unsigned cores = 0;
  /// Keep one timeline event per record.
  bool timeline = false;
};

/// One record's place in time.
struct TimelineEvent {
  uint32_t record;
  uint32_t item;
  uint16_t core;
  /// A pipe, or kNumPipes + path for DMA lanes.
  uint16_t lane;
  uint64_t start, end;
};

struct CoreStats {
  std::array<uint64_t, trace::kNumPipes> busy{};
  uint64_t finish = 0;
  unsigned items = 0;
};

struct SimResult {
  uint64_t cycles = 0;
  double seconds = 0;
  /// The slowest core's finish, and the shared-memory bounds.
  uint64_t coreCycles = 0, hbmCycles = 0, l2Cycles = 0;
  std::vector<CoreStats> cores;
  std::array<uint64_t, trace::kNumDmaPaths> pathBytes{};
  uint64_t gmBytes = 0, hbmBytes = 0;
  uint64_t cubeMacs = 0, vectorElements = 0;
  unsigned activeCores = 0;
  std::vector<TimelineEvent> timeline;
};

/// Simulates `trace` on `config`. A trace that cannot make progress (a
/// wait with no matching set, a barrier on an unbound tag, a weight slot
/// that never frees, a work item larger than the core) is an error naming
/// the record.
llvm::Expected<SimResult> simulate(const trace::Trace &trace,
                                   const MachineConfig &config,
                                   const SimOptions &options = {});

/// Prints the summary: time, per-pipe busy, bandwidth per path,
/// utilization, and what bounds the kernel.
void printReport(llvm::raw_ostream &os, const SimResult &result,
                 const MachineConfig &config);
/// The same as JSON.
void printJsonReport(llvm::raw_ostream &os, const SimResult &result,
                     const MachineConfig &config);
/// What bounds the kernel: "compute-bound (cube)", "memory-bound (HBM)", ...
std::string classifyBound(const SimResult &result);

/// A Chrome trace-event timeline (opens in Perfetto): a process per core,
/// a thread per pipe and DMA path.
llvm::Error writeTimeline(llvm::StringRef path, const SimResult &result,
                          const trace::Trace &trace,
                          const MachineConfig &config);

} // namespace tilekit::timing

#endif // TILEKIT_TIMING_SIMULATOR_H
