//===- Simulator.cpp - The pipe-level timing model ------------------------===//
//
// Records are buffered per work item and timed an item at a time, in the
// order items end. Each record becomes an op on a pipe of the core (cube,
// vector 0 or vector 1) of the AI core its item runs on, starting at the
// latest of:
//  * its pipe being free (pipes are in-order queues);
//  * its dataflow dependencies: each buffer keeps its set of current
//    writers; a reader waits for all of them (for their issue when reader and
//    writer are both cube ops, which pipeline in the systolic array, else for
//    their completion); a writer replaces the set. An accumulating matmul
//    skips the read edge of its accumulator, waiting only for a non-matmul
//    initializer, and joins the writer set, so a later reader waits for
//    every accumulation;
//  * GM dependencies on earlier work items: a read of a GM region waits for
//    the earlier items' writes to it, a write for their reads and writes;
//  * its work item's capacity gate: two work items share a core only when
//    two such items fit every buffer (machine::fitsTwice, the rule the
//    compiled kernel overlaps its items by); a larger one waits for the
//    previous;
//  * the DMA throttle (at most N DMAs in flight per core) and, for weight
//    loads into L0B, a free weight slot (the matmul `slots` loads back has
//    finished);
//  * explicit flags (set/wait between pipes) and pipe barriers;
//  * for a push, a free slot of its cross-core pipe (the pop `slots` pushes
//    back has completed); for a pop, its push having arrived.
// An async DMA completes at issue for its readers; its MEMORY_BAR, paired by
// (tag_id, tag_slot), completes when the data has arrived.
//
// GM transfers share the L2 (or HBM) bandwidth among the active AI cores;
// the number of active cores is known once as many items as cores have
// started (or the trace has ended), so the first items wait until then.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Timing/Simulator.h"

#include "tilekit/Machine/Machine.h"
#include "tilekit/Trace/MergeOrder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <deque>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::timing;
using namespace tilekit::trace;

StringRef timing::getSubcoreName(unsigned subcore) {
  static const char *const names[] = {"cube", "vec0", "vec1"};
  return names[subcore];
}

StringRef timing::getName(SyncKind kind) {
  static const char *const names[] = {"flags", "cross-core flags", "buffer ids",
                                      "barriers"};
  return names[static_cast<unsigned>(kind)];
}

uint64_t SyncCost::totalCycles() const { return llvm::sum_of(cycles); }

uint64_t LineCost::total() const { return busyTotal() + stalledTotal(); }
uint64_t LineCost::busyTotal() const { return llvm::sum_of(busy); }
uint64_t LineCost::stalledTotal() const { return llvm::sum_of(stalled); }

StringRef timing::getName(WaitReason reason) {
  static const char *const names[] = {
      "data",      "gm-order", "capacity",  "flag",        "cross-core-flag",
      "buffer-id", "barrier",  "pipe-slot", "weight-slot", "dma-queue"};
  return names[static_cast<unsigned>(reason)];
}

namespace {

struct Writer {
  uint64_t issue, done;
  bool cube, matmul;
  /// The writer's source location (what a reader waits for).
  uint32_t loc;
};

/// When a flag, buffer id or dependency releases a waiter, and the source
/// location of the op or sync that released it.
struct Release {
  uint64_t time = 0;
  uint32_t loc = 0;
};

/// The binding constraint of an op's start: the latest of its
/// constraints, what it was and whom it waited for.
struct Constraint {
  uint64_t time = 0;
  WaitReason reason = WaitReason::Capacity;
  uint32_t loc = 0;
  void raise(uint64_t at, WaitReason why, uint32_t from = 0) {
    if (at > time) {
      time = at;
      reason = why;
      loc = from;
    }
  }
};

/// One core of an AI core: its pipes, DMA throttle and async tags.
struct Subcore {
  /// When each pipe can take its next op, and when its last op completes
  /// (a DMA frees its pipe after the transfer but completes after the
  /// latency too).
  std::array<uint64_t, kNumPipes> pipeFree{};
  std::array<uint64_t, kNumPipes> pipeDone{};
  /// The source location of each pipe's last op: what a flag set on the
  /// pipe waits for.
  std::array<uint32_t, kNumPipes> lastLoc{};
  std::deque<uint64_t> dmaInFlight;
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> tags;
  /// When each buffer id was last released (RlsBufId); free at first.
  std::map<uint16_t, Release> bufferIdFree;
};

/// The arrival of each push and the completion of each pop of one lane
/// queue of a cross-core pipe.
struct QueueTimes {
  std::vector<uint64_t> pushed, popped;
};

struct AiCore {
  std::array<Subcore, kNumSubcores> subcores;
  /// Raised flags by (set pipe, wait pipe, event, lane); cross-core flags
  /// by (kCrossCoreKey, receiver is the cube, flag, lane).
  std::map<std::tuple<unsigned, unsigned, unsigned, unsigned>,
           std::deque<Release>>
      flags;
  /// Cross-core queues by (from the cube, pipe id, lane).
  std::map<std::tuple<bool, uint16_t, unsigned>, QueueTimes> queues;
  /// Completion of the recent matmuls; matmulBase is the index of the
  /// first one kept.
  std::deque<uint64_t> matmulDone;
  uint64_t matmulBase = 0, matmulCount = 0;
  uint64_t weightLoads = 0;
  /// Completion of the last two work items run here, per place an item
  /// takes: the whole AI core, vector core 0 or 1.
  std::array<SmallVector<uint64_t, 2>, kNumSubcores> itemDone;
};

/// The first key of a cross-core flag (no pipe has this number).
constexpr unsigned kCrossCoreKey = 0xFF;

struct PendingRecord {
  PendingRecord() : record(Record::Uninitialized()) {}
  uint64_t index;
  /// Buffers past the record's counts are left uninitialized.
  Record record;
};

/// The state of an item while it is timed.
struct ItemTiming {
  /// Whether two items like it fit every buffer together
  /// (machine::fitsTwice, the compiled kernel's overlap rule): it may
  /// share its core with its predecessor.
  bool fitsTwice = true;
  std::array<uint64_t, kNumSpaces> footprint{};

  uint64_t gate = 0;
  uint64_t done = 0;
  /// A compiled kernel's block: ordered by its flags, barriers and buffer
  /// ids only.
  bool explicitSync = false;
  /// The vector core (1 or 2) an item of one vector core runs on, else 0.
  unsigned vectorSubcore = 0;
};

struct Item {
  unsigned core = 0;
  /// The order it appeared in among the trace's items.
  unsigned index = 0;
  bool ended = false;
  std::vector<PendingRecord> records;
  /// A compiled kernel's block that says how it runs (explicitly
  /// synchronized, its launch's blocks, whether on one vector core) is
  /// timed as its records come, never held: its timing so far.
  std::unique_ptr<ItemTiming> streamed;
};

/// The current version of an on-chip buffer: its size and when its readers
/// so far are done.
struct Version {
  uint64_t bytes = 0;
  uint64_t readsDone = 0;
  Space space = Space::GM;
};

/// A GM region: a box of `rows` x `cols` elements, rows `stride` apart,
/// starting at element `row * stride + col` of its tensor. A 1-D box is
/// one row; a box whose layout the record cannot give (3-D) is everything.
struct GmBox {
  uint64_t row = 0, col = 0, rows = 0, cols = 0, stride = 0;
  bool everything = false;

  /// The element range [first, last) the box spans.
  std::pair<uint64_t, uint64_t> span() const {
    uint64_t first = row * stride + col;
    return {first, rows ? first + (rows - 1) * stride + cols : first};
  }
  bool overlaps(const GmBox &other) const {
    if (everything || other.everything)
      return true;
    if (!rows || !cols || !other.rows || !other.cols)
      return false;
    if (stride == other.stride && stride)
      return row < other.row + other.rows && other.row < row + rows &&
             col < other.col + other.cols && other.col < col + cols;
    // Different row lengths: compare the spans.
    auto [a0, a1] = span();
    auto [b0, b1] = other.span();
    return a0 < b1 && b0 < a1;
  }
  /// Grows this box to hold `other` when their union is a box.
  bool absorb(const GmBox &other) {
    if (everything || other.everything || stride != other.stride)
      return false;
    if (col == other.col && cols == other.cols && other.row <= row + rows &&
        row <= other.row + other.rows) {
      uint64_t end = std::max(row + rows, other.row + other.rows);
      row = std::min(row, other.row);
      rows = end - row;
      return true;
    }
    if (row == other.row && rows == other.rows && other.col <= col + cols &&
        col <= other.col + other.cols) {
      uint64_t end = std::max(col + cols, other.col + other.cols);
      col = std::min(col, other.col);
      cols = end - col;
      return true;
    }
    return false;
  }
};

/// A buffer while its work item is timed.
struct BufferState {
  SmallVector<Writer, 2> writers;
  Version version;
  bool hasVersion = false;
};

/// An access of a work item to a GM region.
struct GmAccess {
  GmBox box;
  uint32_t item;
  uint64_t done;
};

/// The accesses to one GM tensor so far: a read checks the writes, a write
/// both.
struct GmAccesses {
  std::vector<GmAccess> reads, writes;
};

/// Hashes a (GM buffer, offset) pair well: the default pair hash
/// multiplies each half by 37, and offsets that are multiples of a tile
/// then crowd a few buckets.
struct GmBoxKeyInfo : DenseMapInfo<std::pair<uint64_t, uint64_t>> {
  static unsigned getHashValue(const std::pair<uint64_t, uint64_t> &key) {
    uint64_t x = key.first * 0x9E3779B97F4A7C15ull ^ key.second;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return static_cast<unsigned>(x);
  }
};

/// The same mixing for a packed (buffer, offset) word; the reserved keys
/// (~0, ~0 - 1) cannot occur as the buffer part is below 2^24 - 1.
struct GmWordKeyInfo : DenseMapInfo<uint64_t> {
  static unsigned getHashValue(uint64_t key) {
    uint64_t x = key * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return static_cast<unsigned>(x);
  }
};

bool touchesGm(DmaPath path) {
  return getSource(path) == Space::GM || getDestination(path) == Space::GM;
}

} // namespace

class Simulator::Impl {
public:
  Impl(const TraceTables &tables, const MachineConfig &config,
       const SimOptions &options)
      : tables(tables), config(config), options(options),
        numCores(options.cores ? options.cores : config.cubeCores) {
    numCores = std::max(1u, numCores);
  }

  void add(const Record &record);
  Expected<SimResult> finish();

private:
  Error fail(const PendingRecord &pending, const Twine &why) const;
  void setActiveCores(unsigned active);
  Error timeItem(uint32_t id, Item &item);
  void beginItem(uint32_t id, Item &item, ItemTiming &timing,
                 bool oneVectorCore);
  void endItem(Item &item, ItemTiming &timing);
  /// Times a record of a streamed item as it comes.
  Error streamRecord(uint32_t id, Item &item, const PendingRecord &record);
  Error measureFootprint(uint32_t id, const Item &item, ItemTiming &timing);
  Error timeRecord(const PendingRecord &pending, AiCore &core,
                   unsigned coreIndex, ItemTiming &timing);
  uint64_t versionGate(const Record &record, ItemTiming &timing,
                       uint64_t earliest, bool accumulate);
  Release dependencies(const Record &record, bool cube, bool accumulate);
  uint64_t gmDependency(const Record &record);
  void recordGmAccess(const Record &record, uint64_t done);
  void recordWrites(const Record &record, uint64_t issue, uint64_t done,
                    bool cube, bool matmul, bool accumulate);
  /// Charges `cycles` of waiting on `pipe` to the record's line.
  void chargeWait(const Record &record, unsigned pipe, uint64_t cycles,
                  WaitReason why, uint32_t from);
  void account(const PendingRecord &pending, unsigned core, unsigned subcore,
               Pipe pipe, uint64_t freeBefore, uint64_t start, uint64_t end,
               const Constraint &bound);
  Expected<uint64_t> duration(const PendingRecord &pending, AiCore &core,
                              Subcore &subcore, Constraint &earliest,
                              bool weightSlots);
  /// A wait holds `pipe` until `ready`; a wait on the scalar pipe holds
  /// every pipe of its core, as the scalar unit issues them all.
  void holdPipe(const Record &record, Subcore &subcore, Pipe pipe,
                Release ready, SyncKind kind, WaitReason why);
  Error flushReady();
  /// Times the pending item `id`, if any, and forgets it.
  Error timePending(uint32_t id);
  /// A new version of `buffer` (recordWrites has made its entry).
  void setVersion(uint64_t buffer, Version version) {
    BufferState &state = buffers[buffer];
    state.version = version;
    state.hasVersion = true;
  }
  /// The path a transfer takes on this machine: a cross-core one through
  /// the GM workspace when the config says so.
  DmaPath transferPath(const Record &record) const {
    if (!config.crossCoreViaGm || record.getKind() == RecordKind::Dma)
      return record.path();
    bool fromCube = record.isFromCube();
    if (record.getKind() == RecordKind::Push)
      return fromCube ? DmaPath::L0CToGm : DmaPath::UbToGm;
    return fromCube ? DmaPath::GmToUb : DmaPath::GmToL1;
  }
  /// The lane queue of a push or pop: the pushing side, the pipe id and
  /// the lane.
  static std::tuple<bool, uint16_t, unsigned> queueKey(const Record &record,
                                                       unsigned lane) {
    return {record.isFromCube(), record.op, lane};
  }
  LineCost &lineCost(uint32_t loc) {
    if (loc >= result.lines.size())
      result.lines.resize(loc + 1);
    return result.lines[loc];
  }

  const TraceTables &tables;
  const MachineConfig &config;
  SimOptions options;
  unsigned numCores;
  SimResult result;
  std::optional<Error> firstError;
  uint64_t count = 0;

  /// Items not timed yet, and the order they ended (or appeared).
  DenseMap<uint32_t, Item> pending;
  /// The item of the last record (null after `pending` changed shape).
  Item *current = nullptr;
  uint32_t currentId = 0;
  /// The record storage of the last item timed, for the next one.
  std::vector<PendingRecord> spareRecords;
  std::vector<uint32_t> appeared;
  std::deque<uint32_t> ended;
  unsigned itemsSeen = 0;
  bool activeKnown = false;

  std::vector<AiCore> cores;
  /// Per buffer of the open work item: its current writers and version
  /// (one map: a record looks each buffer up once per question).
  DenseMap<uint64_t, BufferState> buffers;
  SmallVector<uint64_t, 16> itemBuffers;
  DenseMap<uint64_t, GmAccesses> gm;
  uint32_t currentItem = 0;
  bool dependsOnEarlier = false;
  /// GM boxes touched so far (buffer, offset): packed into one word when
  /// both fit (the usual case; half the memory, fewer cache misses), else
  /// as a pair.
  DenseSet<uint64_t, GmWordKeyInfo> touchedPacked;
  DenseSet<std::pair<uint64_t, uint64_t>, GmBoxKeyInfo> touched;
  bool firstTouch(uint64_t buffer, uint64_t offset) {
    if (buffer < (uint64_t(1) << 24) - 1 && offset < (uint64_t(1) << 40))
      return touchedPacked.insert(buffer << 40 | offset).second;
    return touched.insert({buffer, offset}).second;
  }
  StringSet<> defaultCost;
  double gmBytesPerCycle = 1;
  /// The vector cores items of one vector core ran on (2 * AI core + lane).
  DenseSet<unsigned> vectorPlaces;
};

Error Simulator::Impl::fail(const PendingRecord &pending,
                            const Twine &why) const {
  const Record &record = pending.record;
  std::string what = getName(record.getKind()).str();
  if (record.getKind() == RecordKind::Compute)
    what += " " + tables.name(record.op).str();
  std::string where;
  if (record.loc)
    where = " at " + tables.describeLocation(record.loc);
  return createStringError(inconvertibleErrorCode(),
                           "record " + Twine(pending.index) + " (" + what +
                               ", item " + Twine(record.item) + where +
                               "): " + why);
}

void Simulator::Impl::add(const Record &record) {
  uint64_t index = count++;
  if (firstError)
    return;
  // Records come in runs of one item: look it up once per run.
  if (!current || currentId != record.item) {
    auto [it, inserted] = pending.try_emplace(record.item);
    if (inserted) {
      it->second.index = itemsSeen;
      it->second.core = machine::getWorkItemCore(itemsSeen++, numCores);
      appeared.push_back(record.item);
    }
    current = &it->second;
    currentId = record.item;
  }
  Item &item = *current;
  // A compiled kernel's block that says how it runs is timed as its
  // records come (when no other item is open), so that a block of any
  // length takes no memory.
  if (record.getKind() == RecordKind::WorkBegin &&
      record.isExplicitlySynchronized() && record.amount && !item.streamed &&
      item.records.empty() && pending.size() == 1) {
    if (!activeKnown)
      setActiveCores(
          static_cast<unsigned>(std::min<uint64_t>(numCores, record.amount)));
    item.streamed = std::make_unique<ItemTiming>();
    item.streamed->explicitSync = true;
    beginItem(record.item, item, *item.streamed,
              record.getCore() == CoreKind::Vector);
  }
  if (item.streamed) {
    PendingRecord streamed;
    streamed.index = index;
    std::memcpy(static_cast<void *>(&streamed.record), &record,
                offsetof(tilekit_trace_record, buffers) +
                    sizeof(uint64_t) *
                        std::min<unsigned>(record.num_reads + record.num_writes,
                                           kMaxBuffersPerRecord));
    if (Error error = streamRecord(record.item, item, streamed))
      firstError = std::move(error);
    return;
  }
  // Items of a kernel are alike: reuse the last one's storage.
  if (item.records.empty() && item.records.capacity() == 0) {
    item.records = std::move(spareRecords);
    item.records.clear();
  }
  // Copy the fixed fields and only the buffers the record lists: most of a
  // record's buffer array is unused.
  PendingRecord &pendingRecord = item.records.emplace_back();
  pendingRecord.index = index;
  std::memcpy(static_cast<void *>(&pendingRecord.record), &record,
              offsetof(tilekit_trace_record, buffers) +
                  sizeof(uint64_t) *
                      std::min<unsigned>(record.num_reads + record.num_writes,
                                         kMaxBuffersPerRecord));
  if (record.getKind() == RecordKind::WorkEnd && !item.ended) {
    item.ended = true;
    ended.push_back(record.item);
  }
  if (!activeKnown && itemsSeen >= numCores)
    setActiveCores(numCores);
  if (activeKnown)
    if (Error error = flushReady())
      firstError = std::move(error);
}

void Simulator::Impl::setActiveCores(unsigned active) {
  activeKnown = true;
  result.activeCores = std::max(1u, active);
  cores.assign(result.activeCores, AiCore());
  result.cores.assign(result.activeCores, CoreStats());
  double shared =
      config.l2Bytes ? config.l2BytesPerCycle : config.hbmBytesPerCycle;
  gmBytesPerCycle = shared / result.activeCores;
}

Error Simulator::Impl::timePending(uint32_t id) {
  auto it = pending.find(id);
  if (it == pending.end())
    return Error::success();
  Error error = timeItem(id, it->second);
  // Its record storage serves the next item.
  spareRecords = std::move(it->second.records);
  pending.erase(it);
  current = nullptr;
  return error;
}

Error Simulator::Impl::flushReady() {
  while (!ended.empty()) {
    uint32_t id = ended.front();
    ended.pop_front();
    if (Error error = timePending(id))
      return error;
  }
  return Error::success();
}

/// The item's buffer footprint: the bytes of its distinct written buffers,
/// each counted at its largest write (planned storage is one buffer reused
/// by tiles of different sizes). Each vector core has its own UB: a split
/// group's lanes are counted apart and the larger is what a core needs.
Error Simulator::Impl::measureFootprint(uint32_t id, const Item &item,
                                        ItemTiming &timing) {
  SmallDenseMap<uint64_t, uint64_t, 32> counted;
  std::array<std::array<uint64_t, 2>, kNumSpaces> perLane{};
  for (const PendingRecord &pending : item.records) {
    const Record &record = pending.record;
    if (record.getSpace() == Space::GM)
      continue;
    unsigned lane = record.getCore() == CoreKind::Vector ? record.lane % 2 : 0;
    for (uint64_t buffer : record.writes()) {
      uint64_t &bytes = counted[buffer];
      if (record.write_bytes > bytes) {
        perLane[record.space][lane] += record.write_bytes - bytes;
        bytes = record.write_bytes;
      }
    }
  }
  std::array<uint64_t, kNumSpaces> footprint{};
  for (unsigned s = 0; s < kNumSpaces; ++s)
    footprint[s] = std::max(perLane[s][0], perLane[s][1]);
  for (unsigned s = 1; s < kNumSpaces; ++s) {
    uint64_t capacity = config.capacity[s];
    if (!capacity || !footprint[s])
      continue;
    if (footprint[s] > capacity)
      return createStringError(
          inconvertibleErrorCode(),
          "work item " + Twine(id) + " needs " + Twine(footprint[s]) +
              " bytes of " + getName(static_cast<Space>(s)) +
              ", more than the " + Twine(capacity) + " a core has");
    timing.fitsTwice &= machine::fitsTwice(static_cast<Space>(s),
                                           static_cast<int64_t>(footprint[s]),
                                           static_cast<int64_t>(capacity));
    timing.footprint[s] = footprint[s];
  }
  return Error::success();
}

/// Whether every record of the item runs on one and the same vector core:
/// such an item takes one vector core, and the two vector cores of an AI
/// core run two items side by side.
static bool runsOnOneVectorCore(ArrayRef<PendingRecord> records) {
  std::optional<unsigned> lane;
  for (const PendingRecord &pending : records) {
    const Record &record = pending.record;
    if (record.getKind() == RecordKind::WorkBegin ||
        record.getKind() == RecordKind::WorkEnd)
      continue;
    if (record.getCore() != CoreKind::Vector || (lane && *lane != record.lane))
      return false;
    lane = record.lane;
  }
  return lane.has_value();
}

/// Places item `id` on its core (and vector core) and opens its timing:
/// the capacity gate from the items before it there.
void Simulator::Impl::beginItem(uint32_t id, Item &item, ItemTiming &timing,
                                bool oneVectorCore) {
  unsigned coreIndex = item.core % result.activeCores;
  AiCore &core = cores[coreIndex];
  ++result.cores[coreIndex].items;
  // Items of one vector core fill vector core 0 of every AI core, then
  // vector core 1.
  if (oneVectorCore) {
    timing.vectorSubcore = 1 + item.index / numCores % 2;
    ++result.vectorItems;
    vectorPlaces.insert(coreIndex * 2 + timing.vectorSubcore - 1);
  }
  // The capacity gate: an item shares its place with its predecessor
  // when two such items fit every buffer; a bigger one waits for it.
  auto &history = core.itemDone[timing.vectorSubcore];
  size_t back = timing.fitsTwice ? 2 : 1;
  if (history.size() >= back)
    timing.gate = history[history.size() - back];
  currentItem = id;
  dependsOnEarlier = false;
}

/// Closes the item's timing: its place's history, and the state that
/// does not outlive an item.
void Simulator::Impl::endItem(Item &item, ItemTiming &timing) {
  AiCore &core = cores[item.core % result.activeCores];
  if (dependsOnEarlier)
    ++result.gmDependencies;
  // An item of the whole AI core holds every place; a vector core's item
  // its own.
  for (unsigned place = 0; place < kNumSubcores; ++place) {
    if (timing.vectorSubcore && place != timing.vectorSubcore)
      continue;
    auto &done = core.itemDone[place];
    done.push_back(timing.done);
    if (done.size() > 2)
      done.erase(done.begin());
  }
  // On-chip buffers and cross-core queues do not outlive their work item:
  // forgetting them keeps the maps, and the cost per record, flat.
  for (uint64_t buffer : itemBuffers)
    buffers.erase(buffer);
  itemBuffers.clear();
  core.queues.clear();
}

Error Simulator::Impl::streamRecord(uint32_t id, Item &item,
                                    const PendingRecord &record) {
  unsigned coreIndex = item.core % result.activeCores;
  currentItem = id;
  if (Error error =
          timeRecord(record, cores[coreIndex], coreIndex, *item.streamed))
    return error;
  if (record.record.getKind() != RecordKind::WorkEnd)
    return Error::success();
  endItem(item, *item.streamed);
  pending.erase(id);
  current = nullptr;
  return Error::success();
}

Error Simulator::Impl::timeItem(uint32_t id, Item &item) {
  ItemTiming timing;
  for (const PendingRecord &pending : item.records)
    if (pending.record.getKind() == RecordKind::WorkBegin)
      timing.explicitSync = pending.record.isExplicitlySynchronized();
  // A compiled kernel's buffers are planned and its reuse ordered by its
  // flags: only the dataflow model needs the footprint.
  if (!timing.explicitSync)
    if (Error error = measureFootprint(id, item, timing))
      return error;
  beginItem(id, item, timing, runsOnOneVectorCore(item.records));
  unsigned coreIndex = item.core % result.activeCores;
  for (const PendingRecord &pending : item.records)
    if (Error error = timeRecord(pending, cores[coreIndex], coreIndex, timing))
      return error;
  endItem(item, timing);
  return Error::success();
}

/// A write makes a new version of its buffer once the old version's
/// readers are done: a buffer holds one version at a time, as the kernel's
/// static buffers do. Double buffering is two buffers (a loop's loads in
/// two places, as memory planning's `--double-buffer` lays them out), not
/// a second version of one. In-place updates (accumulation) make no new
/// version.
uint64_t Simulator::Impl::versionGate(const Record &record, ItemTiming &timing,
                                      uint64_t earliest, bool accumulate) {
  if (record.getSpace() == Space::GM || accumulate || timing.explicitSync)
    return earliest;
  for (uint64_t buffer : record.writes()) {
    auto it = buffers.find(buffer);
    if (it != buffers.end() && it->second.hasVersion &&
        it->second.version.space == record.getSpace())
      earliest = std::max(earliest, it->second.version.readsDone);
  }
  return earliest;
}

Release Simulator::Impl::dependencies(const Record &record, bool cube,
                                      bool accumulate) {
  Release ready;
  for (uint64_t buffer : record.reads()) {
    auto it = buffers.find(buffer);
    if (it == buffers.end())
      continue;
    bool isAccumulator =
        accumulate && llvm::is_contained(record.writes(), buffer);
    for (const Writer &writer : it->second.writers) {
      // An accumulation waits only for the accumulator's initializer.
      if (isAccumulator && writer.matmul)
        continue;
      uint64_t at = cube && writer.cube ? writer.issue : writer.done;
      if (at > ready.time)
        ready = {at, writer.loc};
    }
  }
  return ready;
}

/// The GM region a transfer touches: rows of `shape[1]` elements
/// `strides[0]` apart from the box's offset (a 3-D box is taken as its
/// whole tensor, whose inner extents the record lacks).
static GmBox gmRegion(const Record &record) {
  GmBox box;
  if (record.shape[2]) {
    box.everything = true;
    return box;
  }
  uint64_t stride = record.strides[0];
  if (!record.shape[1] || !stride) {
    // One row of shape[0] elements.
    box.rows = 1;
    box.cols =
        record.shape[1] ? record.shape[0] * record.shape[1] : record.shape[0];
    box.col = record.gm_offset;
    return box;
  }
  box.stride = stride;
  box.row = record.gm_offset / stride;
  box.col = record.gm_offset % stride;
  box.rows = record.shape[0];
  box.cols = record.shape[1];
  return box;
}

/// The GM buffer a transfer reads or writes, and whether it writes it.
static std::optional<std::pair<uint64_t, bool>> gmBuffer(const Record &record) {
  if (record.getKind() != RecordKind::Dma || !touchesGm(record.path()))
    return std::nullopt;
  bool write = getDestination(record.path()) == Space::GM;
  ArrayRef<uint64_t> ids = write ? record.writes() : record.reads();
  if (ids.empty())
    return std::nullopt;
  return std::make_pair(ids.front(), write);
}

/// Work items depend on earlier ones through GM, as a task-graph runtime
/// orders them: a read waits for earlier items' overlapping writes, a write
/// for their overlapping reads and writes.
uint64_t Simulator::Impl::gmDependency(const Record &record) {
  auto access = gmBuffer(record);
  if (!access)
    return 0;
  auto it = gm.find(access->first);
  if (it == gm.end())
    return 0;
  GmBox box = gmRegion(record);
  uint64_t ready = 0;
  auto check = [&](const std::vector<GmAccess> &earlier) {
    for (const GmAccess &other : earlier)
      if (other.item != currentItem && other.done > ready &&
          other.box.overlaps(box)) {
        ready = other.done;
        dependsOnEarlier = true;
      }
  };
  check(it->second.writes);
  if (access->second)
    check(it->second.reads);
  return ready;
}

void Simulator::Impl::recordGmAccess(const Record &record, uint64_t done) {
  auto access = gmBuffer(record);
  if (!access)
    return;
  GmBox box = gmRegion(record);
  GmAccesses &accesses = gm[access->first];
  std::vector<GmAccess> &list =
      access->second ? accesses.writes : accesses.reads;
  // Neighbouring accesses of one item coalesce, keeping the list short.
  if (!list.empty()) {
    GmAccess &last = list.back();
    if (last.item == currentItem && last.box.absorb(box)) {
      last.done = std::max(last.done, done);
      return;
    }
  }
  list.push_back({box, currentItem, done});
}

void Simulator::Impl::recordWrites(const Record &record, uint64_t issue,
                                   uint64_t done, bool cube, bool matmul,
                                   bool accumulate) {
  for (uint64_t buffer : record.writes()) {
    // Writer sets live for the item: GM order between items is the
    // region-precise gmDependency's.
    auto [it, inserted] = buffers.try_emplace(buffer);
    if (inserted)
      itemBuffers.push_back(buffer);
    SmallVector<Writer, 2> &set = it->second.writers;
    if (!accumulate)
      set.clear();
    set.push_back({issue, done, cube, matmul, record.loc});
  }
}

Expected<uint64_t> Simulator::Impl::duration(const PendingRecord &pending,
                                             AiCore &core, Subcore &subcore,
                                             Constraint &earliest,
                                             bool weightSlots) {
  const Record &record = pending.record;
  switch (record.getKind()) {
  case RecordKind::Dma:
  case RecordKind::Push:
  case RecordKind::Pop: {
    DmaPath path = transferPath(record);
    double bandwidth = config.pathBytesPerCycle[static_cast<unsigned>(path)];
    if (touchesGm(path))
      bandwidth = std::min(bandwidth, gmBytesPerCycle);
    // The throttle: the DMA `max_outstanding` back must have finished.
    if (subcore.dmaInFlight.size() >= config.dmaMaxOutstanding) {
      earliest.raise(subcore.dmaInFlight.front(), WaitReason::DmaQueue);
      subcore.dmaInFlight.pop_front();
    }
    // A weight load needs a free slot: the matmul `slots` loads back done.
    if (path == DmaPath::L1ToL0B && weightSlots) {
      uint64_t index = core.weightLoads++;
      if (index >= config.cubeWeightSlots) {
        uint64_t waitFor = index - config.cubeWeightSlots;
        if (waitFor >= core.matmulCount)
          return fail(pending, "weight load " + Twine(index) + " needs slot " +
                                   Twine(index % config.cubeWeightSlots) +
                                   ", which frees only after matmul " +
                                   Twine(waitFor) +
                                   ", later in the trace: no progress is "
                                   "possible");
        if (waitFor >= core.matmulBase)
          earliest.raise(core.matmulDone[waitFor - core.matmulBase],
                         WaitReason::WeightSlot);
        // Later loads need only later matmuls.
        while (core.matmulBase < waitFor + 1 && !core.matmulDone.empty()) {
          core.matmulDone.pop_front();
          ++core.matmulBase;
        }
      }
    }
    return config.dmaCycles(record.amount, bandwidth) - config.dmaLatency;
  }
  case RecordKind::Compute: {
    StringRef dtype = tables.name(record.dtype);
    switch (record.unit()) {
    case Unit::Cube:
      return config.cubeCycles(record.shape[0], record.shape[1],
                               record.shape[2], dtype, record.elem_size);
    case Unit::Vector: {
      StringRef op = tables.name(record.op);
      if (!config.hasVectorCost(op, dtype))
        defaultCost.insert((op + "/" + dtype).str());
      return config.vectorCycles(op, dtype, record.elem_size, record.amount,
                                 {record.shape[0], record.shape[1]});
    }
    case Unit::Scalar:
      return config.scalarCycles;
    }
    llvm_unreachable("unknown unit");
  }
  default:
    return 0;
  }
}

void Simulator::Impl::chargeWait(const Record &record, unsigned pipe,
                                 uint64_t cycles, WaitReason why,
                                 uint32_t from) {
  if (!cycles || pipe >= kNumPipes)
    return;
  LineCost &line = lineCost(record.loc);
  line.stalled[pipe] += cycles;
  line.waits[static_cast<unsigned>(why)] += cycles;
  result.waits[static_cast<unsigned>(why)] += cycles;
  if (from)
    line.waitedFor[from] += cycles;
}

void Simulator::Impl::holdPipe(const Record &record, Subcore &subcore,
                               Pipe pipe, Release ready, SyncKind kind,
                               WaitReason why) {
  unsigned k = static_cast<unsigned>(kind);
  ++result.sync.count[k];
  unsigned p = static_cast<unsigned>(pipe);
  if (p >= kNumPipes)
    return;
  uint64_t &free = subcore.pipeFree[p];
  if (ready.time > free) {
    chargeWait(record, p, ready.time - free, why, ready.loc);
    result.sync.cycles[k] += ready.time - free;
  }
  if (pipe == Pipe::S)
    for (uint64_t &other : subcore.pipeFree)
      other = std::max(other, ready.time);
  free = std::max(free, ready.time);
}

void Simulator::Impl::account(const PendingRecord &pending, unsigned core,
                              unsigned subcore, Pipe pipe, uint64_t freeBefore,
                              uint64_t start, uint64_t end,
                              const Constraint &bound) {
  const Record &record = pending.record;
  unsigned p = static_cast<unsigned>(pipe);
  if (p >= kNumPipes)
    return;
  lineCost(record.loc).busy[p] += end - start;
  if (start > freeBefore)
    chargeWait(record, p, start - freeBefore, bound.reason, bound.loc);
  if (options.timeline)
    result.timeline.push_back(
        {pending.index, record.item, record.loc, static_cast<uint16_t>(core),
         static_cast<uint8_t>(subcore), static_cast<uint8_t>(p), record.kind,
         record.sub, record.op, start, end});
}

/// The key a flag between pipes pairs by: its pipes, event and lane; in a
/// compiled kernel's block its core too (each core's flags are its own,
/// and both sides of a cube-to-vector flag of a PTO in-core function name
/// their lane alike).
static std::tuple<unsigned, unsigned, unsigned, unsigned>
flagKey(const Record &record, unsigned subcore, const ItemTiming &timing) {
  return {record.set_pipe, record.wait_pipe, record.op,
          timing.explicitSync ? kNumSubcores + subcore : record.lane};
}

/// The core of the AI core a record runs on.
static unsigned subcoreOf(const Record &record) {
  switch (record.getCore()) {
  case CoreKind::Cube:
    return 0;
  case CoreKind::Vector:
    return 1 + (record.lane & 1);
  case CoreKind::AiCore:
    return 0;
  }
  return 0;
}

Error Simulator::Impl::timeRecord(const PendingRecord &pending, AiCore &core,
                                  unsigned coreIndex, ItemTiming &timing) {
  const Record &record = pending.record;
  unsigned subcoreIndex =
      timing.vectorSubcore ? timing.vectorSubcore : subcoreOf(record);
  Subcore &subcore = core.subcores[subcoreIndex];
  CoreStats &stats = result.cores[coreIndex];
  uint64_t earliest = timing.gate;
  // What the op waits on, when it waits.
  Constraint bound;
  bound.raise(timing.gate, WaitReason::Capacity);

  switch (record.getKind()) {
  case RecordKind::WorkBegin:
  case RecordKind::WorkEnd:
    return Error::success();
  case RecordKind::SetFlag: {
    // The flag is set when everything issued on its pipe has completed.
    uint32_t lastLoc =
        record.set_pipe < kNumPipes ? subcore.lastLoc[record.set_pipe] : 0;
    Release at{std::max(subcore.pipeDone[record.set_pipe], earliest),
               lastLoc ? lastLoc : record.loc};
    if (record.isBufferId()) {
      subcore.bufferIdFree[record.op] = at;
    } else if (record.isCrossCore()) {
      // Set on one core, taken by the other.
      merge::forEachCrossCoreFlag(
          record, [&](bool toCube, uint16_t flag, unsigned lane) {
            core.flags[{kCrossCoreKey, toCube, flag, lane}].push_back(at);
          });
    } else {
      core.flags[flagKey(record, subcoreIndex, timing)].push_back(at);
    }
    return Error::success();
  }
  case RecordKind::WaitFlag: {
    if (record.isBufferId()) {
      // Acquiring a buffer id waits for its last release.
      auto it = subcore.bufferIdFree.find(record.op);
      holdPipe(record, subcore, record.getSetPipe(),
               it == subcore.bufferIdFree.end() ? Release() : it->second,
               SyncKind::BufferId, WaitReason::BufferId);
      return Error::success();
    }
    if (record.isCrossCore()) {
      Release ready;
      std::optional<std::pair<bool, unsigned>> missing;
      merge::forEachCrossCoreFlag(
          record, [&](bool toCube, uint16_t flag, unsigned lane) {
            auto it = core.flags.find({kCrossCoreKey, toCube, flag, lane});
            if (it == core.flags.end() || it->second.empty()) {
              missing = {toCube, lane};
              return;
            }
            if (it->second.front().time >= ready.time)
              ready = it->second.front();
            it->second.pop_front();
          });
      if (missing)
        return fail(pending, "waits for cross-core flag " + Twine(record.op) +
                                 " from the " +
                                 (missing->first
                                      ? "vector core " + Twine(missing->second)
                                      : Twine("cube")) +
                                 ", which no earlier set raises: no "
                                 "progress is possible");
      holdPipe(record, subcore, record.getWaitPipe(), ready,
               SyncKind::CrossCoreFlag, WaitReason::CrossCoreFlag);
      return Error::success();
    }
    auto it = core.flags.find(flagKey(record, subcoreIndex, timing));
    if (it == core.flags.end() || it->second.empty())
      return fail(pending, "waits for flag " + getName(record.getSetPipe()) +
                               " -> " + getName(record.getWaitPipe()) +
                               " event " + Twine(record.op) +
                               ", which no earlier set_flag raises: no "
                               "progress is possible");
    holdPipe(record, subcore, record.getWaitPipe(), it->second.front(),
             SyncKind::Flag, WaitReason::Flag);
    it->second.pop_front();
    return Error::success();
  }
  case RecordKind::PipeBarrier: {
    if (record.barrierPipe() != Pipe::All)
      return Error::success();
    // A barrier on every pipe joins the pipes of its core, or of the whole
    // AI core when it spans it.
    bool whole = record.getCore() == CoreKind::AiCore;
    uint64_t all = 0;
    for (unsigned s = 0; s < kNumSubcores; ++s)
      if (whole || s == subcoreIndex)
        for (uint64_t done : core.subcores[s].pipeDone)
          all = std::max(all, done);
    // The scalar unit issues nothing past the barrier until every pipe
    // is done: the wait is the scalar pipe's.
    unsigned scalar = static_cast<unsigned>(Pipe::S);
    uint64_t issue = subcore.pipeFree[scalar];
    if (all > issue) {
      result.sync.cycles[static_cast<unsigned>(SyncKind::Barrier)] +=
          all - issue;
      chargeWait(record, scalar, all - issue, WaitReason::Barrier, 0);
    }
    for (unsigned s = 0; s < kNumSubcores; ++s)
      if (whole || s == subcoreIndex)
        for (uint64_t &free : core.subcores[s].pipeFree)
          free = std::max(free, all);
    ++result.sync.count[static_cast<unsigned>(SyncKind::Barrier)];
    return Error::success();
  }
  case RecordKind::MemoryBar: {
    auto it = subcore.tags.find({record.tag_id, record.tag_slot});
    if (it == subcore.tags.end())
      return fail(pending, "waits for tag (" + Twine(record.tag_id) + ", " +
                               Twine(record.tag_slot) +
                               "), which no earlier async DMA bound: no "
                               "progress is possible");
    uint64_t arrival = std::max(it->second, earliest);
    subcore.tags.erase(it);
    // The barrier stands for the data: readers of the buffers it names
    // wait for the arrival.
    recordWrites(record, arrival, arrival, false, false, false);
    timing.done = std::max(timing.done, arrival);
    return Error::success();
  }
  case RecordKind::Pop: {
    // A pop can complete once every lane queue it drains has the data.
    uint64_t arrival = earliest;
    for (unsigned lane = 0; lane < 2; ++lane) {
      if (!(record.laneMask() >> lane & 1))
        continue;
      QueueTimes &queue = core.queues[queueKey(record, lane)];
      size_t index = queue.popped.size();
      if (index >= queue.pushed.size())
        return fail(pending, "pops from pipe " + Twine(record.op) + " lane " +
                                 Twine(lane) +
                                 ", which no earlier push "
                                 "filled: no progress is possible");
      arrival = std::max(arrival, queue.pushed[index]);
    }
    if (config.crossCoreViaGm) {
      // The consumer loads the tile from the workspace: a transfer like
      // any other, after the push has stored it.
      bound.raise(arrival, WaitReason::PipeSlot);
      break;
    }
    // On a direct path the push delivered the tile into the consumer's
    // buffer: the pop completes when it has arrived.
    for (unsigned lane = 0; lane < 2; ++lane)
      if (record.laneMask() >> lane & 1)
        core.queues[queueKey(record, lane)].popped.push_back(arrival);
    recordWrites(record, arrival, arrival, false, false, false);
    if (record.getSpace() != Space::GM)
      for (uint64_t buffer : record.writes())
        setVersion(buffer, {record.write_bytes, arrival, record.getSpace()});
    timing.done = std::max(timing.done, arrival);
    stats.finish = std::max(stats.finish, arrival);
    return Error::success();
  }
  case RecordKind::Push:
  case RecordKind::Dma:
  case RecordKind::Compute:
    break;
  }

  bool cube =
      record.getKind() == RecordKind::Compute && record.unit() == Unit::Cube;
  bool accumulate = cube && record.hasFlag();
  bool transfer = record.getKind() != RecordKind::Compute;
  Pipe pipe = transfer                        ? getPipe(transferPath(record))
              : cube                          ? Pipe::M
              : record.unit() == Unit::Vector ? Pipe::V
                                              : Pipe::S;
  if (!timing.explicitSync) {
    Release data = dependencies(record, cube, accumulate);
    bound.raise(data.time, WaitReason::Data, data.loc);
  }
  bound.raise(gmDependency(record), WaitReason::GmOrder);
  bound.raise(versionGate(record, timing, bound.time, accumulate),
              WaitReason::Capacity);
  if (record.getKind() == RecordKind::Push && record.tag_slot) {
    // A push needs a free slot in each lane queue it fills: the pop
    // `slots` pushes back has completed.
    for (unsigned lane = 0; lane < 2; ++lane) {
      if (!(record.laneMask() >> lane & 1))
        continue;
      QueueTimes &queue = core.queues[queueKey(record, lane)];
      size_t index = queue.pushed.size();
      if (index < record.tag_slot)
        continue;
      size_t freedBy = index - record.tag_slot;
      if (freedBy >= queue.popped.size())
        return fail(pending, "pushes into pipe " + Twine(record.op) + " lane " +
                                 Twine(lane) + " with all " +
                                 Twine(record.tag_slot) +
                                 " slots full and no later pop in the "
                                 "trace: no progress is possible");
      bound.raise(queue.popped[freedBy], WaitReason::PipeSlot);
    }
  }
  Expected<uint64_t> cycles =
      duration(pending, core, subcore, bound, !timing.explicitSync);
  if (!cycles)
    return cycles.takeError();
  uint64_t &free = subcore.pipeFree[static_cast<unsigned>(pipe)];
  uint64_t freeBefore = free;
  uint64_t start = std::max(free, bound.time);
  // The pipe is busy for the transfer or the op; a DMA completes after
  // its latency too, which overlaps the next transfer.
  free = start + *cycles;
  uint64_t end = free + (transfer ? config.dmaLatency : 0);
  uint64_t &pipeDone = subcore.pipeDone[static_cast<unsigned>(pipe)];
  pipeDone = std::max(pipeDone, end);
  subcore.lastLoc[static_cast<unsigned>(pipe)] = record.loc;
  bool async = record.getKind() == RecordKind::Dma && record.hasFlag();
  if (async)
    subcore.tags[{record.tag_id, record.tag_slot}] = end;
  // An async load is done, for its readers, when issued.
  recordWrites(record, start, async ? start : end, cube, cube, accumulate);
  // Readers hold the version they read until they are done.
  for (uint64_t buffer : record.reads()) {
    auto it = buffers.find(buffer);
    if (it != buffers.end() && it->second.hasVersion)
      it->second.version.readsDone =
          std::max(it->second.version.readsDone, end);
  }
  if (record.getSpace() != Space::GM && !accumulate)
    for (uint64_t buffer : record.writes())
      setVersion(buffer, {record.write_bytes, end, record.getSpace()});
  recordGmAccess(record, end);
  if (cube) {
    core.matmulDone.push_back(end);
    ++core.matmulCount;
  }
  if (record.getKind() == RecordKind::Push ||
      record.getKind() == RecordKind::Pop) {
    bool push = record.getKind() == RecordKind::Push;
    for (unsigned lane = 0; lane < 2; ++lane)
      if (record.laneMask() >> lane & 1) {
        QueueTimes &queue = core.queues[queueKey(record, lane)];
        (push ? queue.pushed : queue.popped).push_back(end);
      }
  }
  if (transfer) {
    subcore.dmaInFlight.push_back(end);
    DmaPath path = transferPath(record);
    result.pathBytes[static_cast<unsigned>(path)] += record.amount;
    // A cross-core workspace is reused and stays in L2: it counts as GM
    // traffic, never as HBM's.
    bool workspace = record.getKind() != RecordKind::Dma;
    if (touchesGm(path) && workspace) {
      result.gmBytes += record.amount;
    } else if (touchesGm(path)) {
      bool fromGm = getSource(path) == Space::GM;
      result.gmBytes += record.amount;
      // With an L2, only the first touch of a GM box reaches HBM.
      ArrayRef<uint64_t> ids = fromGm ? record.reads() : record.writes();
      uint64_t buffer = ids.empty() ? 0 : ids.front();
      if (!config.l2Bytes || firstTouch(buffer, record.gm_offset))
        result.hbmBytes += record.amount;
    }
    stats.busy[subcoreIndex][static_cast<unsigned>(pipe)] += free - start;
    account(pending, coreIndex, subcoreIndex, pipe, freeBefore, start, end,
            bound);
  } else {
    if (cube)
      result.cubeMacs += static_cast<uint64_t>(record.shape[0]) *
                         record.shape[1] * record.shape[2];
    else
      result.vectorElements += record.amount;
    stats.busy[subcoreIndex][static_cast<unsigned>(pipe)] += end - start;
    account(pending, coreIndex, subcoreIndex, pipe, freeBefore, start, end,
            bound);
  }
  timing.done = std::max(timing.done, end);
  stats.finish = std::max(stats.finish, end);
  return Error::success();
}

Expected<SimResult> Simulator::Impl::finish() {
  if (firstError)
    return std::move(*firstError);
  if (!activeKnown)
    setActiveCores(std::min<unsigned>(numCores, std::max(1u, itemsSeen)));
  if (Error error = flushReady())
    return std::move(error);
  // Items that never ended, in the order they appeared.
  for (uint32_t id : appeared)
    if (Error error = timePending(id))
      return std::move(error);
  result.records = count;
  result.availableCores = numCores;
  result.vectorCoresUsed = vectorPlaces.size();
  for (const CoreStats &core : result.cores)
    result.coreCycles = std::max(result.coreCycles, core.finish);
  result.hbmCycles = static_cast<uint64_t>(
      std::ceil(result.hbmBytes / std::max(config.hbmBytesPerCycle, 1e-9)));
  if (config.l2Bytes)
    result.l2Cycles = static_cast<uint64_t>(
        std::ceil(result.gmBytes / std::max(config.l2BytesPerCycle, 1e-9)));
  result.launchCycles = config.launchCycles;
  result.cycles =
      config.launchCycles +
      std::max({result.coreCycles, result.hbmCycles, result.l2Cycles});
  result.seconds = result.cycles / (config.clockGHz * 1e9);
  for (const auto &entry : defaultCost)
    result.defaultCostOps.push_back(entry.getKey().str());
  llvm::sort(result.defaultCostOps);
  return std::move(result);
}

Simulator::Simulator(const TraceTables &tables, const MachineConfig &config,
                     const SimOptions &options)
    : impl(std::make_unique<Impl>(tables, config, options)) {}
Simulator::~Simulator() = default;
void Simulator::add(const Record &record) { impl->add(record); }
Expected<SimResult> Simulator::finish() { return impl->finish(); }

void SimulatingSink::emit(const Record &produced) {
  Record record = produced;
  for (uint64_t &buffer :
       MutableArrayRef(record.buffers, record.num_reads + record.num_writes))
    buffer = bufferIds.try_emplace(buffer, bufferIds.size() + 1).first->second;
  simulator.add(record);
  if (copy)
    copy->emit(record);
}

Expected<SimResult> timing::simulate(const Trace &trace,
                                     const MachineConfig &config,
                                     const SimOptions &options) {
  Simulator simulator(trace.tables, config, options);
  for (const Record &record : trace.records)
    simulator.add(record);
  return simulator.finish();
}

Expected<SimResult> timing::simulate(TraceReader &reader,
                                     const MachineConfig &config,
                                     const SimOptions &options) {
  Simulator simulator(reader.getTables(), config, options);
  while (true) {
    Expected<const Record *> record = reader.next();
    if (!record)
      return record.takeError();
    if (!*record)
      break;
    simulator.add(**record);
  }
  return simulator.finish();
}
