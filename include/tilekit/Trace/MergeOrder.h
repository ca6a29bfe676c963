//===- MergeOrder.h - One order for the streams of an AI core -----*- C++
//-*-===//
//
// The cube core and the vector cores of a group each write their records in
// program order, on their own threads. The merged order must not depend on
// how those threads interleaved, and the timing model, which reads records
// in order, must see each pop after the push it takes and each push after
// the pop that freed its slot, and each cross-core flag's wait after the
// set it takes. Round robin over the streams, taking from one until its
// next record would break that, gives such an order from the streams'
// contents alone.
//
// Header-only over the C record (TraceABI.h) and the standard library, so
// that the executor (lib/Trace/MergeStreams.cpp) and compiled trace
// producers (TraceProducer.h) merge with this one algorithm.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TRACE_MERGEORDER_H
#define TILEKIT_TRACE_MERGEORDER_H

#include "tilekit/Trace/TraceABI.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace tilekit::trace::merge {

/// Calls `visit(toCube, flag, lane)` for each flag a cross-core set raises
/// or a wait takes: the cube's name the vector lanes of their mask
/// (`tag_id`), a vector core's its own lane. The one pairing rule of the
/// merge order and the timing model.
template <typename R, typename Visit>
void forEachCrossCoreFlag(const R &r, Visit &&visit) {
  bool cube = r.core == TILEKIT_TRACE_CUBE;
  bool toCube = (r.kind == TILEKIT_TRACE_SET_FLAG) != cube;
  for (unsigned lane = 0; lane < 2; ++lane)
    if (cube ? (r.tag_id >> lane & 1) : lane == r.lane)
      visit(toCube, r.op, lane);
}

/// Merges `streams` of records `R` (a tilekit_trace_record or a type
/// derived from it); `fromCube(record)` tells whether a push or pop record
/// moves a tile the cube pushed. Streams that block each other (a pop
/// without a push) are appended in stream order, for the timing model to
/// report.
template <typename R, typename FromCube>
std::vector<R> mergeStreams(const std::vector<R> *streams, size_t count,
                            FromCube fromCube) {
  // A push and the pops that take it share a queue: the pushing side, the
  // pipe id and the lane.
  using Key = std::tuple<bool, uint16_t, unsigned>;
  struct Count {
    uint64_t pushed = 0, popped = 0;
  };
  std::map<Key, Count> queues;
  // A cross-core flag's sets and waits by (to the cube, flag id, lane).
  using FlagKey = std::tuple<bool, uint16_t, unsigned>;
  std::map<FlagKey, Count> flags;
  auto crossCore = [](const R &r) {
    return (r.kind == TILEKIT_TRACE_SET_FLAG ||
            r.kind == TILEKIT_TRACE_WAIT_FLAG) &&
           (r.flags & TILEKIT_TRACE_CROSS_CORE);
  };
  auto ready = [&](const R &r) {
    if (crossCore(r)) {
      bool free = true;
      if (r.kind == TILEKIT_TRACE_WAIT_FLAG)
        forEachCrossCoreFlag(r, [&](bool toCube, uint16_t flag, unsigned lane) {
          Count &n = flags[FlagKey{toCube, flag, lane}];
          free = free && n.pushed > n.popped;
        });
      return free;
    }
    bool push = r.kind == TILEKIT_TRACE_PUSH, pop = r.kind == TILEKIT_TRACE_POP;
    if (!push && !pop)
      return true;
    for (unsigned lane = 0; lane < 2; ++lane) {
      if (!(r.tag_id >> lane & 1))
        continue;
      Count &n = queues[Key{fromCube(r), r.op, lane}];
      if (pop && n.pushed <= n.popped)
        return false;
      if (push && r.tag_slot && n.pushed - n.popped >= r.tag_slot)
        return false;
    }
    return true;
  };
  auto take = [&](const R &r) {
    if (crossCore(r)) {
      bool set = r.kind == TILEKIT_TRACE_SET_FLAG;
      forEachCrossCoreFlag(r, [&](bool toCube, uint16_t flag, unsigned lane) {
        Count &n = flags[FlagKey{toCube, flag, lane}];
        ++(set ? n.pushed : n.popped);
      });
      return;
    }
    bool push = r.kind == TILEKIT_TRACE_PUSH;
    if (!push && r.kind != TILEKIT_TRACE_POP)
      return;
    for (unsigned lane = 0; lane < 2; ++lane)
      if (r.tag_id >> lane & 1) {
        Count &n = queues[Key{fromCube(r), r.op, lane}];
        ++(push ? n.pushed : n.popped);
      }
  };

  std::vector<R> merged;
  size_t total = 0;
  for (size_t i = 0; i < count; ++i)
    total += streams[i].size();
  merged.reserve(total);
  std::vector<size_t> next(count, 0);
  size_t current = 0, idle = 0;
  while (merged.size() < total && idle < count) {
    const std::vector<R> &stream = streams[current];
    bool progressed = false;
    while (next[current] < stream.size() && ready(stream[next[current]])) {
      const R &r = stream[next[current]++];
      take(r);
      merged.push_back(r);
      progressed = true;
    }
    idle = progressed ? 0 : idle + 1;
    current = (current + 1) % count;
  }
  for (size_t i = 0; i < count; ++i)
    merged.insert(merged.end(), streams[i].begin() + next[i], streams[i].end());
  return merged;
}

} // namespace tilekit::trace::merge

#endif // TILEKIT_TRACE_MERGEORDER_H
