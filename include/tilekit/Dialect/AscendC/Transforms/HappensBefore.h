//===- HappensBefore.h - Which accesses flags and barriers order -*- C++
//-*-===//
//
// The ordering model of an AI core pair, fed one event at a time in an
// order the machine could run them: each pipe of each core is a stream
// that executes its ops in order; set_flag / wait_flag, full barriers,
// buffer ids and cross-core flags order streams; the scalar pipe issues
// every op. A vector clock per stream tells whether an access is ordered
// after every conflicting earlier one. The sync checker feeds it a
// symbolic run of the kernel; the AscendC executor feeds it the real one.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_HAPPENSBEFORE_H
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_HAPPENSBEFORE_H

#include "tilekit/Dialect/AscendC/Transforms/TensorAccesses.h"

#include <array>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tilekit::ascendc {

class HappensBefore {
public:
  static constexpr unsigned kCores = 2; // 0: cube, 1: vector
  static constexpr unsigned kStreams = kNumPipes * kCores;

  /// A vector clock over every (core, pipe) stream.
  struct Clock {
    std::array<uint32_t, kStreams> ticks{};
    void join(const Clock &other) {
      for (unsigned i = 0; i < kStreams; ++i)
        ticks[i] = std::max(ticks[i], other.ticks[i]);
    }
  };

  /// One access to a storage, for reports.
  struct Access {
    mlir::Operation *op;
    unsigned stream;
    uint32_t tick; // the stream's own tick at the access
    bool writes;
    TensorStorage storage;
    mlir::Value tensor; // describe() names its storage in a report
  };

  /// Called for an access `now` by `later` that nothing orders after the
  /// conflicting `earlier` one.
  using RaceHandler = std::function<void(
      mlir::Operation *later, const Access &earlier, const Access &now)>;

  explicit HappensBefore(RaceHandler onRace) : onRace(std::move(onRace)) {}

  /// `op` (an instruction on `pipe`) reads and writes its tensor operands.
  void access(mlir::Operation *op, unsigned core, Pipe pipe);

  /// What a synchronization op did to the model.
  struct SyncOutcome {
    enum Kind {
      NotSync,    // not a synchronization op
      Done,       // applied
      NothingSet, // a wait_flag with no set pending: it would wait forever
      Blocked,    // a cross-core wait with no set pending yet
      Overtakes,  // a cross-core set that may overtake `overtaken`
    } kind = NotSync;
    mlir::Operation *overtaken = nullptr;
  };
  /// Applies `op` on `core` when it is a set/wait flag, barrier, buffer id
  /// or cross-core flag op (a blocked cross-core wait changes nothing).
  SyncOutcome synchronize(mlir::Operation *op, unsigned core);

  /// Flags set and never waited, when the run is over.
  struct PendingFlag {
    unsigned core, src, dst;
    int64_t event;
    size_t count;
  };
  std::vector<PendingFlag> pendingFlags() const;
  /// Cross-core sets never waited: (receiving core, flag, the set).
  std::vector<std::tuple<unsigned, int64_t, mlir::Operation *>>
  pendingCrossFlags() const;

  /// How reports name a core's pipe ("cube mte1").
  static std::string streamName(unsigned stream);
  /// How reports name the storage of `tensor`.
  static std::string describe(mlir::Value tensor);
  /// "writes X on the vector v pipe with nothing ordering it after the
  /// read on the vector mte3 pipe": what a race report says.
  static std::string describeRace(const Access &earlier, const Access &now);

private:
  void setFlag(unsigned core, Pipe src, Pipe dst, int64_t event);
  /// False when no set of the event is pending (nothing to wait for).
  bool waitFlag(unsigned core, Pipe src, Pipe dst, int64_t event);
  /// A full barrier: everything the core executed before it precedes
  /// everything after.
  void barrier(unsigned core);
  void getBuf(unsigned core, Pipe pipe, int64_t id);
  void rlsBuf(unsigned core, Pipe pipe, int64_t id);
  /// A cross-core set from `core`; returns the pending earlier set of the
  /// same flag it may overtake (set on another pipe, unordered), if any.
  mlir::Operation *crossSet(mlir::Operation *op, unsigned core, Pipe pipe,
                            int64_t flag);
  /// False when no set of the flag is pending: the core blocks.
  bool crossWait(unsigned core, Pipe pipe, int64_t flag);

  unsigned stream(unsigned core, Pipe pipe) const {
    return core * kNumPipes + static_cast<unsigned>(pipe);
  }
  /// Ticks `core`'s `pipe` for an op issued now.
  Clock &issue(unsigned core, Pipe pipe);

  RaceHandler onRace;
  std::array<Clock, kStreams> clocks;
  /// What every pipe of a core waits for before its next op: the core's
  /// blocking scalar waits, full barriers and scalar-pipe ops.
  std::array<Clock, kCores> issued;
  std::map<std::tuple<unsigned, unsigned, unsigned, int64_t>,
           std::deque<Clock>>
      flags; // (core, src, dst, event)
  std::map<std::pair<unsigned, int64_t>, Clock> released; // (core, buf id)
  struct PendingSet {
    Clock clock;
    mlir::Operation *op;
    unsigned stream;
  };
  std::map<std::pair<unsigned, int64_t>, std::deque<PendingSet>>
      crossFlags; // (receiving core, flag id)
  std::vector<Access> accesses;
};

} // namespace tilekit::ascendc

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_HAPPENSBEFORE_H
