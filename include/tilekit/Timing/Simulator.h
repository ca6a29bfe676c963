//===- Simulator.h - The pipe-level timing model -----------------*- C++
//-*-===//
//
// Reads trace records only. Each AI core is a cube core (MTE1, MTE2, MTE3,
// M, FIX, S) and two vector cores (MTE2, MTE3, V, S each), every pipe an
// in-order queue; an op starts when its pipe is free and its dependencies
// allow. Records arrive one at a time (from the executor, or streamed from
// a file) and are timed a work item at a time, so memory is bounded by the
// open work items, not the trace. See docs/timing-model.md for the rules.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TIMING_SIMULATOR_H
#define TILEKIT_TIMING_SIMULATOR_H

#include "tilekit/Timing/MachineConfig.h"
#include "tilekit/Trace/Trace.h"

#include "llvm/Support/Error.h"

#include <array>
#include <map>
#include <memory>
#include <vector>

namespace tilekit::timing {

struct SimOptions {
  /// Cores to spread work items over; 0 takes the config's AIC count.
  unsigned cores = 0;
  /// Keep one timeline event per timed record.
  bool timeline = false;
};

/// The cores of an AI core: the cube core and vector cores 0 and 1.
constexpr unsigned kNumSubcores = 3;
llvm::StringRef getSubcoreName(unsigned subcore);

/// One record's place in time.
struct TimelineEvent {
  /// The record's index in the trace.
  uint64_t record;
  uint32_t item;
  uint32_t loc;
  uint16_t core;
  uint8_t subcore;
  /// The pipe it ran on.
  uint8_t pipe;
  uint8_t kind;
  /// DMA/PUSH: the path; COMPUTE: unused.
  uint8_t path;
  /// COMPUTE: the op's name index.
  uint16_t op;
  uint64_t start, end;
};

struct CoreStats {
  /// Busy cycles per core of the AI core and pipe.
  std::array<std::array<uint64_t, trace::kNumPipes>, kNumSubcores> busy{};
  uint64_t finish = 0;
  unsigned items = 0;
};

/// What a pipe waited on before it could run an op.
enum class WaitReason : uint8_t {
  /// An op whose result it reads (dataflow; PTO schedules only).
  Data,
  /// An earlier work item's GM access to the same region.
  GmOrder,
  /// Room in the buffers (two items sharing a core; a buffer's versions).
  Capacity,
  /// A set_flag (wait_flag), a cross-core flag, a buffer id's release.
  Flag,
  CrossCoreFlag,
  BufferId,
  /// A barrier's other pipes.
  Barrier,
  /// A free slot of a cross-core queue, or its data (a pop).
  PipeSlot,
  /// A free L0B weight slot.
  WeightSlot,
  /// A free place among the DMAs in flight.
  DmaQueue,
};
constexpr unsigned kNumWaitReasons = 10;
llvm::StringRef getName(WaitReason reason);

/// Where the cycles of one source line went, per pipe: busy running its
/// ops, and stalled (the pipe idle while its op waited), with what the
/// waits were on and the source locations (trace location indices) of the
/// ops or syncs they waited for.
struct LineCost {
  std::array<uint64_t, trace::kNumPipes> busy{};
  std::array<uint64_t, trace::kNumPipes> stalled{};
  std::array<uint64_t, kNumWaitReasons> waits{};
  std::map<uint32_t, uint64_t> waitedFor;
  uint64_t total() const;
  uint64_t busyTotal() const;
  uint64_t stalledTotal() const;
};

/// The kinds of synchronization a trace has: flags between the pipes of a
/// core, cross-core flags, buffer ids (C310) and barriers.
enum class SyncKind : uint8_t { Flag, CrossCoreFlag, BufferId, Barrier };
constexpr unsigned kNumSyncKinds = 4;
llvm::StringRef getName(SyncKind kind);

/// What synchronization cost: per kind, how many waits (or barriers) ran
/// and the cycles they held pipes idle.
struct SyncCost {
  std::array<uint64_t, kNumSyncKinds> count{};
  std::array<uint64_t, kNumSyncKinds> cycles{};
  uint64_t totalCycles() const;
};

struct SimResult {
  uint64_t cycles = 0;
  double seconds = 0;
  /// The launch, the slowest core's finish (after the launch), and the
  /// shared-memory bounds.
  uint64_t launchCycles = 0;
  uint64_t coreCycles = 0, hbmCycles = 0, l2Cycles = 0;
  std::vector<CoreStats> cores;
  std::array<uint64_t, trace::kNumDmaPaths> pathBytes{};
  uint64_t gmBytes = 0, hbmBytes = 0;
  uint64_t cubeMacs = 0, vectorElements = 0;
  unsigned activeCores = 0;
  /// AI cores the machine (or --cores) offers.
  unsigned availableCores = 0;
  /// Work items that ran on one vector core, and the vector cores they
  /// took (two per AI core).
  uint64_t vectorItems = 0;
  unsigned vectorCoresUsed = 0;
  SyncCost sync;
  /// Waiting cycles by what they waited on, over every line and pipe.
  std::array<uint64_t, kNumWaitReasons> waits{};
  /// `sim --arch`: the cycles of the PTO program's ideal schedule, beside
  /// the compiled kernel's (0: not timed).
  uint64_t idealCycles = 0;
  uint64_t records = 0;
  /// Work items that waited for an earlier item's GM writes or reads.
  uint64_t gmDependencies = 0;
  /// Cost per source location index (0: records without a location).
  std::vector<LineCost> lines;
  /// Vector ops (op/dtype) timed with the default cost: the config has no
  /// figure for them.
  std::vector<std::string> defaultCostOps;
  std::vector<TimelineEvent> timeline;
};

/// The timing model fed one record at a time, in trace order.
class Simulator {
public:
  /// `tables` are the names and locations the records refer to; they may
  /// grow while records arrive.
  Simulator(const trace::TraceTables &tables, const MachineConfig &config,
            const SimOptions &options = {});
  ~Simulator();
  void add(const trace::Record &record);
  /// Times what is left and returns the result. A trace that cannot make
  /// progress (a wait with no matching set, a pop without its push, a
  /// barrier on an unbound tag, a weight slot that never frees, a work item
  /// larger than the core) is an error naming the record.
  llvm::Expected<SimResult> finish();

private:
  class Impl;
  std::unique_ptr<Impl> impl;
};

/// Sends the executor's records to a simulator (and optionally a trace
/// file) as they come.
/// Buffers are renumbered in order of first appearance on the way in: a
/// trace's timing depends on which records share a buffer, not on how a
/// producer numbered them, so the interpreter's and a compiled producer's
/// traces come out the same.
class SimulatingSink : public trace::TraceSink {
public:
  SimulatingSink(const MachineConfig &config, const SimOptions &options)
      : simulator(tables, config, options) {}
  void emit(const trace::Record &record) override;
  trace::TraceTables &getTables() override { return tables; }
  Simulator &getSimulator() { return simulator; }
  /// Also write every record to `writer`.
  void tee(trace::TraceSink *writer) { copy = writer; }

private:
  trace::TraceTables tables;
  Simulator simulator;
  trace::TraceSink *copy = nullptr;
  llvm::DenseMap<uint64_t, uint64_t> bufferIds;
};

/// Simulates a whole trace.
llvm::Expected<SimResult> simulate(const trace::Trace &trace,
                                   const MachineConfig &config,
                                   const SimOptions &options = {});
/// Simulates a trace file as it is read.
llvm::Expected<SimResult> simulate(trace::TraceReader &reader,
                                   const MachineConfig &config,
                                   const SimOptions &options = {});

/// Prints the summary: time, per-pipe busy, bandwidth per path,
/// utilization, and what bounds the kernel.
void printReport(llvm::raw_ostream &os, const SimResult &result,
                 const MachineConfig &config);
/// The same as JSON; with `tables`, the per-line costs too.
void printJsonReport(llvm::raw_ostream &os, const SimResult &result,
                     const MachineConfig &config,
                     const trace::TraceTables *tables = nullptr);
/// Cycles per source line and pipe, busiest first, each line with its text
/// when the file can be read.
void printLineReport(llvm::raw_ostream &os, const SimResult &result,
                     const trace::TraceTables &tables);
/// The kernel on the machine's roofline: the cube's peak (f16, every AI
/// core) and HBM's bandwidth bound what a kernel of its arithmetic
/// intensity (cube FLOPs per HBM byte) can reach.
struct Roofline {
  double peakFlops = 0, hbmBytesPerSecond = 0;
  double achievedFlops = 0, intensity = 0, attainableFlops = 0;
  bool hasCubeWork() const { return achievedFlops > 0; }
};
Roofline computeRoofline(const SimResult &result, const MachineConfig &config);

/// What pipes waited on, most cycles first (none that never happened).
std::vector<std::pair<WaitReason, uint64_t>>
rankWaits(const std::array<uint64_t, kNumWaitReasons> &waits);
/// The source locations a line waited for most, with the cycles.
std::vector<std::pair<uint32_t, uint64_t>> rankWaitedFor(const LineCost &cost,
                                                         size_t limit);

/// Where the work items ran: "16 of 24 AI cores", or "48 of 48 vector
/// cores" when every item took one vector core.
std::string describePlacement(const SimResult &result);
/// What bounds the kernel: "compute-bound (cube)", "memory-bound (HBM)",
/// "launch-bound", ...; the launch itself does not count as a pipe's work.
std::string classifyBound(const SimResult &result);

/// A Chrome trace-event timeline (opens in Perfetto): the launch, then a
/// process per AI core with a thread per core and pipe.
llvm::Error writeTimeline(llvm::StringRef path, const SimResult &result,
                          const trace::TraceTables &tables,
                          const MachineConfig &config);

/// The report as one self-contained HTML page (no network when viewed):
/// the summary, each core's pipes busy over time (needs a result simulated
/// with SimOptions::timeline), bytes per path, and each source file with
/// its cycles per line and pipe. Written whole or not at all.
llvm::Error writeHtmlReport(llvm::StringRef path, const SimResult &result,
                            const trace::TraceTables &tables,
                            const MachineConfig &config);

} // namespace tilekit::timing

#endif // TILEKIT_TIMING_SIMULATOR_H
