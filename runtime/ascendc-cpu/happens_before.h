//===- happens_before.h - Pipe ordering of emitted kernels on the CPU -----===//
//
// The CPU runtime runs a core's instructions in order, so a kernel whose
// flags are wrong still computes the right numbers here: this model says
// whether the machine, whose pipes run concurrently, would have ordered
// them. It is the AscendC executor's model, one definition for both
// (tilekit/Support/StreamOrder.h): each pipe of each core is a stream with
// a vector clock; set/wait flags, full barriers, buffer ids and cross-core
// flags join clocks; the scalar pipe issues every op; an access to a
// storage (a planned local allocation, or a GM buffer) that an access on
// another stream wrote (or read, for a write) without an edge between them
// is a race. A block's two cores share one model under one lock, and a
// cross-core wait blocks its thread until a set is pending, so the model
// sees a run the machine could make.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_RUNTIME_ASCENDC_CPU_HAPPENS_BEFORE_H
#define TILEKIT_RUNTIME_ASCENDC_CPU_HAPPENS_BEFORE_H

#include "tilekit/Support/StreamOrder.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace AscendC::cpu {

// The machine's buffers, pipes and data paths, as tilekit describes them
// once (include/tilekit/Machine/Machine.def).
enum class Buffer : uint8_t {
#define TILEKIT_BUFFER(E, NAME, CORE) E,
#include "tilekit/Machine/Machine.def"
#undef TILEKIT_BUFFER
};
enum class Pipe : uint8_t {
#define TILEKIT_PIPE(E, NAME, WHAT) E,
#include "tilekit/Machine/Machine.def"
#undef TILEKIT_PIPE
};
constexpr unsigned kPipes = 0
#define TILEKIT_PIPE(E, NAME, WHAT) +1
#include "tilekit/Machine/Machine.def"
#undef TILEKIT_PIPE
    ;

inline const char *pipeName(Pipe pipe) {
  static const char *const names[] = {
#define TILEKIT_PIPE(E, NAME, WHAT) NAME,
#include "tilekit/Machine/Machine.def"
#undef TILEKIT_PIPE
  };
  return names[static_cast<unsigned>(pipe)];
}
inline const char *bufferName(Buffer buffer) {
  switch (buffer) {
  case Buffer::L0A:
    return "L0A";
  case Buffer::L0B:
    return "L0B";
  case Buffer::L0C:
    return "L0C";
  case Buffer::L1:
    return "L1";
  case Buffer::UB:
    return "UB";
  case Buffer::Bias:
    return "BT";
  default:
    return "GM";
  }
}

/// Where the current instruction of a thread came from: the MLIR location
/// and the emitted line (set by the --compiled build's markers).
struct Origin {
  const char *location = nullptr;
  int line = 0;
};

/// What stops a kernel: an access the machine would not make, a race, a
/// wait that can never end, a failed assertion. The entry reports it with
/// where it happened (and where the earlier access of a race was).
struct KernelFault {
  std::string message;
  Origin at, earlier;
  /// A stall (a deadlock, the step limit, the timeout) rather than a
  /// fault of the kernel: the driver reports it as the executor does one.
  bool stall = false;
};

/// A storage as the executor's race model names it: a planned local
/// allocation's byte range in a buffer, or a GM buffer (`root`).
using Storage = tilekit::StreamStorage;

/// A GM buffer reports name: a tensor argument (`bytes` 0) or the
/// workspace, whose regions are named by their offset.
struct GmName {
  const void *base;
  const char *name;
  size_t bytes;
};

/// One tensor an instruction reads or writes.
struct TensorUse {
  Storage storage;
  bool writes;
};

class HappensBefore {
public:
  /// Names GM buffers in reports ("GM tensor 'x'").
  void nameGm(GmName name) { gmNames.push_back(name); }

  /// An instruction on `pipe` of `core` using `tensors`.
  void access(unsigned core, Pipe pipe, Origin at,
              std::initializer_list<TensorUse> tensors) {
    std::lock_guard<std::mutex> lock(mutex);
    unsigned s = Model::stream(core, index(pipe));
    auto &clock = model.issue(core, index(pipe));
    for (const TensorUse &use : tensors)
      model.access(
          s, clock, use.writes, use.storage, at,
          [&](const Access &earlier, const Access &now) {
            fault(KernelFault{describeRace(earlier, now), at, earlier.payload});
          });
  }

  /// The chip keeps one bit per event: a set whose earlier set may not
  /// have been waited for is lost (cceapi set_flag & wait_flag).
  void setFlag(unsigned core, Pipe src, Pipe dst, int event, Origin at) {
    std::lock_guard<std::mutex> lock(mutex);
    if (model.setFlag(core, index(src), index(dst), event) !=
        Model::SetCheck::Clear)
      fault(KernelFault{"sets event " + std::to_string(event) + " from " +
                            pipeName(src) + " to " + pipeName(dst) +
                            " while an earlier set of it may not have been "
                            "waited for: the chip keeps one bit per event, "
                            "so the second set is lost and a wait hangs",
                        at,
                        {}});
  }
  /// A wait with no set pending would wait forever.
  void waitFlag(unsigned core, Pipe src, Pipe dst, int event, Origin at) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!model.waitFlag(core, index(src), index(dst), event))
      fault(KernelFault{"waits for event " + std::to_string(event) + " from " +
                            pipeName(src) + " to " + pipeName(dst) +
                            ", which no earlier op set: the " + coreName(core) +
                            " core would wait forever (a deadlock)",
                        at,
                        {},
                        /*stall=*/true});
  }
  /// PIPE_ALL: everything the core executed precedes everything after.
  void barrier(unsigned core) {
    std::lock_guard<std::mutex> lock(mutex);
    model.barrier(core);
  }
  void getBuf(unsigned core, Pipe pipe, uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex);
    model.getBuf(core, index(pipe), static_cast<int64_t>(id));
  }
  void rlsBuf(unsigned core, Pipe pipe, uint64_t id) {
    std::lock_guard<std::mutex> lock(mutex);
    model.rlsBuf(core, index(pipe), static_cast<int64_t>(id));
  }

  /// A cross-core set from `core`'s `pipe` for the other core.
  void crossSet(unsigned core, Pipe pipe, uint16_t flag, Origin at) {
    std::lock_guard<std::mutex> lock(mutex);
    checkFlag(flag, at);
    model.crossSet(core, index(pipe), flag, at);
    for (unsigned receiver : model.peers(core))
      if (model.crossInFlight(receiver, flag, core, index(pipe)) >
          kCrossFlagSets)
        fault(KernelFault{"sets cross-core flag " + std::to_string(flag) +
                              " while " + std::to_string(kCrossFlagSets) +
                              " sets of it may be pending: its counter "
                              "holds " +
                              std::to_string(kCrossFlagSets),
                          at});
    changed.notify_all();
  }
  /// Blocks until a set of `flag` is pending for `core` (from each vector
  /// core, on the cube of a 1:2 block), then takes it. A wait no set can
  /// answer (a core that would set it has returned, or every core waits on
  /// a flag nobody set) is a deadlock.
  void crossWait(unsigned core, Pipe pipe, uint16_t flag, Origin at) {
    std::unique_lock<std::mutex> lock(mutex);
    checkFlag(flag, at);
    while (!model.crossPending(core, flag)) {
      if (stopped)
        throw KernelFault{}; // the other core's fault is the report
      for (unsigned peer : model.peers(core))
        if (done[peer] && !model.crossPendingFrom(core, flag, peer))
          fault(KernelFault{"waits for cross-core flag " +
                                std::to_string(flag) + ", which the " +
                                coreName(peer) +
                                " core never sets: it has returned (a "
                                "deadlock)",
                            at,
                            {},
                            /*stall=*/true});
      waiting[core] = flag;
      waitingAt[core] = at;
      if (stuck()) {
        // Reported at the first vector core's wait and the cube's,
        // whichever thread finds it, so that every run says the same.
        unsigned vector = 1;
        while (waiting[vector] < 0)
          ++vector;
        fault(KernelFault{"waits for cross-core flag " +
                              std::to_string(waiting[vector]) +
                              ", which the cube core cannot set: it waits "
                              "for flag " +
                              std::to_string(waiting[0]) + " too (a deadlock)",
                          waitingAt[vector], waitingAt[0],
                          /*stall=*/true});
      }
      changed.wait(lock);
      waiting[core] = -1;
    }
    model.crossWait(core, index(pipe), flag);
  }

  /// After the kernel has returned: a flag set and never waited is an
  /// error, as in the executor (the machine would carry it into the next
  /// kernel).
  void checkFlagsWaited() {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto &[key, count] : model.pendingFlags()) {
      auto [core, src, dst, event] = key;
      (void)core;
      throw KernelFault{"returns with " + std::to_string(count) + " set_flag " +
                        pipeName(static_cast<Pipe>(src)) + " -> " +
                        pipeName(static_cast<Pipe>(dst)) + " event " +
                        std::to_string(event) + " never waited"};
    }
    for (const auto &[receiver, flag, set] : model.pendingCrossFlags())
      throw KernelFault{"sets cross-core flag " + std::to_string(flag) +
                            ", which the " + coreName(receiver) +
                            " core never waits for before the kernel returns",
                        set};
  }

  /// Runs the block's cross-core flags between the cube and `count`
  /// vector cores (2 in a 1:2 kernel), before any instruction.
  void setVectorCores(unsigned count) { model.setVectorCores(count); }

  /// `core` has returned, or stopped on a fault.
  void finish(unsigned core, bool faulted) {
    std::lock_guard<std::mutex> lock(mutex);
    done[core] = true;
    stopped |= faulted;
    changed.notify_all();
  }

private:
  using Model =
      tilekit::StreamOrder<kPipes, static_cast<unsigned>(Pipe::S), Origin, 3>;
  using Access = typename Model::Access;
  static constexpr unsigned kCores = Model::kCores;

  static unsigned index(Pipe pipe) { return static_cast<unsigned>(pipe); }
  static const char *coreName(unsigned core) {
    return core == 0 ? "cube" : "vector";
  }
  /// Whether no core of the block can go on: each has returned or waits
  /// for a flag no set is pending for (and the cube and a vector core
  /// wait).
  bool stuck() const {
    for (unsigned core = 0; core <= model.getVectorCores(); ++core)
      if (!done[core] &&
          (waiting[core] < 0 || model.crossPending(core, waiting[core])))
        return false;
    return waiting[0] >= 0 && (waiting[1] >= 0 || waiting[2] >= 0);
  }
  static std::string streamName(unsigned s) {
    return std::string(coreName(s / kPipes)) + " " +
           pipeName(static_cast<Pipe>(s % kPipes));
  }
  std::string describe(const Storage &storage) const {
    if (!storage.root)
      return std::string(bufferName(static_cast<Buffer>(storage.buffer))) +
             (storage.owner ? " of vector core " + std::to_string(storage.owner)
                            : std::string()) +
             "[" + std::to_string(storage.begin) + ", " +
             std::to_string(storage.end) + ")";
    auto at = static_cast<const char *>(storage.root);
    for (const GmName &gm : gmNames) {
      auto base = static_cast<const char *>(gm.base);
      if (at == base && !gm.bytes)
        return "GM tensor '" + std::string(gm.name) + "'";
      if (at >= base && at < base + gm.bytes)
        return "the " + std::string(gm.name) + " at byte " +
               std::to_string(at - base);
    }
    return "a GM buffer";
  }
  /// As the executor says it (HappensBefore::describeRace).
  std::string describeRace(const Access &earlier, const Access &now) const {
    return std::string(now.writes ? "writes " : "reads ") +
           describe(now.storage) + " on the " + streamName(now.stream) +
           " pipe with nothing ordering it after the " +
           (earlier.writes ? "write" : "read") + " on the " +
           streamName(earlier.stream) + " pipe (a race)";
  }
  void checkFlag(uint16_t flag, Origin at) {
    if (flag >= kCrossFlags)
      fault(KernelFault{"cross-core flag " + std::to_string(flag) +
                            " is past the " + std::to_string(kCrossFlags) +
                            " the machine has",
                        at});
  }
  /// Stops the run (the other core's waits end too) and throws.
  [[noreturn]] void fault(KernelFault report) {
    stopped = true;
    changed.notify_all();
    throw report;
  }

#define TILEKIT_CROSS_CORE_FLAGS(COUNT, SETS)                                  \
  static constexpr unsigned kCrossFlags = COUNT, kCrossFlagSets = SETS;
#include "tilekit/Machine/Machine.def"
  std::mutex mutex;
  std::condition_variable changed;
  Model model;
  std::vector<GmName> gmNames;
  int waiting[kCores] = {-1, -1, -1};
  Origin waitingAt[kCores];
  bool done[kCores] = {false, false, false};
  bool stopped = false;
};

} // namespace AscendC::cpu

#endif // TILEKIT_RUNTIME_ASCENDC_CPU_HAPPENS_BEFORE_H
