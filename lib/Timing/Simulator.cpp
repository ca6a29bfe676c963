//===- Simulator.cpp - The pipe-level timing model ------------------------===//
//
// One pass over the records in trace order. Each record becomes an op on a
// pipe of the core its work item runs on, starting at the latest of:
//  * its pipe being free (pipes are in-order queues);
//  * its dataflow dependencies: each buffer keeps its set of current
//    writers; a reader waits for all of them (for their issue when reader and
//    writer are both cube ops, which pipeline in the systolic array, else for
//    their completion); a writer replaces the set. An accumulating matmul
//    skips the read edge of its accumulator, waiting only for a non-matmul
//    initializer, and joins the writer set, so a later reader waits for
//    every accumulation;
//  * its work item's capacity gate: two work items share a core only when
//    each fits half of every buffer; a larger one waits for the previous;
//  * the DMA throttle (at most N DMAs in flight) and, for weight loads into
//    L0B, a free weight slot (the matmul `slots` loads back has finished);
//  * explicit flags (set/wait between pipes) and pipe barriers.
// An async DMA completes at issue for its readers; its MEMORY_BAR, paired by
// (tag_id, tag_slot), completes when the data has arrived.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Timing/Simulator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>
#include <deque>
#include <map>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::timing;
using namespace tilekit::trace;

namespace {

struct Writer {
  uint64_t issue, done;
  bool cube, matmul;
};

struct CoreState {
  /// When each pipe can take its next op, and when its last op completes
  /// (a DMA frees its pipe after the transfer but completes after the
  /// latency too).
  std::array<uint64_t, kNumPipes> pipeFree{};
  std::array<uint64_t, kNumPipes> pipeDone{};
  std::map<std::tuple<unsigned, unsigned, unsigned>, std::deque<uint64_t>>
      flags;
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> tags;
  std::deque<uint64_t> dmaInFlight;
  std::vector<uint64_t> matmulDone;
  uint64_t weightLoads = 0;
  /// Completion of the work items run so far, in order.
  std::vector<uint64_t> itemDone;
};

struct ItemInfo {
  unsigned core = 0;
  /// The largest share of a buffer the item occupies (footprint/capacity).
  double share = 0;
  /// Bytes of its distinct buffers per space.
  std::array<uint64_t, kNumSpaces> footprint{};
  /// Superseded versions still waiting for their readers: (release, bytes)
  /// per space.
  std::array<SmallVector<std::pair<uint64_t, uint64_t>, 4>, kNumSpaces>
      superseded;
  uint64_t gate = 0;
  uint64_t done = 0;
  bool begun = false;
};

/// The current version of an on-chip buffer: its size and when its readers
/// so far are done.
struct Version {
  uint64_t bytes = 0;
  uint64_t readsDone = 0;
  Space space = Space::GM;
};

class Simulator {
public:
  Simulator(const Trace &trace, const MachineConfig &config,
            const SimOptions &options)
      : trace(trace), config(config), options(options) {}

  Expected<SimResult> run();

private:
  Error fail(size_t n, const Twine &why) const;
  Error prepareItems();
  uint64_t versionGate(const Record &record, ItemInfo &item, uint64_t earliest,
                       bool accumulate);
  uint64_t dependencies(const Record &record, bool cube, bool accumulate);
  void recordWrites(const Record &record, uint64_t issue, uint64_t done,
                    bool cube, bool matmul, bool accumulate);
  Expected<uint64_t> duration(size_t n, const Record &record, CoreState &core,
                              uint64_t &earliest);
  void account(size_t n, const Record &record, unsigned core, unsigned lane,
               uint64_t start, uint64_t end);

  const Trace &trace;
  const MachineConfig &config;
  const SimOptions &options;
  SimResult result;
  std::vector<CoreState> cores;
  DenseMap<uint32_t, ItemInfo> items;
  DenseMap<uint64_t, SmallVector<Writer, 2>> writers;
  DenseMap<uint64_t, Version> versions;
  /// The on-chip buffers each open work item has written.
  DenseMap<uint32_t, SmallVector<uint64_t, 16>> itemBuffers;
  double gmBytesPerCycle = 1;
};

} // namespace

Error Simulator::fail(size_t n, const Twine &why) const {
  const Record &record = trace.records[n];
  std::string what = getName(record.kind).str();
  if (record.kind == RecordKind::Compute)
    what += " " + trace.name(record.op).str();
  return createStringError(inconvertibleErrorCode(),
                           "record " + Twine(n) + " (" + what + ", item " +
                               Twine(record.item) + "): " + why);
}

/// Assigns work items to cores in order of first appearance and measures
/// each item's buffer footprint: the bytes of its distinct written buffers,
/// each counted at its largest write (planned storage is one buffer reused
/// by tiles of different sizes).
Error Simulator::prepareItems() {
  unsigned numCores = options.cores ? options.cores : config.cubeCores;
  DenseMap<uint32_t, std::array<uint64_t, kNumSpaces>> footprint;
  DenseMap<uint32_t, DenseMap<uint64_t, uint64_t>> counted;
  unsigned next = 0;
  for (auto [n, record] : llvm::enumerate(trace.records)) {
    auto [it, inserted] = items.try_emplace(record.item);
    if (inserted)
      it->second.core = next++ % numCores;
    if (record.writeSpace == Space::GM)
      continue;
    for (uint64_t buffer : record.writes) {
      uint64_t &bytes = counted[record.item][buffer];
      if (record.writeBytes > bytes) {
        footprint[record.item][static_cast<unsigned>(record.writeSpace)] +=
            record.writeBytes - bytes;
        bytes = record.writeBytes;
      }
    }
  }
  for (auto &[item, info] : items) {
    auto it = footprint.find(item);
    if (it == footprint.end())
      continue;
    for (unsigned s = 1; s < kNumSpaces; ++s) {
      uint64_t capacity = config.capacity[s];
      if (!capacity || !it->second[s])
        continue;
      double share = static_cast<double>(it->second[s]) / capacity;
      if (share > 1)
        return createStringError(
            inconvertibleErrorCode(),
            "work item " + Twine(item) + " needs " + Twine(it->second[s]) +
                " bytes of " + getName(static_cast<Space>(s)) +
                ", more than the " + Twine(capacity) + " a core has");
      info.share = std::max(info.share, share);
      info.footprint[s] = it->second[s];
    }
  }
  cores.assign(std::min<unsigned>(numCores, std::max<size_t>(1, items.size())),
               CoreState());
  result.activeCores = cores.size();
  result.cores.assign(cores.size(), CoreStats());
  return Error::success();
}

/// A write makes a new version of its buffer; the old one keeps its space
/// until its readers are done. The write waits until the item's live
/// versions fit its share of the buffer (half when sharing the core with
/// another item, else all of it). In-place updates (accumulation) make no
/// new version.
uint64_t Simulator::versionGate(const Record &record, ItemInfo &item,
                                uint64_t earliest, bool accumulate) {
  if (record.writeSpace == Space::GM || accumulate)
    return earliest;
  unsigned space = static_cast<unsigned>(record.writeSpace);
  uint64_t capacity = config.capacity[space];
  if (!capacity)
    return earliest;
  auto &old = item.superseded[space];
  for (uint64_t buffer : record.writes) {
    auto it = versions.find(buffer);
    if (it != versions.end() && it->second.space == record.writeSpace)
      old.push_back({it->second.readsDone, it->second.bytes});
  }
  uint64_t allowed = item.share > 0.5 ? capacity : capacity / 2;
  llvm::sort(old);
  uint64_t live = 0;
  for (const auto &[release, bytes] : old)
    if (release > earliest)
      live += bytes;
  // Wait for the earliest releases until the live versions fit.
  for (const auto &[release, bytes] : old) {
    if (item.footprint[space] + live <= allowed || release <= earliest)
      continue;
    earliest = release;
    live -= bytes;
  }
  llvm::erase_if(old,
                 [&](const auto &entry) { return entry.first <= earliest; });
  return earliest;
}

uint64_t Simulator::dependencies(const Record &record, bool cube,
                                 bool accumulate) {
  uint64_t ready = 0;
  for (uint64_t buffer : record.reads) {
    auto it = writers.find(buffer);
    if (it == writers.end())
      continue;
    bool isAccumulator =
        accumulate && llvm::is_contained(record.writes, buffer);
    for (const Writer &writer : it->second) {
      // An accumulation waits only for the accumulator's initializer.
      if (isAccumulator && writer.matmul)
        continue;
      ready = std::max(ready, cube && writer.cube ? writer.issue : writer.done);
    }
  }
  return ready;
}

void Simulator::recordWrites(const Record &record, uint64_t issue,
                             uint64_t done, bool cube, bool matmul,
                             bool accumulate) {
  for (uint64_t buffer : record.writes) {
    auto [it, inserted] = writers.try_emplace(buffer);
    if (inserted && record.writeSpace != Space::GM)
      itemBuffers[record.item].push_back(buffer);
    SmallVector<Writer, 2> &set = it->second;
    if (!accumulate)
      set.clear();
    set.push_back({issue, done, cube, matmul});
  }
}

Expected<uint64_t> Simulator::duration(size_t n, const Record &record,
                                       CoreState &core, uint64_t &earliest) {
  switch (record.kind) {
  case RecordKind::Dma: {
    DmaPath path = record.path();
    double bandwidth = config.pathBytesPerCycle[static_cast<unsigned>(path)];
    bool touchesGm = path == DmaPath::GmToUb || path == DmaPath::GmToL1 ||
                     path == DmaPath::L0CToGm || path == DmaPath::UbToGm;
    if (touchesGm)
      bandwidth = std::min(bandwidth, gmBytesPerCycle);
    // The throttle: the DMA `max_outstanding` back must have finished.
    if (core.dmaInFlight.size() >= config.dmaMaxOutstanding) {
      earliest = std::max(earliest, core.dmaInFlight.front());
      core.dmaInFlight.pop_front();
    }
    // A weight load needs a free slot: the matmul `slots` loads back done.
    if (path == DmaPath::L1ToL0B) {
      uint64_t index = core.weightLoads++;
      if (index >= config.cubeWeightSlots) {
        uint64_t waitFor = index - config.cubeWeightSlots;
        if (waitFor >= core.matmulDone.size())
          return fail(n, "weight load " + Twine(index) + " needs slot " +
                             Twine(index % config.cubeWeightSlots) +
                             ", which frees only after matmul " +
                             Twine(waitFor) +
                             ", later in the trace: no progress is possible");
        earliest = std::max(earliest, core.matmulDone[waitFor]);
      }
    }
    return config.dmaCycles(record.amount, bandwidth) - config.dmaLatency;
  }
  case RecordKind::Compute: {
    StringRef dtype = trace.name(record.dtype);
    switch (record.unit()) {
    case Unit::Cube:
      return config.cubeCycles(record.shape[0], record.shape[1],
                               record.shape[2], dtype, record.elementSize);
    case Unit::Vector:
      return config.vectorCycles(trace.name(record.op), dtype,
                                 record.elementSize, record.amount);
    case Unit::Scalar:
      return config.scalarCycles;
    }
    llvm_unreachable("unknown unit");
  }
  default:
    return 0;
  }
}

void Simulator::account(size_t n, const Record &record, unsigned core,
                        unsigned lane, uint64_t start, uint64_t end) {
  if (lane < kNumPipes)
    result.cores[core].busy[lane] += end - start;
  if (options.timeline)
    result.timeline.push_back({static_cast<uint32_t>(n), record.item,
                               static_cast<uint16_t>(core),
                               static_cast<uint16_t>(lane), start, end});
}

Expected<SimResult> Simulator::run() {
  if (Error error = prepareItems())
    return std::move(error);
  // GM transfers share the L2 (or HBM) among the active cores.
  double shared =
      config.l2Bytes ? config.l2BytesPerCycle : config.hbmBytesPerCycle;
  gmBytesPerCycle = shared / std::max(1u, result.activeCores);
  DenseSet<std::pair<uint64_t, uint64_t>> touched;

  for (auto [n, record] : llvm::enumerate(trace.records)) {
    ItemInfo &item = items[record.item];
    unsigned coreIndex = item.core;
    CoreState &core = cores[coreIndex];
    CoreStats &stats = result.cores[coreIndex];
    if (!item.begun) {
      // The capacity gate: an item sharing the core with its predecessor
      // must fit half the buffers; a bigger one waits for it.
      item.begun = true;
      size_t done = core.itemDone.size();
      size_t back = item.share > 0.5 ? 1 : 2;
      item.gate = done >= back ? core.itemDone[done - back] : 0;
      ++stats.items;
    }
    uint64_t earliest = item.gate;

    switch (record.kind) {
    case RecordKind::WorkBegin:
      break;
    case RecordKind::WorkEnd: {
      core.itemDone.push_back(item.done);
      // On-chip buffers do not outlive their work item: forgetting their
      // writers keeps the map, and the cost per record, flat.
      auto owned = itemBuffers.find(record.item);
      if (owned != itemBuffers.end()) {
        for (uint64_t buffer : owned->second) {
          writers.erase(buffer);
          versions.erase(buffer);
        }
        itemBuffers.erase(owned);
      }
      break;
    }
    case RecordKind::SetFlag: {
      // The flag is set when everything issued on its pipe has completed.
      uint64_t at = std::max(
          core.pipeDone[static_cast<unsigned>(record.setPipe)], earliest);
      core.flags[{static_cast<unsigned>(record.setPipe),
                  static_cast<unsigned>(record.waitPipe), record.op}]
          .push_back(at);
      break;
    }
    case RecordKind::WaitFlag: {
      auto it =
          core.flags.find({static_cast<unsigned>(record.setPipe),
                           static_cast<unsigned>(record.waitPipe), record.op});
      if (it == core.flags.end() || it->second.empty())
        return fail(n, "waits for flag " + getName(record.setPipe) + " -> " +
                           getName(record.waitPipe) + " event " +
                           Twine(record.op) +
                           ", which no earlier set_flag raises: no progress "
                           "is possible");
      uint64_t &free = core.pipeFree[static_cast<unsigned>(record.waitPipe)];
      free = std::max(free, it->second.front());
      it->second.pop_front();
      break;
    }
    case RecordKind::PipeBarrier: {
      if (record.barrierPipe() == Pipe::All) {
        uint64_t all = 0;
        for (uint64_t done : core.pipeDone)
          all = std::max(all, done);
        core.pipeFree.fill(all);
      }
      break;
    }
    case RecordKind::MemoryBar: {
      auto it = core.tags.find({record.tagId, record.tagSlot});
      if (it == core.tags.end())
        return fail(n, "waits for tag (" + Twine(record.tagId) + ", " +
                           Twine(record.tagSlot) +
                           "), which no earlier async DMA bound: no progress "
                           "is possible");
      uint64_t arrival = std::max(it->second, earliest);
      core.tags.erase(it);
      // The barrier stands for the data: readers of the buffers it names
      // wait for the arrival.
      recordWrites(record, arrival, arrival, false, false, false);
      item.done = std::max(item.done, arrival);
      break;
    }
    case RecordKind::Dma:
    case RecordKind::Compute: {
      bool cube =
          record.kind == RecordKind::Compute && record.unit() == Unit::Cube;
      bool accumulate = cube && record.flag;
      Pipe pipe = record.kind == RecordKind::Dma  ? getPipe(record.path())
                  : cube                          ? Pipe::M
                  : record.unit() == Unit::Vector ? Pipe::V
                                                  : Pipe::S;
      earliest = std::max(earliest, dependencies(record, cube, accumulate));
      earliest = versionGate(record, item, earliest, accumulate);
      Expected<uint64_t> cycles = duration(n, record, core, earliest);
      if (!cycles)
        return cycles.takeError();
      uint64_t &free = core.pipeFree[static_cast<unsigned>(pipe)];
      uint64_t start = std::max(free, earliest);
      // The pipe is busy for the transfer or the op; a DMA completes after
      // its latency too, which overlaps the next transfer.
      free = start + *cycles;
      uint64_t end =
          free + (record.kind == RecordKind::Dma ? config.dmaLatency : 0);
      uint64_t &pipeDone = core.pipeDone[static_cast<unsigned>(pipe)];
      pipeDone = std::max(pipeDone, end);
      bool async = record.kind == RecordKind::Dma && record.flag;
      if (async)
        core.tags[{record.tagId, record.tagSlot}] = end;
      // An async load is done, for its readers, when issued.
      recordWrites(record, start, async ? start : end, cube, cube, accumulate);
      // Readers hold the version they read until they are done.
      for (uint64_t buffer : record.reads) {
        auto it = versions.find(buffer);
        if (it != versions.end())
          it->second.readsDone = std::max(it->second.readsDone, end);
      }
      if (record.writeSpace != Space::GM && !accumulate)
        for (uint64_t buffer : record.writes)
          versions[buffer] = {record.writeBytes, end, record.writeSpace};
      if (cube)
        core.matmulDone.push_back(end);
      if (record.kind == RecordKind::Dma) {
        core.dmaInFlight.push_back(end);
        unsigned path = static_cast<unsigned>(record.path());
        result.pathBytes[path] += record.amount;
        bool fromGm = record.path() == DmaPath::GmToUb ||
                      record.path() == DmaPath::GmToL1;
        bool toGm = record.path() == DmaPath::L0CToGm ||
                    record.path() == DmaPath::UbToGm;
        if (fromGm || toGm) {
          result.gmBytes += record.amount;
          // With an L2, only the first touch of a GM box reaches HBM.
          uint64_t buffer =
              fromGm ? (record.reads.empty() ? 0 : record.reads[0])
                     : (record.writes.empty() ? 0 : record.writes[0]);
          if (!config.l2Bytes ||
              touched.insert({buffer, record.gmOffset}).second)
            result.hbmBytes += record.amount;
        }
        account(n, record, coreIndex, kNumPipes + path, start, end);
        result.cores[coreIndex].busy[static_cast<unsigned>(pipe)] +=
            free - start;
      } else {
        if (cube)
          result.cubeMacs += static_cast<uint64_t>(record.shape[0]) *
                             record.shape[1] * record.shape[2];
        else
          result.vectorElements += record.amount;
        account(n, record, coreIndex, static_cast<unsigned>(pipe), start, end);
      }
      item.done = std::max(item.done, end);
      stats.finish = std::max(stats.finish, end);
      break;
    }
    }
  }

  for (const CoreStats &core : result.cores)
    result.coreCycles = std::max(result.coreCycles, core.finish);
  result.hbmCycles = static_cast<uint64_t>(
      std::ceil(result.hbmBytes / std::max(config.hbmBytesPerCycle, 1e-9)));
  if (config.l2Bytes)
    result.l2Cycles = static_cast<uint64_t>(
        std::ceil(result.gmBytes / std::max(config.l2BytesPerCycle, 1e-9)));
  result.cycles =
      config.launchCycles +
      std::max({result.coreCycles, result.hbmCycles, result.l2Cycles});
  result.seconds = result.cycles / (config.clockGHz * 1e9);
  return std::move(result);
}

Expected<SimResult> timing::simulate(const Trace &trace,
                                     const MachineConfig &config,
                                     const SimOptions &options) {
  return Simulator(trace, config, options).run();
}
