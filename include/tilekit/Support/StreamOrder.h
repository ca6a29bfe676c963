//===- StreamOrder.h - Happens-before over the pipes of a core pair -------===//
//
// The ordering model of an AI core pair, fed one event at a time in an
// order the machine could run them: each pipe of each core is a stream
// that executes its instructions in order; set/wait flags, full barriers,
// buffer ids and cross-core flags order streams; the scalar pipe issues
// every instruction. A vector clock per stream tells whether an access is
// ordered after every conflicting earlier one.
//
// One model, three users: the sync checker feeds it a symbolic run of a
// kernel and the AscendC executor the real one (both through
// ascendc::HappensBefore, with ops as payloads), and the CPU runtime of
// emitted kernels its C++ run (runtime/ascendc-cpu, with emitted lines).
// Standard C++ only, so that the runtime can include it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_SUPPORT_STREAMORDER_H
#define TILEKIT_SUPPORT_STREAMORDER_H

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace tilekit {

/// What an access names: a planned local tensor's byte range in its buffer
/// (`root` null), or a GM buffer (or a placeholder): the byte range it
/// touches, or (`begin == end`) the whole buffer.
struct StreamStorage {
  const void *root = nullptr;
  int buffer = -1;
  int64_t begin = 0, end = 0;
  /// The vector core whose UB it is, of a 1:2 block's two (each has its
  /// own); 0 for every other buffer.
  unsigned owner = 0;
  /// A GM access of `rows` rows: [begin, end) and the same bytes `pitch`
  /// further on, each row after the last.
  int64_t rows = 1, pitch = 0;

  bool operator==(const StreamStorage &other) const {
    return root == other.root && buffer == other.buffer &&
           begin == other.begin && end == other.end && owner == other.owner &&
           rows == other.rows && pitch == other.pitch;
  }
  bool overlaps(const StreamStorage &other) const {
    // A GM buffer's accesses name their rows of bytes, or (an empty range)
    // all of it.
    if (root || other.root)
      return root == other.root &&
             (begin == end || other.begin == other.end || rowsMeet(other));
    return buffer == other.buffer && owner == other.owner &&
           begin < other.end && other.begin < end;
  }

private:
  /// Whether a row of `other` meets one of these rows.
  bool rowsMeet(const StreamStorage &other) const {
    int64_t width = end - begin, otherWidth = other.end - other.begin;
    for (int64_t r = 0; r < other.rows; ++r) {
      int64_t from = other.begin + r * other.pitch, to = from + otherWidth;
      if (rows == 1 || pitch <= 0) {
        if (begin < to && from < end)
          return true;
        continue;
      }
      // The first of these rows that may reach past `from`, then on while
      // they start before `to`.
      int64_t k = std::max<int64_t>((from - width - begin) / pitch, 0);
      for (; k < rows && begin + k * pitch < to; ++k)
        if (begin + k * pitch + width > from)
          return true;
    }
    return false;
  }
};

/// `kPipes` pipes per core, `kScalarPipe` the one that issues; `Payload`
/// is what a report names of an access or a cross-core set. Core 0 is the
/// cube, the others its vector cores (one, or two in a 1:2 kernel), which
/// exchange cross-core flags as mode 2 does: the cube's set reaches every
/// vector core, and its wait takes a set from each.
template <unsigned kPipes, unsigned kScalarPipe, typename Payload,
          unsigned kCoreCount = 2>
class StreamOrder {
public:
  using Storage = StreamStorage;
  static constexpr unsigned kCores = kCoreCount;
  static constexpr unsigned kStreams = kPipes * kCores;

  /// How many vector cores run with the cube (1, or 2 in a 1:2 kernel).
  void setVectorCores(unsigned count) { vectorCores = count; }
  unsigned getVectorCores() const { return vectorCores; }
  /// The cores `core` exchanges cross-core flags with.
  std::vector<unsigned> peers(unsigned core) const {
    if (core != 0)
      return {0};
    std::vector<unsigned> vectors;
    for (unsigned v = 1; v <= vectorCores; ++v)
      vectors.push_back(v);
    return vectors;
  }
  /// Whether a set of `flag` from `sender` is pending for `core`.
  bool crossPendingFrom(unsigned core, int64_t flag, unsigned sender) const {
    auto it = crossFlags.find({core, flag, sender});
    return it != crossFlags.end() && !it->second.empty();
  }

  /// A vector clock over every (core, pipe) stream.
  struct Clock {
    std::array<uint32_t, kStreams> ticks{};
    void join(const Clock &other) {
      for (unsigned i = 0; i < kStreams; ++i)
        ticks[i] = std::max(ticks[i], other.ticks[i]);
    }
  };

  /// One access to a storage.
  struct Access {
    unsigned stream;
    uint32_t tick; // the stream's own tick at the access
    bool writes;
    Storage storage;
    Payload payload;
  };

  static unsigned stream(unsigned core, unsigned pipe) {
    return core * kPipes + pipe;
  }

  /// Ticks `core`'s `pipe` for an instruction issued now; its accesses
  /// then go to `access` with the returned clock.
  Clock &issue(unsigned core, unsigned pipe) {
    unsigned s = stream(core, pipe);
    Clock &clock = clocks[s];
    clock.join(issued[core]);
    ++clock.ticks[s];
    // The scalar pipe issues every instruction: what it executed precedes
    // what any pipe executes after it.
    if (pipe == kScalarPipe)
      issued[core].join(clock);
    return clock;
  }

  /// An access on stream `s` at `clock`: `onRace(earlier, now)` for each
  /// conflicting earlier access (another stream; one of the two writes)
  /// whose tick has not reached this stream.
  template <typename OnRace>
  void access(unsigned s, const Clock &clock, bool writes, Storage storage,
              Payload payload, OnRace onRace) {
    Access now{s, clock.ticks[s], writes, storage, payload};
    for (const Access &earlier : accesses) {
      if (earlier.stream == s || (!earlier.writes && !now.writes) ||
          !earlier.storage.overlaps(now.storage))
        continue;
      if (clock.ticks[earlier.stream] < earlier.tick)
        onRace(earlier, now);
    }
    // The newest access of a stream to a storage stands for its older ones
    // of the same kind (a write for reads too): it has the larger tick, so
    // whatever orders it orders them.
    accesses.erase(std::remove_if(accesses.begin(), accesses.end(),
                                  [&](const Access &older) {
                                    return older.stream == now.stream &&
                                           older.storage == now.storage &&
                                           (now.writes || !older.writes);
                                  }),
                   accesses.end());
    accesses.push_back(std::move(now));
  }

  /// What a set finds of the event's one bit on the chip: a set while the
  /// bit may still be up (an earlier set of it not yet waited for) is not
  /// allowed, for the second set is lost (cceapi set_flag & wait_flag).
  enum class SetCheck {
    Clear,
    /// An earlier set of the event is pending when this one is issued.
    Pending,
    /// The last wait of the event is not ordered before this set: on the
    /// machine the set may come first.
    Unordered,
  };
  SetCheck setFlag(unsigned core, unsigned src, unsigned dst, int64_t event) {
    std::tuple<unsigned, unsigned, unsigned, int64_t> key{core, src, dst,
                                                          event};
    auto &queue = flags[key];
    Clock &clock = issue(core, src);
    SetCheck check = SetCheck::Clear;
    if (!queue.empty())
      check = SetCheck::Pending;
    else if (auto last = lastWaits.find(key);
             last != lastWaits.end() &&
             clock.ticks[last->second.first] < last->second.second)
      check = SetCheck::Unordered;
    queue.push_back(clock);
    return check;
  }
  /// False when no set of the event is pending (nothing to wait for). A
  /// wait is an instruction of its pipe: what comes after it there is
  /// ordered after it.
  bool waitFlag(unsigned core, unsigned src, unsigned dst, int64_t event) {
    std::tuple<unsigned, unsigned, unsigned, int64_t> key{core, src, dst,
                                                          event};
    auto &queue = flags[key];
    if (queue.empty())
      return false;
    unsigned s = stream(core, dst);
    Clock &clock = issue(core, dst);
    clock.join(queue.front());
    // A wait on the scalar pipe holds back every instruction it issues
    // after it.
    if (dst == kScalarPipe)
      issued[core].join(clock);
    queue.pop_front();
    lastWaits[key] = {s, clock.ticks[s]};
    return true;
  }
  /// A full barrier: everything the core executed before it precedes
  /// everything after.
  void barrier(unsigned core) {
    for (unsigned p = 0; p < kPipes; ++p)
      issued[core].join(clocks[stream(core, p)]);
  }
  void getBuf(unsigned core, unsigned pipe, int64_t id) {
    auto it = released.find({core, id});
    if (it != released.end())
      clocks[stream(core, pipe)].join(it->second);
  }
  void rlsBuf(unsigned core, unsigned pipe, int64_t id) {
    released[{core, id}] = issue(core, pipe);
  }

  /// A cross-core set from `core`; returns the pending earlier set of the
  /// same flag it may overtake (set on another pipe, unordered), if any.
  std::optional<Payload> crossSet(unsigned core, unsigned pipe, int64_t flag,
                                  Payload payload) {
    unsigned s = stream(core, pipe);
    Clock &clock = issue(core, pipe);
    std::optional<Payload> overtaken;
    for (unsigned receiver : peers(core)) {
      auto &queue = crossFlags[{receiver, flag, core}];
      for (const PendingSet &pending : queue)
        if (!overtaken &&
            clock.ticks[pending.stream] < pending.clock.ticks[pending.stream])
          overtaken = pending.payload;
      queue.push_back({clock, payload, s});
    }
    return overtaken;
  }
  /// Whether a set of `flag` is pending for `core`.
  bool crossPending(unsigned core, int64_t flag) const {
    for (unsigned sender : peers(core))
      if (!crossPendingFrom(core, flag, sender))
        return false;
    return true;
  }
  /// How many sets of `flag` for `receiver` the counter may hold when the
  /// last set on `setter`'s `pipe` lands: those pending, and those taken
  /// by a wait not ordered before it (on the machine it may come later).
  /// The same on every run, whichever thread got there first.
  size_t crossInFlight(unsigned receiver, int64_t flag, unsigned setter,
                       unsigned pipe) const {
    const Clock &clock = clocks[stream(setter, pipe)];
    size_t count = 0;
    if (auto it = crossFlags.find({receiver, flag, setter});
        it != crossFlags.end())
      count += it->second.size();
    if (auto it = crossTaken.find({receiver, flag, setter});
        it != crossTaken.end())
      for (auto [s, tick] : it->second)
        count += clock.ticks[s] < tick;
    return count;
  }
  /// Takes a pending set of `flag` on `core`'s `pipe`; false when none is
  /// pending (the core blocks).
  bool crossWait(unsigned core, unsigned pipe, int64_t flag) {
    if (!crossPending(core, flag))
      return false;
    unsigned s = stream(core, pipe);
    Clock &clock = issue(core, pipe);
    for (unsigned sender : peers(core)) {
      auto &queue = crossFlags[{core, flag, sender}];
      clock.join(queue.front().clock);
      // A scalar wait holds up everything the core issues after it.
      if (pipe == kScalarPipe)
        issued[core].join(queue.front().clock);
      queue.pop_front();
    }
    // The last waits, for crossInFlight (older ones are ordered before a
    // later set unless the counter overflowed already).
    for (unsigned sender : peers(core)) {
      auto &taken = crossTaken[{core, flag, sender}];
      taken.push_back({s, clock.ticks[s]});
      if (taken.size() > 32)
        taken.pop_front();
    }
    return true;
  }

  /// Flags set and never waited, when the run is over: (core, src, dst,
  /// event) and how many.
  std::vector<
      std::pair<std::tuple<unsigned, unsigned, unsigned, int64_t>, size_t>>
  pendingFlags() const {
    std::vector<
        std::pair<std::tuple<unsigned, unsigned, unsigned, int64_t>, size_t>>
        pending;
    for (const auto &[key, queue] : flags)
      if (!queue.empty())
        pending.emplace_back(key, queue.size());
    return pending;
  }
  /// Cross-core sets never waited: (receiving core, flag, the set).
  std::vector<std::tuple<unsigned, int64_t, Payload>>
  pendingCrossFlags() const {
    std::vector<std::tuple<unsigned, int64_t, Payload>> pending;
    for (const auto &[key, queue] : crossFlags)
      for (const PendingSet &set : queue)
        pending.emplace_back(std::get<0>(key), std::get<1>(key), set.payload);
    return pending;
  }

private:
  struct PendingSet {
    Clock clock;
    Payload payload;
    unsigned stream;
  };

  unsigned vectorCores = kCores - 1;
  std::array<Clock, kStreams> clocks;
  /// What every pipe of a core waits for before its next instruction: the
  /// core's blocking scalar waits, full barriers and scalar-pipe ops.
  std::array<Clock, kCores> issued;
  std::map<std::tuple<unsigned, unsigned, unsigned, int64_t>,
           std::deque<Clock>>
      flags; // (core, src, dst, event)
  /// Each event's last wait: its stream and tick there.
  std::map<std::tuple<unsigned, unsigned, unsigned, int64_t>,
           std::pair<unsigned, uint32_t>>
      lastWaits;
  std::map<std::pair<unsigned, int64_t>, Clock> released; // (core, buf id)
  std::map<std::tuple<unsigned, int64_t, unsigned>, std::deque<PendingSet>>
      crossFlags; // (receiving core, flag id, setting core)
  /// Per (receiving core, flag id, setting core): the stream and tick of
  /// its last waits.
  std::map<std::tuple<unsigned, int64_t, unsigned>,
           std::deque<std::pair<unsigned, uint64_t>>>
      crossTaken;
  std::vector<Access> accesses;
};

} // namespace tilekit

#endif // TILEKIT_SUPPORT_STREAMORDER_H
