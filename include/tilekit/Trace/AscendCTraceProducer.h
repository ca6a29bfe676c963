//===- AscendCTraceProducer.h - Runtime of compiled AscendC producers -*- C++
//-*-===//
//
// What a compiled AscendC kernel's trace producer calls (tilekit compile
// --emit=trace-producer on an AscendC file; lib/Conversion/
// AscendCToTraceProducer). The generated file runs the kernel's control
// flow and index arithmetic without data and writes, for each instruction,
// the record the executor writes for it (lib/Interp/AscendCTrace.cpp),
// field for field.
//
// A launch runs each block as a work item marked explicitly synchronized.
// A mixed kernel's block runs as each of its cores at once, on a thread
// each (the cube, and the vector core once per lane, each skipping the
// others' code): the cores' instruction streams do not depend on each
// other's timing, and they are merged by their contents (MergeOrder.h), as
// the executor merges its cores', as they come: a block's records pass
// through bounded queues and are never all held, however long it runs.
//
// Built on TraceProducer.h (the context, the sink, the tables, the entry
// points' argument binding).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TRACE_ASCENDCTRACEPRODUCER_H
#define TILEKIT_TRACE_ASCENDCTRACEPRODUCER_H

#include "tilekit/Trace/TraceProducer.h"

#include <array>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace tilekit_producer {

/// A GM tensor view: its storage, the element offset it starts at, and the
/// root tensor's shape.
struct GmView {
  uint64_t storage = 0;
  int64_t offset = 0;
  int rank = 0;
  int64_t shape[4] = {1, 1, 1, 1};
};

/// A local tensor: its buffer and byte address in one id, as the executor
/// names it (buffer above bit 40).
struct Local {
  uint64_t id = 0;
};

/// One core's records of a mixed block, from its thread to the merge:
/// bounded, so that a long block is never held whole.
class BlockStream {
public:
  /// Appends `r`, waiting while the stream is full; false once the block
  /// stopped.
  bool push(const tilekit_trace_record &r) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return stopped || records.size() < kCapacity; });
    if (stopped)
      return false;
    records.push_back(r);
    changed.notify_all();
    return true;
  }
  /// The next record, waiting for it; null once the core's pass ended and
  /// its records were taken, or the block stopped.
  const tilekit_trace_record *next() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return stopped || ended || !records.empty(); });
    return stopped || records.empty() ? nullptr : &records.front();
  }
  void pop() {
    std::lock_guard<std::mutex> lock(mutex);
    records.pop_front();
    changed.notify_all();
  }
  void end() {
    std::lock_guard<std::mutex> lock(mutex);
    ended = true;
    changed.notify_all();
  }
  void stop() {
    std::lock_guard<std::mutex> lock(mutex);
    stopped = true;
    changed.notify_all();
  }

private:
  /// 16384 records: 3.4 MB per core.
  static constexpr size_t kCapacity = size_t(1) << 14;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<tilekit_trace_record> records;
  bool ended = false, stopped = false;
};

/// Thrown on a core's thread once its block stopped.
struct BlockStopped {};

/// What a launch's block is running on this thread: the kernel's cores,
/// the core this thread runs (the cube's pass or a vector lane's), the
/// lane scope and the block's workspaces.
struct AscendCBlock {
  /// The kernel's cores: 0 vector, 1 cube, 2 both.
  int kind = 0;
  bool onCube = false;
  /// Inside `if_subblock <lane>`: that lane, else -1.
  int lane = -1;
  /// In a mixed block: the stream this thread keeps (0 the cube, 1 + lane
  /// a vector lane) and where its records go.
  unsigned keep = 0;
  BlockStream *out = nullptr;
  std::map<uint32_t, uint64_t> workspaces;
};
inline AscendCBlock &block() {
  static thread_local AscendCBlock state;
  return state;
}

constexpr int kBufferShift = 40;

inline GmView gmView(const Tensor &tensor) {
  GmView view;
  view.storage = tensor.storage;
  view.rank = tensor.rank;
  for (int d = 0; d < 4; ++d)
    view.shape[d] = tensor.shape[d];
  return view;
}

/// Begins block `index` of `blocks` of a kernel of `kind` (0 vector, 1
/// cube, 2 both), whose file has `workspaceOps` workspace ops: a work item,
/// each workspace a storage of the block's.
inline void ascendc_block_begin(Context &ctx, ptrdiff_t index, ptrdiff_t blocks,
                                int kind, uint32_t workspaceOps) {
  ctx.blockIndex = index;
  ctx.blockCount = blocks;
  ctx.item = ctx.shared->nextItem++;
  tilekit_trace_record r{};
  r.kind = TILEKIT_TRACE_WORK_BEGIN;
  r.core = kind == 0 ? TILEKIT_TRACE_VECTOR : TILEKIT_TRACE_AICORE;
  r.flags = TILEKIT_TRACE_EXPLICIT_SYNC;
  r.amount = static_cast<uint64_t>(blocks);
  r.item = ctx.item;
  emit(ctx, r);
  // The model times such a block as its records come: none is held.
  ctx.shared->streamedItem = true;
  AscendCBlock &b = block();
  b.kind = kind;
  b.onCube = kind == 1;
  b.lane = -1;
  // Numbered in op order before any core runs: the same storages whatever
  // the cores' threads do.
  b.workspaces.clear();
  for (uint32_t op = 0; op < workspaceOps; ++op)
    b.workspaces[op] = newBuffer(ctx);
}

/// Runs the block's kernel: inline for one core; for a mixed kernel as the
/// cube and as each vector lane, a thread each, merging their records as
/// they come.
template <typename... P, typename... A>
inline void ascendc_run_kernel(Context &ctx, void (*kernel)(P...),
                               const A &...args) {
  AscendCBlock &b = block();
  if (b.kind != 2) {
    kernel(args...);
    return;
  }
  // Every name and location interned first, so that the ids the records
  // carry do not depend on the threads.
  const Tables &tables = *ctx.shared->tables;
  for (size_t i = 0; i < tables.numNames; ++i)
    if (tables.names[i]) // the table ends with a null
      nameId(ctx, static_cast<uint16_t>(i));
  for (size_t i = 1; i < tables.numLocations; ++i)
    locationId(ctx, static_cast<uint32_t>(i));
  std::array<BlockStream, 3> streams;
  std::mutex failureMutex;
  std::string failure;
  auto stopAll = [&](const std::string &why) {
    {
      std::lock_guard<std::mutex> lock(failureMutex);
      if (failure.empty())
        failure = why;
    }
    for (BlockStream &stream : streams)
      stream.stop();
  };
  std::vector<std::thread> threads;
  for (unsigned core = 0; core < 3; ++core)
    threads.emplace_back([&, core] {
      Context mine = ctx.forCore();
      current = &mine;
      AscendCBlock &run = block();
      run.kind = 2;
      run.onCube = core == 0;
      run.lane = -1;
      run.keep = core;
      run.out = &streams[core];
      run.workspaces = b.workspaces;
      try {
        kernel(args...);
      } catch (const BlockStopped &) {
      } catch (const std::exception &fault) {
        stopAll(fault.what());
      }
      streams[core].end();
      run.out = nullptr;
      current = nullptr;
    });
  try {
    ::tilekit::trace::merge::mergeAsTheyCome<tilekit_trace_record>(
        streams.size(), [](const tilekit_trace_record &) { return false; },
        [&](size_t i) { return streams[i].next(); },
        [&](size_t i) { streams[i].pop(); },
        [&](const tilekit_trace_record &r) { sinkRecord(*ctx.shared, r); });
  } catch (const std::exception &fault) {
    stopAll(fault.what());
  }
  for (std::thread &thread : threads)
    thread.join();
  if (!failure.empty())
    throw Fault(failure);
}

/// Ends the block: the work item's end.
inline void ascendc_block_end(Context &ctx) {
  ctx.shared->streamedItem = false;
  tilekit_trace_record r{};
  r.kind = TILEKIT_TRACE_WORK_END;
  r.core = TILEKIT_TRACE_AICORE;
  r.item = ctx.item;
  emit(ctx, r);
}

/// Whether the running pass is the cube's (an `if_aic` runs then, an
/// `if_aiv` otherwise).
inline bool ascendc_on_cube(Context &) { return block().onCube; }
inline void ascendc_lane_begin(Context &, int lane) { block().lane = lane; }
inline void ascendc_lane_end(Context &) { block().lane = -1; }
inline ptrdiff_t ascendc_block_index(Context &ctx) { return ctx.blockIndex; }
inline ptrdiff_t ascendc_block_count(Context &ctx) { return ctx.blockCount; }
/// The executor runs both lanes on one vector core: sub-block 0.
inline ptrdiff_t ascendc_subblock_index(Context &) { return 0; }

/// A local tensor of `pool` (its buffer, per vector core: getStoragePool).
inline Local ascendc_local(Context &, int pool, int64_t address) {
  return Local{static_cast<uint64_t>(pool) << kBufferShift |
               static_cast<uint64_t>(address)};
}
/// A view `offset` elements of `bytes` bytes into `source`.
inline Local ascendc_local_view(Context &, Local source, int64_t offset,
                                int64_t bytes) {
  return Local{source.id + static_cast<uint64_t>(offset * bytes)};
}
inline GmView ascendc_subindex(Context &, GmView view, ptrdiff_t offset) {
  view.offset += offset;
  return view;
}
/// The same elements with `rank` other extents.
template <typename... Extents>
inline GmView ascendc_reshape(Context &, GmView view, int rank,
                              Extents... extents) {
  view.rank = rank;
  int64_t shape[] = {static_cast<int64_t>(extents)...};
  for (int d = 0; d < 4; ++d)
    view.shape[d] = d < rank ? shape[d] : 1;
  return view;
}
inline ptrdiff_t ascendc_dim(Context &, GmView view, int d) {
  return view.shape[d];
}
/// Workspace op `op` of the block: one storage per block, of `elements`.
inline GmView ascendc_workspace(Context &ctx, uint32_t op, int64_t elements) {
  auto [it, fresh] = block().workspaces.try_emplace(op, 0);
  if (fresh)
    it->second = newBuffer(ctx);
  GmView view;
  view.storage = it->second;
  view.rank = 1;
  view.shape[0] = elements;
  return view;
}

/// Workspace op `op` of run-time extents: its storage seen with them.
template <typename... Extents>
inline GmView ascendc_workspace_of(Context &ctx, uint32_t op, int rank,
                                   Extents... extents) {
  int64_t elements = (int64_t(1) * ... * static_cast<int64_t>(extents));
  return ascendc_reshape(ctx, ascendc_workspace(ctx, op, elements), rank,
                         extents...);
}

/// What an instruction's function says about its core (a literal of the
/// generated call): bit 0, the function runs its lanes on two vector cores
/// (1:2); bit 1, outside a mixed kernel, the function runs on the cube.
constexpr int kTwoVectorCores = 1, kCubeFunction = 2;

/// Sends `r` from the core that runs it: in a mixed kernel the pass's (the
/// cube, the lane's vector core, or both vector cores for vector-side code
/// outside the lanes of a 1:2 kernel), else its function's.
/// `crossLanes`: a cross-core flag's lane mask is filled in.
inline void ascendc_send(Context &ctx, tilekit_trace_record r, int where,
                         bool crossLanes) {
  AscendCBlock &b = block();
  bool twoVector = where & kTwoVectorCores;
  bool cube = b.kind == 2 ? b.onCube : (where & kCubeFunction) != 0;
  auto send = [&](unsigned stream) {
    if (b.kind == 2 && stream != b.keep)
      return; // another core's thread sends it
    checkLimits(*ctx.shared, /*held=*/false);
    if (b.kind != 2)
      sinkRecord(*ctx.shared, r);
    else if (!b.out->push(r))
      throw BlockStopped{};
  };
  if (cube) {
    r.core = TILEKIT_TRACE_CUBE;
    r.lane = 0;
    if (crossLanes)
      r.tag_id = twoVector ? 3 : 1;
    send(0);
    return;
  }
  for (unsigned lane = 0; lane < 2; ++lane) {
    bool runs = b.lane >= 0 ? lane == static_cast<unsigned>(b.lane)
                            : (lane == 0 || twoVector);
    if (!runs)
      continue;
    r.core = TILEKIT_TRACE_VECTOR;
    r.lane = static_cast<uint8_t>(lane);
    if (crossLanes)
      r.tag_id = 1u << lane;
    send(1 + lane);
  }
}

/// A flag, barrier, buffer id or cross-core flag: all static.
inline void ascendc_sync(Context &ctx, const tilekit_trace_record &proto,
                         int where) {
  bool cross = (proto.kind == TILEKIT_TRACE_SET_FLAG ||
                proto.kind == TILEKIT_TRACE_WAIT_FLAG) &&
               (proto.flags & TILEKIT_TRACE_CROSS_CORE);
  ascendc_send(ctx, begin(ctx, proto), where, cross);
}

inline uint64_t idOf(const Local &local) { return local.id; }
inline uint64_t idOf(const GmView &view) { return view.storage; }
inline const GmView *gmOf(const Local &) { return nullptr; }
inline const GmView *gmOf(const GmView &view) { return &view; }

/// A transfer of `rows` x `cols` elements from `src` to `dst` (local
/// tensors or GM views), rows `gmStride` apart in GM (0: contiguous).
template <typename Src, typename Dst>
inline void ascendc_transfer(Context &ctx, const tilekit_trace_record &proto,
                             int where, const Src &src, const Dst &dst,
                             ptrdiff_t rows, ptrdiff_t cols,
                             ptrdiff_t gmStride) {
  tilekit_trace_record r = begin(ctx, proto);
  tilekit_trace_set_transfer(&r, rows, cols, gmStride);
  const GmView *gm = gmOf(src) ? gmOf(src) : gmOf(dst);
  if (gm)
    r.gm_offset = static_cast<uint64_t>(gm->offset);
  addRead(r, idOf(src));
  addWrite(r, idOf(dst));
  if (proto.space)
    r.write_bytes = r.amount;
  ascendc_send(ctx, r, where, false);
}

/// A vector instruction over `elements`, reading and writing `tensors` in
/// the order of the op's accesses (`accesses`, a digit per tensor: 1
/// reads, 2 writes, 3 both).
template <typename... Locals>
inline void ascendc_vector(Context &ctx, const tilekit_trace_record &proto,
                           int where, ptrdiff_t elements, const char *accesses,
                           const Locals &...tensors) {
  tilekit_trace_record r = begin(ctx, proto);
  const Local all[] = {tensors...};
  for (size_t i = 0; i < sizeof...(Locals); ++i) {
    int access = accesses[i] - '0';
    if (access & 1)
      addRead(r, all[i].id);
    if (access & 2)
      addWrite(r, all[i].id);
  }
  // The elements as rows of the widest operand's (its row length in the
  // proto's shape[1], getRecordColumns), as the executor's trace has them.
  uint32_t columns = proto.shape[1];
  r.shape[0] = static_cast<uint32_t>(
      columns ? (elements + columns - 1) / columns : elements);
  r.amount = static_cast<uint64_t>(elements);
  r.write_bytes = r.amount * proto.elem_size;
  ascendc_send(ctx, r, where, false);
}

/// The elements of an L0 instruction: its mask (or the bits of its two
/// mask words when `wordMask`) times its repeats.
inline ptrdiff_t ascendc_l0_elements(Context &, ptrdiff_t mask,
                                     ptrdiff_t repeat, bool wordMask,
                                     ptrdiff_t low, ptrdiff_t high) {
  if (wordMask)
    mask = __builtin_popcountll(static_cast<uint64_t>(low)) +
           __builtin_popcountll(static_cast<uint64_t>(high));
  return mask * repeat;
}

/// `mmad` of `m` x `k` by `k` x `n` into `acc`, accumulating unless
/// `init`.
inline void ascendc_mmad(Context &ctx, const tilekit_trace_record &proto,
                         int where, Local a, Local b, Local acc, ptrdiff_t m,
                         ptrdiff_t k, ptrdiff_t n, bool init) {
  tilekit_trace_record r = begin(ctx, proto);
  r.shape[0] = static_cast<uint32_t>(m);
  r.shape[1] = static_cast<uint32_t>(k);
  r.shape[2] = static_cast<uint32_t>(n);
  r.amount = static_cast<uint64_t>(m * k * n);
  addRead(r, a.id);
  addRead(r, b.id);
  r.flags = init ? 0 : TILEKIT_TRACE_ACCUMULATE;
  if (!init)
    addRead(r, acc.id);
  addWrite(r, acc.id);
  ascendc_send(ctx, r, where, false);
}

} // namespace tilekit_producer

#endif // TILEKIT_TRACE_ASCENDCTRACEPRODUCER_H
