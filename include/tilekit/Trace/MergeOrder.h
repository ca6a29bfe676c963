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

/// What the merge may take next: a pop only after the push it takes, a push
/// only into a free slot, a cross-core wait only after the set it takes.
/// `fromCube(record)` tells whether a push or pop record moves a tile the
/// cube pushed.
template <typename R, typename FromCube> class MergeRule {
public:
  explicit MergeRule(FromCube fromCube) : fromCube(fromCube) {}

  /// Whether `r` may be the next record of the merged order.
  bool ready(const R &r) {
    if (crossCore(r)) {
      bool free = true;
      if (r.kind == TILEKIT_TRACE_WAIT_FLAG)
        forEachCrossCoreFlag(r, [&](bool toCube, uint16_t flag, unsigned lane) {
          Count &n = flags[Key{toCube, flag, lane}];
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
  }

  /// Takes `r` into the merged order.
  void take(const R &r) {
    if (crossCore(r)) {
      bool set = r.kind == TILEKIT_TRACE_SET_FLAG;
      forEachCrossCoreFlag(r, [&](bool toCube, uint16_t flag, unsigned lane) {
        Count &n = flags[Key{toCube, flag, lane}];
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
  }

private:
  static bool crossCore(const R &r) {
    return (r.kind == TILEKIT_TRACE_SET_FLAG ||
            r.kind == TILEKIT_TRACE_WAIT_FLAG) &&
           (r.flags & TILEKIT_TRACE_CROSS_CORE);
  }

  /// A pipe's queue: the pushing side, the pipe id and the lane; a
  /// cross-core flag: to the cube, the flag id and the lane.
  using Key = std::tuple<bool, uint16_t, unsigned>;
  struct Count {
    uint64_t pushed = 0, popped = 0;
  };
  FromCube fromCube;
  std::map<Key, Count> queues, flags;
};

/// The merge over streams whose records come as they are made: round robin,
/// taking from one stream while its next record may come next (`next(i)`
/// gives stream i's next record, waiting for it, or null once the stream
/// has ended; `pop(i)` drops it), each taken record handed to `out`. Streams
/// that block each other are finished in stream order, for the timing
/// model to report. The order depends on the streams' contents alone.
template <typename R, typename FromCube, typename Next, typename Pop,
          typename Out>
void mergeAsTheyCome(size_t count, FromCube fromCube, Next next, Pop pop,
                     Out out) {
  MergeRule<R, FromCube> rule(fromCube);
  size_t current = 0, idle = 0;
  while (idle < count) {
    bool progressed = false;
    while (const R *r = next(current)) {
      if (!rule.ready(*r))
        break;
      rule.take(*r);
      out(*r);
      pop(current);
      progressed = true;
    }
    idle = progressed ? 0 : idle + 1;
    current = (current + 1) % count;
  }
  for (size_t i = 0; i < count; ++i)
    while (const R *r = next(i)) {
      out(*r);
      pop(i);
    }
}

/// Merges `streams` of records `R` (a tilekit_trace_record or a type
/// derived from it) held whole.
template <typename R, typename FromCube>
std::vector<R> mergeStreams(const std::vector<R> *streams, size_t count,
                            FromCube fromCube) {
  std::vector<R> merged;
  size_t total = 0;
  for (size_t i = 0; i < count; ++i)
    total += streams[i].size();
  merged.reserve(total);
  std::vector<size_t> at(count, 0);
  mergeAsTheyCome<R>(
      count, fromCube,
      [&](size_t i) -> const R * {
        return at[i] < streams[i].size() ? &streams[i][at[i]] : nullptr;
      },
      [&](size_t i) { ++at[i]; }, [&](const R &r) { merged.push_back(r); });
  return merged;
}

} // namespace tilekit::trace::merge

#endif // TILEKIT_TRACE_MERGEORDER_H
