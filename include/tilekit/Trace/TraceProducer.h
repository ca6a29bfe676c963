//===- TraceProducer.h - What a compiled trace producer calls -----*- C++
//-*-===//
//
// The runtime of a compiled trace producer (`tilekit compile
// --emit=trace-producer`): the kernel's control flow and index arithmetic
// run as C++, and each op that the executor would trace calls one of the
// functions below, which writes the same record the executor writes
// (lib/Interp/TraceEmitter.cpp) through the sink of TraceABI.h. No tile
// data exists here: a tile is its buffer and its valid shape, a GM tensor
// its storage and its shape.
//
// The generated file holds, per op, a prototype record with everything
// the IR fixes (kind, core, path or unit, element size, space, written
// bytes, static shape, name and location indices into the file's own
// tables); the calls fill in what the run decides. Header-only, C++17,
// depending only on other such headers (TraceABI.h, MergeOrder.h,
// CrossCorePipes.h with Machine.def, MachineArith.h), so that a producer
// builds with nothing but a compiler. Docs: docs/trace-format.md ("Compiled
// producers").
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TRACE_TRACEPRODUCER_H
#define TILEKIT_TRACE_TRACEPRODUCER_H

#include "tilekit/Trace/TraceABI.h"

#include "tilekit/Interp/MachineArith.h"
#include "tilekit/Machine/CrossCorePipes.h"
#include "tilekit/Trace/MergeOrder.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace tilekit_producer {

/// A tile: the buffer it lives in and its valid shape (rank <= 3; unused
/// extents are 1).
struct Tile {
  uint64_t buffer = 0;
  int64_t valid[3] = {1, 1, 1};
};

/// A GM tensor: its storage and its shape (rank <= 4).
struct Tensor {
  uint64_t storage = 0;
  int rank = 0;
  int64_t shape[4] = {1, 1, 1, 1};
};

/// A fault of the kernel at these shapes (an offset outside a tensor, a
/// valid shape outside its box), with the op's location.
struct Fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The generated file's tables: the names and source locations records
/// refer to (the sink interns them on first use), and the op at each
/// location (for faults).
struct Tables {
  const char *const *names;
  size_t numNames;
  const char *const *locationFiles;
  const uint32_t *locationLines; // line, column pairs
  const char *const *locationOps;
  size_t numLocations;
  uint32_t numSlots;
};

/// What the cores of one run share: the sink (called under `sinkMutex`:
/// the cores of a group intern names on their threads), buffer and work
/// item numbers.
struct Shared {
  const tilekit_trace_sink *sink;
  const Tables *tables;
  std::mutex sinkMutex;
  std::atomic<uint64_t> nextBuffer{1};
  uint32_t nextItem = 0;
  /// Pushes never block (the reference runtime's unbounded queues).
  bool unboundedPipes = false;
  uint64_t records = 0;
  /// The run's limits: records written or held (by any core), bytes held,
  /// and the deadline; `stopped` once one was passed.
  tilekit_trace_limits limits{};
  std::chrono::steady_clock::time_point deadline;
  std::atomic<uint64_t> counted{0}, heldBytes{0};
  /// Bytes of the records of the open work item handed to the sink (the
  /// timing model keeps an item's records until it ends), unless the item
  /// is a compiled kernel's block, which the model times as it comes.
  uint64_t itemBytes = 0;
  bool streamedItem = false;
  std::atomic<bool> stopped{false};
};

class GroupRun;
struct Context;

/// The context of the core running on this thread: the generated code
/// passes `ctx()` to every call.
inline thread_local Context *current = nullptr;
inline Context &ctx() { return *current; }

/// The state of one core of a run: the main one, or a core of a group
/// launch, whose records are kept in `stream` until the group ends.
struct Context {
  Shared *shared = nullptr;
  std::vector<int32_t> nameIds, locationIds; // sink indices, -1: not yet
  int64_t blockIndex = 0, blockCount = 1;
  uint32_t item = 0;
  int depth = 0; // nested work items (the outermost one counts)
  /// Per buffer slot of the file: the item it was last given a buffer in
  /// (+1, 0: never) and that buffer. A tile value keeps one buffer per
  /// work item (and core), as the executor's static buffers do.
  std::vector<uint32_t> slotItem;
  std::vector<uint64_t> slotBuffer;
  GroupRun *group = nullptr;
  bool cube = false;
  unsigned lane = 0;
  std::vector<tilekit_trace_record> stream;

  Context(Shared &shared) : shared(&shared) {
    const Tables &t = *shared.tables;
    nameIds.assign(t.numNames, -1);
    locationIds.assign(t.numLocations, -1);
    slotItem.assign(t.numSlots, 0);
    slotBuffer.assign(t.numSlots, 0);
  }

  /// The context of another core of this one's work item, on a thread of
  /// its own: the same item, block and interned names, buffers of its own.
  Context forCore() const {
    Context core(*shared);
    core.nameIds = nameIds;
    core.locationIds = locationIds;
    core.blockIndex = blockIndex;
    core.blockCount = blockCount;
    core.item = item;
    core.depth = depth;
    return core;
  }
};

inline uint16_t nameId(Context &ctx, uint16_t index) {
  if (ctx.nameIds[index] < 0) {
    Shared &shared = *ctx.shared;
    std::lock_guard<std::mutex> lock(shared.sinkMutex);
    ctx.nameIds[index] = shared.sink->intern_name(shared.sink->context,
                                                  shared.tables->names[index]);
  }
  return static_cast<uint16_t>(ctx.nameIds[index]);
}

inline uint32_t locationId(Context &ctx, uint32_t index) {
  if (index == 0)
    return 0;
  if (ctx.locationIds[index] < 0) {
    Shared &shared = *ctx.shared;
    const Tables &t = *shared.tables;
    std::lock_guard<std::mutex> lock(shared.sinkMutex);
    ctx.locationIds[index] = static_cast<int32_t>(shared.sink->intern_location(
        shared.sink->context, t.locationFiles[index],
        t.locationLines[2 * index], t.locationLines[2 * index + 1]));
  }
  return static_cast<uint32_t>(ctx.locationIds[index]);
}

/// `file:line:col: 'op'` of a prototype record's location.
inline std::string where(const Context &ctx,
                         const tilekit_trace_record &proto) {
  const Tables &t = *ctx.shared->tables;
  if (!proto.loc)
    return "?";
  return std::string(t.locationFiles[proto.loc]) + ":" +
         std::to_string(t.locationLines[2 * proto.loc]) + ":" +
         std::to_string(t.locationLines[2 * proto.loc + 1]) + ": '" +
         t.locationOps[proto.loc] + "'";
}

[[noreturn]] inline void fail(Context &ctx, const tilekit_trace_record &proto,
                              const std::string &message) {
  throw Fault(where(ctx, proto) + " " + message);
}

/// No second result.
constexpr uint32_t kNoSlot = ~uint32_t(0);

inline uint64_t newBuffer(Context &ctx) { return ctx.shared->nextBuffer++; }

/// The buffer of slot `slot` in the current work item.
inline uint64_t slotBuffer(Context &ctx, uint32_t slot) {
  if (ctx.slotItem[slot] != ctx.item + 1) {
    ctx.slotItem[slot] = ctx.item + 1;
    ctx.slotBuffer[slot] = newBuffer(ctx);
  }
  return ctx.slotBuffer[slot];
}

inline void addRead(tilekit_trace_record &r, uint64_t buffer) {
  tilekit_trace_add_read(&r, buffer);
}
inline void addWrite(tilekit_trace_record &r, uint64_t buffer) {
  tilekit_trace_add_write(&r, buffer);
}

/// A record of the current work item from `proto`, its names and location
/// given the sink's indices.
inline tilekit_trace_record begin(Context &ctx,
                                  const tilekit_trace_record &proto) {
  tilekit_trace_record r = proto;
  r.item = ctx.item;
  r.loc = locationId(ctx, proto.loc);
  if (ctx.group) {
    r.core = ctx.cube ? TILEKIT_TRACE_CUBE : TILEKIT_TRACE_VECTOR;
    r.lane = static_cast<uint8_t>(ctx.cube ? 0 : ctx.lane);
  }
  if (r.kind == TILEKIT_TRACE_COMPUTE) {
    r.op = nameId(ctx, proto.op);
    r.dtype = nameId(ctx, proto.dtype);
  }
  return r;
}

/// Stops the run: the records held at once passed the memory budget.
[[noreturn]] inline void stopOverBudget(Shared &shared) {
  shared.stopped = true;
  throw Fault("stopped: the trace records held at once passed the memory "
              "budget of " +
              std::to_string(shared.limits.max_bytes >> 20) +
              " MiB (--memory-budget)");
}

/// Stops the run past one of its limits (checked as each record is made;
/// the clock every 1024 records).
inline void checkLimits(Shared &shared, bool held) {
  const tilekit_trace_limits &limits = shared.limits;
  uint64_t count = ++shared.counted;
  auto stop = [&](const std::string &why) {
    shared.stopped = true;
    throw Fault(why);
  };
  if (limits.max_records && count > limits.max_records)
    stop("stopped after " + std::to_string(limits.max_records) +
         " trace records (--max-steps)");
  if (held && limits.max_bytes &&
      (shared.heldBytes += sizeof(tilekit_trace_record)) > limits.max_bytes)
    stopOverBudget(shared);
  if (limits.timeout_ms && count % 1024 == 0 &&
      std::chrono::steady_clock::now() > shared.deadline)
    stop("stopped after " + std::to_string(limits.timeout_ms) +
         " ms (--timeout)");
}

/// Hands a record to the sink, within the memory budget: the sink holds
/// the open work item's records, the producer its group launches'.
inline void sinkRecord(Shared &shared, const tilekit_trace_record &r) {
  shared.itemBytes = r.kind == TILEKIT_TRACE_WORK_END ? 0
                     : shared.streamedItem
                         ? shared.itemBytes
                         : shared.itemBytes + sizeof(tilekit_trace_record);
  if (shared.limits.max_bytes &&
      shared.itemBytes + shared.heldBytes > shared.limits.max_bytes)
    stopOverBudget(shared);
  shared.sink->emit(shared.sink->context, &r);
  ++shared.records;
}

/// A record the running core made: to the sink, or kept in the core's
/// stream until its group launch ends.
inline void emit(Context &ctx, const tilekit_trace_record &r) {
  checkLimits(*ctx.shared, /*held=*/ctx.group != nullptr);
  if (ctx.group)
    ctx.stream.push_back(r);
  else
    sinkRecord(*ctx.shared, r);
}

inline int64_t elements(const Tile &tile, int rank) {
  int64_t n = 1;
  for (int d = 0; d < rank; ++d)
    n *= tile.valid[d];
  return n;
}

/// The shape fields from the last (up to three) extents.
inline void setShape(tilekit_trace_record &r, const int64_t *extents,
                     int rank) {
  int first = rank > 3 ? rank - 3 : 0;
  for (int i = first; i < rank; ++i)
    r.shape[i - first] = static_cast<uint32_t>(extents[i]);
}

/// The element offset of `offsets` in `tensor` and the strides of its two
/// innermost dimensions.
inline uint64_t gmOffset(tilekit_trace_record &r, const Tensor &tensor,
                         const int64_t *offsets) {
  uint64_t linear = 0;
  for (int d = 0; d < tensor.rank; ++d)
    linear = linear * static_cast<uint64_t>(tensor.shape[d]) +
             static_cast<uint64_t>(offsets[d]);
  r.strides[0] = tensor.rank >= 2
                     ? static_cast<uint32_t>(tensor.shape[tensor.rank - 1])
                     : 1;
  r.strides[1] = 1;
  return linear;
}

inline void checkValid(Context &ctx, const tilekit_trace_record &proto,
                       const int64_t *valid, const int64_t *box, int rank) {
  for (int d = 0; d < rank; ++d)
    if (valid[d] < 0 || valid[d] > box[d])
      fail(ctx, proto,
           "valid extent " + std::to_string(valid[d]) + " of dimension " +
               std::to_string(d) + " does not fit the box extent " +
               std::to_string(box[d]));
}

/// Index operands gathered for a call: `ints(a, b)` passes as a pointer to
/// its two values.
template <size_t N> struct Ints {
  int64_t values[N ? N : 1];
  operator const int64_t *() const { return values; }
};
template <typename... T> inline Ints<sizeof...(T)> ints(T... values) {
  return Ints<sizeof...(T)>{{static_cast<int64_t>(values)...}};
}

/// A vector op's tile operand: its rank, element size and type name.
struct OperandInfo {
  int rank;
  uint8_t size;
  uint16_t dtype;
};

/// How a vector op's result gets its valid shape from its tile operand
/// `from`: the same (elementwise ops, casts, scans, sorts, gathers), with
/// the last or second-to-last extent 1 (row and column reductions), its
/// first or second extent and the box's others (row and column
/// broadcasts), transposed; or its whole box (fillpad, iota), or its
/// valid-shape operands (tile.full; the box without).
enum class ValidRule {
  Operand,
  RowReduce,
  ColReduce,
  RowBroadcast,
  ColBroadcast,
  Transpose,
  Box,
  Given
};

inline int64_t resultExtent(ValidRule rule, const Tile *from,
                            const int64_t *box, const int64_t *given, int rank,
                            int d) {
  switch (rule) {
  case ValidRule::Operand:
    return from->valid[d];
  case ValidRule::RowReduce:
    return d == rank - 1 ? 1 : from->valid[d];
  case ValidRule::ColReduce:
    return d == rank - 2 ? 1 : from->valid[d];
  case ValidRule::RowBroadcast:
    return d == 0 ? from->valid[0] : box[d];
  case ValidRule::ColBroadcast:
    return d == 1 ? from->valid[1] : box[d];
  case ValidRule::Transpose:
    return from->valid[1 - d];
  case ValidRule::Box:
    return box[d];
  case ValidRule::Given:
    return given ? given[d] : box[d];
  }
  return box[d];
}

/// The two results of a vector op writing two tiles (argmax's values and
/// indices, the sorts').
struct TilePair {
  Tile first, second;
};
inline Tile first(const TilePair &pair) { return pair.first; }
inline Tile second(const TilePair &pair) { return pair.second; }

inline ptrdiff_t dim(const Tensor &tensor, int d) { return tensor.shape[d]; }
inline ptrdiff_t valid_dim(const Tile &tile, int d) { return tile.valid[d]; }
inline ptrdiff_t block_index(const Context &ctx) { return ctx.blockIndex; }
inline ptrdiff_t block_count(const Context &ctx) { return ctx.blockCount; }

/// The entry points' arguments: a tensor's dims (checked against the static
/// ones of `shape`, like `?x128`), a scalar's value.
inline Tensor bindTensor(Context &ctx, const int64_t *args, size_t count,
                         size_t &at, const char *name, const char *shape) {
  Tensor tensor;
  tensor.storage = newBuffer(ctx);
  std::string dims = shape;
  size_t start = 0;
  while (true) {
    size_t end = dims.find('x', start);
    std::string dim = dims.substr(start, end - start);
    if (at >= count)
      throw Fault(std::string("too few arguments: tensor ") + name +
                  " needs its dimensions");
    int64_t extent = args[at++];
    if (extent < 0 || (dim != "?" && std::stoll(dim) != extent))
      throw Fault(std::string("tensor ") + name + " of shape " + shape +
                  " cannot have extent " + std::to_string(extent) +
                  " in dimension " + std::to_string(tensor.rank));
    tensor.shape[tensor.rank++] = extent;
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return tensor;
}

inline int64_t bindScalar(const int64_t *args, size_t count, size_t &at) {
  if (at >= count)
    throw Fault("too few arguments");
  return args[at++];
}

inline double asDouble(int64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline void checkArgumentCount(size_t count, size_t used) {
  if (count != used)
    throw Fault("expected " + std::to_string(used) + " arguments, not " +
                std::to_string(count));
}

inline void report(const std::exception &fault, char *error, size_t size) {
  if (!size)
    return;
  std::strncpy(error, fault.what(), size - 1);
  error[size - 1] = 0;
}

/// A tile crossing between cores: its box and valid shape (2-D).
using Payload = ::tilekit::pipes::Extents;

/// Whether a data path leaves L0C (a tile the cube pushed).
inline bool leavesL0C(uint8_t path) {
  static const char *const sources[] = {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY) #FROM,
#include "tilekit/Machine/Machine.def"
  };
  return path < sizeof(sources) / sizeof(sources[0]) &&
         std::string(sources[path]) == "L0C";
}

/// The queues, slots and threads of one group launch: the rules of
/// tilekit/Machine/CrossCorePipes.h, which the executor's GroupRuntime
/// (lib/Interp/GroupRuntime.cpp) runs too, over tiles without data. A
/// fault is thrown at the op (a Fault), a stopped launch ends each core.
class GroupRun {
public:
  using Queues = ::tilekit::pipes::PipeQueues<Payload, std::string>;

  GroupRun(bool dualNoSplit, bool unbounded)
      : queues(::tilekit::pipes::Topology(dualNoSplit), unbounded) {}

  const ::tilekit::pipes::Topology &topology() const {
    return queues.getTopology();
  }

  void initializePipe(Context &ctx, const tilekit_trace_record &proto,
                      bool cubeEnd, int64_t pipe, unsigned directions,
                      int64_t num, int64_t size) {
    std::lock_guard<std::mutex> lock(mutex);
    for (bool toAiv : {true, false})
      if (directions & (toAiv ? 1u : 2u))
        declaredAt[{toAiv, pipe, cubeEnd}] = where(ctx, proto);
    std::optional<bool> toAiv = queues.declareSlots(
        cubeEnd, pipe, directions, ::tilekit::pipes::Slots{num, size});
    // Named at the aiv end whichever end declared second, so that the
    // message does not depend on the threads' timing.
    if (toAiv)
      throw Fault(declaredAt[{*toAiv, pipe, false}] + " " +
                  queues.describeDisagreement(*toAiv, pipe));
  }

  /// The pushing end's slot count (0: none declared, unbounded).
  int64_t slotCount(bool fromCube, int64_t pipe) const {
    std::optional<::tilekit::pipes::Slots> limit =
        queues.pushLimit(fromCube, pipe);
    return limit ? limit->count : 0;
  }

  /// Pushes `parts` (one per key) once every key's queue has a free slot.
  void push(Context &ctx, const tilekit_trace_record &proto, bool fromCube,
            int64_t pipe, const std::vector<::tilekit::pipes::QueueKey> &keys,
            std::vector<Payload> parts) {
    if (std::optional<::tilekit::pipes::Slots> limit =
            queues.pushLimit(fromCube, pipe)) {
      const Payload &first = parts.front();
      std::string error = ::tilekit::pipes::checkSlotBytes(
          first.box[0] * first.box[1] * proto.elem_size, pipe, *limit);
      if (!error.empty())
        fail(ctx, proto, error);
    }
    if (!queues.push(&ctx, where(ctx, proto), fromCube, pipe, keys,
                     std::move(parts)))
      throw Cancelled{};
  }

  /// Pops the front of each of `keys` once all have one.
  std::vector<Payload>
  pop(Context &ctx, const tilekit_trace_record &proto,
      const std::vector<::tilekit::pipes::QueueKey> &keys) {
    std::vector<Payload> parts;
    if (!queues.pop(&ctx, where(ctx, proto), keys, parts))
      throw Cancelled{};
    return parts;
  }

  /// Why the launch stopped, empty when it ran to the end: the first
  /// fault, or the deadlock with each waiter.
  std::string getFailure() const {
    if (std::optional<std::string> failure = queues.getFailure())
      return *failure;
    std::optional<Queues::Report> report = queues.getReport();
    if (!report)
      return "";
    std::string text = report->reason + ":";
    for (const Queues::Waiter &waiter : report->waiters)
      text += " " + waiter.who + " waits in " + waiter.site + ";";
    text.pop_back();
    return text;
  }

  /// Runs `body` as core `ctx` of the group; a fault stops the group.
  void runCore(Context &ctx, const std::function<void()> &body) {
    try {
      body();
    } catch (const Cancelled &) {
    } catch (const std::exception &fault) {
      queues.fail(fault.what());
    }
    queues.finished(&ctx);
  }
  /// Registers core `ctx` (before any core runs).
  void addCore(Context &ctx, std::string name) {
    queues.started(&ctx, std::move(name));
  }

private:
  /// Thrown on a core stopped by another's failure or a deadlock.
  struct Cancelled {};

  Queues queues;
  std::mutex mutex;
  /// Where each end declared its slots (for messages).
  std::map<std::tuple<bool, int64_t, bool>, std::string> declaredAt;
};

inline Payload payloadOf(const Tile &tile, const int64_t *box, int rank) {
  Payload payload;
  payload.rank = rank;
  for (int d = 0; d < rank && d < 2; ++d) {
    payload.box[d] = box[d];
    payload.valid[d] = tile.valid[d];
  }
  return payload;
}

/// A popped tile of box `box` from `payload`.
inline Tile tileOf(Context &ctx, const tilekit_trace_record &proto,
                   uint32_t slot, const Payload &payload, const int64_t *box,
                   int rank) {
  if (payload.rank != rank)
    fail(ctx, proto,
         "receives a tile of rank " + std::to_string(payload.rank) +
             " as a tile of rank " + std::to_string(rank));
  Tile tile;
  for (int d = 0; d < rank; ++d) {
    if (payload.valid[d] > box[d])
      fail(ctx, proto,
           "receives a tile whose valid extent " +
               std::to_string(payload.valid[d]) + " in dimension " +
               std::to_string(d) + " does not fit its box extent " +
               std::to_string(box[d]));
    tile.valid[d] = payload.valid[d];
  }
  tile.buffer = slotBuffer(ctx, slot);
  return tile;
}

/// The push or pop record of `proto` for `tile`.
inline void emitTransfer(Context &ctx, const tilekit_trace_record &proto,
                         const Tile &tile, int rank, bool push,
                         unsigned laneMask, int64_t slots) {
  tilekit_trace_record r = begin(ctx, proto);
  if (push)
    addRead(r, tile.buffer);
  else
    addWrite(r, tile.buffer);
  setShape(r, tile.valid, rank);
  r.amount = static_cast<uint64_t>(elements(tile, rank)) * proto.elem_size;
  r.tag_id = laneMask;
  r.tag_slot = static_cast<uint32_t>(slots);
  emit(ctx, r);
}

inline GroupRun &groupOf(Context &ctx, const tilekit_trace_record &proto) {
  if (!ctx.group)
    fail(ctx, proto,
         "runs outside a group launch; cross-core pipes connect the "
         "functions of a group called from orchestration");
  return *ctx.group;
}

/// Which core and lane of a group, for the group's description.
struct GroupSpec {
  const char *name;
  unsigned lanes;
  bool dualNoSplit;
};

/// Runs `body` (the entry points' argument binding and the blocks) into
/// `sink`: 0, or 1 with the fault in `error`.
inline int produce(const tilekit_trace_sink *sink, const Tables &tables,
                   int64_t blocks, uint32_t flags,
                   const tilekit_trace_limits *limits, char *error,
                   size_t errorSize,
                   const std::function<void(Context &)> &body) {
  Shared shared;
  shared.sink = sink;
  shared.tables = &tables;
  shared.unboundedPipes = flags & TILEKIT_PRODUCE_UNBOUNDED_PIPES;
  if (limits)
    shared.limits = *limits;
  shared.deadline = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(shared.limits.timeout_ms);
  Context main(shared);
  main.blockCount = blocks;
  current = &main;
  int status = 0;
  try {
    body(main);
  } catch (const std::exception &fault) {
    report(fault, error, errorSize);
    status = shared.stopped ? TILEKIT_PRODUCE_STOPPED : TILEKIT_PRODUCE_FAULT;
  }
  current = nullptr;
  return status;
}

// BEGIN CALL FORMATS
// Each traced op calls one of these with its prototype record `proto`
// (static fields), its buffer slot `slot` where it defines a tile, and its
// dynamic operands; `box` is the tile type's shape, `rank` its rank.

/// Opens a work item (an in-core call, a block of a launch); nested ones
/// belong to the outer one.
inline void tilekit_trace_work_begin(Context &ctx) {
  if (ctx.depth++ > 0)
    return;
  ctx.item = ctx.shared->nextItem++;
  tilekit_trace_record r{};
  r.kind = TILEKIT_TRACE_WORK_BEGIN;
  r.core = TILEKIT_TRACE_AICORE;
  r.item = ctx.item;
  emit(ctx, r);
}

inline void tilekit_trace_work_end(Context &ctx) {
  if (--ctx.depth > 0)
    return;
  tilekit_trace_record r{};
  r.kind = TILEKIT_TRACE_WORK_END;
  r.core = TILEKIT_TRACE_AICORE;
  r.item = ctx.item;
  emit(ctx, r);
}

/// A tile with the valid shape `valid` (the box when `count` is 0), in
/// its own buffer, without a record (tile.create).
inline Tile tilekit_trace_tile(Context &ctx, const tilekit_trace_record &proto,
                               uint32_t slot, const int64_t *box, int rank,
                               const int64_t *valid, int count) {
  Tile tile;
  for (int d = 0; d < rank; ++d)
    tile.valid[d] = count ? valid[d] : box[d];
  checkValid(ctx, proto, tile.valid, box, rank);
  tile.buffer = slotBuffer(ctx, slot);
  return tile;
}

/// The same tile with another valid shape (tile.set_validshape).
inline Tile tilekit_trace_set_valid(Context &ctx,
                                    const tilekit_trace_record &proto,
                                    const Tile &src, const int64_t *box,
                                    int rank, const int64_t *valid) {
  Tile tile = src;
  for (int d = 0; d < rank; ++d)
    tile.valid[d] = valid[d];
  checkValid(ctx, proto, tile.valid, box, rank);
  return tile;
}

/// A new GM tensor (tensor.create) in storage of its own.
inline Tensor tilekit_trace_tensor(Context &ctx, const int64_t *sizes,
                                   int rank) {
  Tensor tensor;
  tensor.storage = newBuffer(ctx);
  tensor.rank = rank;
  for (int d = 0; d < rank; ++d)
    tensor.shape[d] = sizes[d];
  return tensor;
}

/// The same GM elements with other extents (tensor.view).
inline Tensor tilekit_trace_view(Context &, const Tensor &src,
                                 const int64_t *sizes, int rank) {
  Tensor tensor = src;
  tensor.rank = rank;
  for (int d = 0; d < 4; ++d)
    tensor.shape[d] = d < rank ? sizes[d] : 1;
  return tensor;
}

/// GM -> on-chip (tile.load): the box at `offsets` clamped to the tensor
/// and to `valid` (the box when `count` is 0).
inline Tile tilekit_trace_dma_load(Context &ctx,
                                   const tilekit_trace_record &proto,
                                   uint32_t slot, const Tensor &src,
                                   const int64_t *box, int rank,
                                   const int64_t *offsets, const int64_t *valid,
                                   int count) {
  int64_t requested[3];
  for (int d = 0; d < rank; ++d)
    requested[d] = count ? valid[d] : box[d];
  checkValid(ctx, proto, requested, box, rank);
  for (int d = 0; d < src.rank; ++d)
    if (offsets[d] < 0 || offsets[d] >= src.shape[d])
      fail(ctx, proto,
           "offset " + std::to_string(offsets[d]) + " of dimension " +
               std::to_string(d) + " is outside the tensor's extent " +
               std::to_string(src.shape[d]));
  Tile tile;
  int lead = src.rank - rank;
  for (int d = 0; d < rank; ++d)
    tile.valid[d] = std::clamp<int64_t>(src.shape[lead + d] - offsets[lead + d],
                                        0, requested[d]);
  tile.buffer = slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, tile.buffer);
  addRead(r, src.storage);
  setShape(r, tile.valid, rank);
  r.gm_offset = gmOffset(r, src, offsets);
  r.amount = static_cast<uint64_t>(elements(tile, rank)) * proto.elem_size;
  emit(ctx, r);
  return tile;
}

/// On-chip -> GM (tile.store): the tile's valid region at `offsets`.
inline Tensor tilekit_trace_dma_store(Context &ctx,
                                      const tilekit_trace_record &proto,
                                      const Tile &tile, int rank,
                                      const Tensor &dst,
                                      const int64_t *offsets) {
  int lead = dst.rank - rank;
  for (int d = 0; d < dst.rank; ++d) {
    int64_t extent = d < lead ? 1 : tile.valid[d - lead];
    if (offsets[d] < 0 || (extent > 0 && extent > dst.shape[d] - offsets[d]))
      fail(ctx, proto,
           "writes the valid region past the end of the tensor in "
           "dimension " +
               std::to_string(d));
  }
  tilekit_trace_record r = begin(ctx, proto);
  addRead(r, tile.buffer);
  addWrite(r, dst.storage);
  setShape(r, tile.valid, rank);
  r.gm_offset = gmOffset(r, dst, offsets);
  r.amount = static_cast<uint64_t>(elements(tile, rank)) * proto.elem_size;
  emit(ctx, r);
  return dst;
}

/// On-chip -> on-chip (tile.move): the whole box, the valid shape kept.
inline Tile tilekit_trace_dma_move(Context &ctx,
                                   const tilekit_trace_record &proto,
                                   uint32_t slot, const Tile &src) {
  Tile tile = src;
  tile.buffer = slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, tile.buffer);
  addRead(r, src.buffer);
  emit(ctx, r);
  return tile;
}

/// A cube op (proto: M x K x N): the result's buffer is the accumulator's
/// when there is one (`hasAcc`), which it reads unless `init` holds.
inline Tile
tilekit_trace_compute_matmul(Context &ctx, const tilekit_trace_record &proto,
                             uint32_t slot, int rank, const Tile &lhs,
                             const Tile &rhs, const Tile &bias, bool hasBias,
                             const Tile &acc, bool hasAcc, bool init) {
  Tile result = lhs;
  result.valid[rank - 1] = rhs.valid[rank - 1];
  result.buffer = hasAcc ? acc.buffer : slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, result.buffer);
  addRead(r, lhs.buffer);
  addRead(r, rhs.buffer);
  if (hasBias)
    addRead(r, bias.buffer);
  bool accumulate = hasAcc && !init;
  r.flags = accumulate ? TILEKIT_TRACE_ACCUMULATE : 0;
  if (accumulate)
    addRead(r, result.buffer);
  emit(ctx, r);
  return result;
}

/// A vector op: its result's valid shape by `rule` from tile operand
/// `from`, its box or `given`; its buffer the slot's, or tile operand
/// `inPlace`'s (>= 0: tile.assemble updates its destination). The record
/// reads every tile operand (`infos`: rank, element size, type name) and
/// counts the elements of the largest one (the first one's type unless a
/// later one is larger). With `slot2`, a second result (same valid shape)
/// is written by the same instruction.
template <typename... Operands>
inline TilePair tilekit_trace_compute_vector2(
    Context &ctx, const tilekit_trace_record &proto, uint32_t slot,
    uint32_t slot2, ValidRule rule, int from, int inPlace, const int64_t *box,
    int rank, const int64_t *given, const OperandInfo *infos,
    const Operands &...operands) {
  const Tile *tiles[] = {&operands..., nullptr};
  TilePair results;
  Tile &result = results.first;
  for (int d = 0; d < rank; ++d)
    result.valid[d] = resultExtent(rule, tiles[from], box, given, rank, d);
  checkValid(ctx, proto, result.valid, box, rank);
  result.buffer = inPlace >= 0 ? tiles[inPlace]->buffer : slotBuffer(ctx, slot);
  tilekit_trace_record r = begin(ctx, proto);
  addWrite(r, result.buffer);
  if (slot2 != kNoSlot) {
    results.second = result;
    results.second.buffer = slotBuffer(ctx, slot2);
    addWrite(r, results.second.buffer);
  }
  int64_t amount = elements(result, rank);
  uint16_t dtype = proto.dtype;
  uint8_t size = proto.elem_size;
  for (size_t i = 0; i < sizeof...(Operands); ++i) {
    addRead(r, tiles[i]->buffer);
    int64_t n = elements(*tiles[i], infos[i].rank);
    if (n > amount || i == 0) {
      amount = std::max(amount, n);
      dtype = infos[i].dtype;
      size = infos[i].size;
    }
  }
  setShape(r, result.valid, rank);
  r.dtype = nameId(ctx, dtype);
  r.elem_size = size;
  r.amount = static_cast<uint64_t>(amount);
  emit(ctx, r);
  return results;
}

/// A vector op with one result (tilekit_trace_compute_vector2).
template <typename... Operands>
inline Tile
tilekit_trace_compute_vector(Context &ctx, const tilekit_trace_record &proto,
                             uint32_t slot, ValidRule rule, int from,
                             int inPlace, const int64_t *box, int rank,
                             const int64_t *given, const OperandInfo *infos,
                             const Operands &...operands) {
  return tilekit_trace_compute_vector2(ctx, proto, slot, kNoSlot, rule, from,
                                       inPlace, box, rank, given, infos,
                                       operands...)
      .first;
}

/// A box of `src` at `offsets` (tile.slice): its valid shape `valid`
/// (`count` extents) or the part of `src`'s valid region inside it.
inline Tile tilekit_trace_slice(Context &ctx, const tilekit_trace_record &proto,
                                uint32_t slot, const int64_t *box, int rank,
                                const Tile &src, const int64_t *srcBox,
                                const int64_t *offsets, const int64_t *valid,
                                int count, const OperandInfo *infos) {
  int64_t extents[3];
  for (int d = 0; d < rank; ++d) {
    if (offsets[d] < 0 || offsets[d] >= srcBox[d])
      fail(ctx, proto,
           "offset " + std::to_string(offsets[d]) + " of dimension " +
               std::to_string(d) + " is outside the source box extent " +
               std::to_string(srcBox[d]));
    extents[d] =
        count ? valid[d]
              : std::clamp<int64_t>(src.valid[d] - offsets[d], 0, box[d]);
  }
  return tilekit_trace_compute_vector(ctx, proto, slot, ValidRule::Given, 0, -1,
                                      box, rank, extents, infos, src);
}

/// The same buffer as another box, whole (tile.reshape of a tile whose
/// box `srcBox` is all valid).
inline Tile tilekit_trace_reshape(Context &ctx,
                                  const tilekit_trace_record &proto,
                                  const Tile &src, const int64_t *srcBox,
                                  int srcRank, const int64_t *box, int rank) {
  for (int d = 0; d < srcRank; ++d)
    if (src.valid[d] != srcBox[d])
      fail(ctx, proto,
           "reshapes a tile whose valid shape is not its whole box");
  Tile tile = src;
  for (int d = 0; d < 3; ++d)
    tile.valid[d] = d < rank ? box[d] : 1;
  return tile;
}

/// A flag (set or wait) or a pipe barrier: everything is in `proto`.
inline void tilekit_trace_sync(Context &ctx,
                               const tilekit_trace_record &proto) {
  emit(ctx, begin(ctx, proto));
}
/// A pipe's slots, as one end declares them (initialize_pipe).
inline void tilekit_trace_initialize_pipe(Context &ctx,
                                          const tilekit_trace_record &proto,
                                          bool cubeEnd, int64_t pipe,
                                          unsigned directions, int64_t num,
                                          int64_t size) {
  if (ctx.group) // outside a group there is no other end
    ctx.group->initializePipe(ctx, proto, cubeEnd, pipe, directions, num, size);
}

/// The vector lane running this code (0 on the cube core).
inline ptrdiff_t tilekit_trace_subblock_index(const Context &ctx) {
  return ctx.group && !ctx.cube ? static_cast<ptrdiff_t>(ctx.lane) : 0;
}

/// The cube core sends `tile` to the lanes: whole (split 0; to each lane
/// under dual dispatch) or cut at `laneStride` (-1: the box half) as the
/// split code says.
inline void tilekit_trace_push_to_aiv(Context &ctx,
                                      const tilekit_trace_record &proto,
                                      const Tile &tile, const int64_t *box,
                                      int rank, int64_t split,
                                      int64_t laneStride, int64_t pipe) {
  GroupRun &run = groupOf(ctx, proto);
  Payload payload = payloadOf(tile, box, rank);
  std::vector<::tilekit::pipes::QueueKey> keys =
      run.topology().cubeQueues(/*toAiv=*/true, pipe, split);
  if (split == 0) {
    run.push(ctx, proto, true, pipe, keys,
             std::vector<Payload>(keys.size(), payload));
  } else {
    ::tilekit::pipes::LaneCut cut;
    std::string error = ::tilekit::pipes::cutForLanes(
        payload, split,
        laneStride >= 0 ? std::optional<int64_t>(laneStride) : std::nullopt,
        cut);
    if (!error.empty())
      fail(ctx, proto, error);
    run.push(ctx, proto, true, pipe, keys, {cut.lanes[0], cut.lanes[1]});
  }
  emitTransfer(ctx, proto, tile, rank, true,
               run.topology().laneMask(true, split, 0),
               run.slotCount(true, pipe));
}

/// A vector lane sends `tile` to the cube core.
inline void tilekit_trace_push_to_aic(Context &ctx,
                                      const tilekit_trace_record &proto,
                                      const Tile &tile, const int64_t *box,
                                      int rank, int64_t split, int64_t pipe) {
  GroupRun &run = groupOf(ctx, proto);
  run.push(ctx, proto, false, pipe,
           {run.topology().laneQueue(/*toAiv=*/false, pipe, split, ctx.lane)},
           {payloadOf(tile, box, rank)});
  emitTransfer(ctx, proto, tile, rank, true,
               run.topology().laneMask(false, split, ctx.lane),
               run.slotCount(false, pipe));
}

/// A vector lane receives the tile (or its part) the cube core sent.
inline Tile tilekit_trace_pop_from_aic(Context &ctx,
                                       const tilekit_trace_record &proto,
                                       uint32_t slot, const int64_t *box,
                                       int rank, int64_t split, int64_t pipe) {
  GroupRun &run = groupOf(ctx, proto);
  Payload payload = run.pop(
      ctx, proto,
      {run.topology().laneQueue(/*toAiv=*/true, pipe, split, ctx.lane)})[0];
  Tile tile = tileOf(ctx, proto, slot, payload, box, rank);
  emitTransfer(ctx, proto, tile, rank, false,
               run.topology().laneMask(false, split, ctx.lane), 0);
  return tile;
}

/// The cube core receives a lane's tile, both lanes' parts merged (a
/// split), or lane 0's copy (dual dispatch).
inline Tile tilekit_trace_pop_from_aiv(Context &ctx,
                                       const tilekit_trace_record &proto,
                                       uint32_t slot, const int64_t *box,
                                       int rank, int64_t split, int64_t pipe) {
  GroupRun &run = groupOf(ctx, proto);
  std::vector<Payload> parts = run.pop(
      ctx, proto, run.topology().cubeQueues(/*toAiv=*/false, pipe, split));
  Payload payload = parts[0];
  if (split != 0) {
    std::string error =
        ::tilekit::pipes::mergeLanes(parts[0], parts[1], split, payload);
    if (!error.empty())
      fail(ctx, proto, error);
  }
  Tile tile = tileOf(ctx, proto, slot, payload, box, rank);
  emitTransfer(ctx, proto, tile, rank, false,
               run.topology().laneMask(true, split, 0), 0);
  return tile;
}

/// A group launch: `aic` on the cube core and `aiv` on each lane, each on
/// a thread of its own with its own buffers; their records merged into
/// the one order the executor gives (MergeOrder.h) when all have ended.
/// Returns lane 0's result.
template <typename RC, typename RV, typename... P, typename... A>
inline RV tilekit_trace_group(Context &ctx, const GroupSpec &spec,
                              RC (*aic)(P...), RV (*aiv)(P...),
                              const A &...args) {
  unsigned count = 1 + spec.lanes;
  GroupRun run(spec.dualNoSplit, ctx.shared->unboundedPipes);
  std::vector<Context> cores;
  for (unsigned i = 0; i < count; ++i) {
    Context core = ctx.forCore();
    core.group = &run;
    core.cube = i == 0;
    core.lane = i == 0 ? 0 : i - 1;
    cores.push_back(std::move(core));
  }
  for (unsigned i = 0; i < count; ++i)
    run.addCore(cores[i], i == 0 ? "the cube core"
                                 : "vector lane " + std::to_string(i - 1));
  std::conditional_t<std::is_void_v<RV>, int, RV> result{};
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < count; ++i)
    threads.emplace_back([&, i] {
      run.runCore(cores[i], [&] {
        current = &cores[i];
        if (i == 0)
          aic(args...);
        else if constexpr (std::is_void_v<RV>)
          aiv(args...);
        else if (i == 1)
          result = aiv(args...);
        else
          aiv(args...);
      });
    });
  for (std::thread &thread : threads)
    thread.join();
  if (!run.getFailure().empty())
    throw Fault(std::string("group @") + spec.name +
                " stopped: " + run.getFailure());
  std::vector<std::vector<tilekit_trace_record>> streams;
  for (Context &core : cores)
    streams.push_back(std::move(core.stream));
  // Counted against the step limit as the cores made them; each moves from
  // the producer's hold to the sink's.
  for (const tilekit_trace_record &r : ::tilekit::trace::merge::mergeStreams(
           streams.data(), streams.size(),
           [](const tilekit_trace_record &r) { return leavesL0C(r.sub); })) {
    ctx.shared->heldBytes -= sizeof(tilekit_trace_record);
    sinkRecord(*ctx.shared, r);
  }
  if constexpr (!std::is_void_v<RV>)
    return result;
}
// END CALL FORMATS

} // namespace tilekit_producer

/* What a producer exports, read by `tilekit sim --producer=compiled` and
 * `--trace-so`. */
extern "C" {
/* The TILEKIT_TRACE_ABI_VERSION the producer was built against. */
typedef uint32_t (*tilekit_trace_producer_abi_fn)(void);
/* Its parameters, one per line: `tensor NAME RANK DIM...` (a dimension is
 * its size or `?`), `index NAME`, `int NAME`, `float NAME`. */
typedef const char *(*tilekit_trace_producer_params_fn)(void);
/* Runs the kernel on `args` (per parameter: a tensor's RANK dims, a
 * scalar's value; floats as their bits in an int64) as `blocks` blocks
 * with `flags` (TILEKIT_PRODUCE_UNBOUNDED_PIPES) within `limits` (null:
 * none); TILEKIT_PRODUCE_OK, or _FAULT or _STOPPED with why in `error`. */
typedef int (*tilekit_trace_produce_fn)(
    const struct tilekit_trace_sink *sink, const int64_t *args, size_t num_args,
    int64_t blocks, uint32_t flags, const struct tilekit_trace_limits *limits,
    char *error, size_t error_size);
}

#endif // TILEKIT_TRACE_TRACEPRODUCER_H
