//===- Machine.h - Enums and lookups over the machine description -*- C++
//-*-===//
//
// The one C++ view of Machine.def: buffers, pipes, data paths, the buffer
// of each PTO memory space and Ascend C position (the dialects map their
// own enums through TILEKIT_PTO_SPACE and TILEKIT_POSITION), and split
// codes. Header-only and free of MLIR, so the trace format and the timing
// model can use it too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_MACHINE_MACHINE_H
#define TILEKIT_MACHINE_MACHINE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tilekit::machine {

enum class Core : uint8_t { None, Cube, Vector };

enum class Buffer : uint8_t {
#define TILEKIT_BUFFER(E, NAME, CORE) E,
#include "tilekit/Machine/Machine.def"
};

enum class Pipe : uint8_t {
#define TILEKIT_PIPE(E, NAME, WHAT) E,
#include "tilekit/Machine/Machine.def"
};

enum class DataPath : uint8_t {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY) E,
#include "tilekit/Machine/Machine.def"
};

enum class SplitCode : uint8_t {
#define TILEKIT_SPLIT(E, CODE, NAME, AXIS, ODD) E = CODE,
#include "tilekit/Machine/Machine.def"
};

constexpr unsigned kNumBuffers = 0
#define TILEKIT_BUFFER(E, NAME, CORE) +1
#include "tilekit/Machine/Machine.def"
    ;
/// Pipes that execute instructions (`All` names them together).
constexpr unsigned kNumPipes = static_cast<unsigned>(Pipe::All);
constexpr unsigned kNumDataPaths = 0
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY) +1
#include "tilekit/Machine/Machine.def"
    ;
constexpr unsigned kNumSplitCodes = 0
#define TILEKIT_SPLIT(E, CODE, NAME, AXIS, ODD) +1
#include "tilekit/Machine/Machine.def"
    ;

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// The core (block) that runs work item `item` of `cores`: round robin in
/// the order items start. `tilekit sim` spreads items so, and a compiled
/// launch kernel (ascendc-form-launch) computes the same in its IR.
constexpr uint64_t getWorkItemCore(uint64_t item, uint64_t cores) {
  return item % cores;
}

constexpr llvm::StringLiteral getName(Buffer buffer) {
  switch (buffer) {
#define TILEKIT_BUFFER(E, NAME, CORE)                                          \
  case Buffer::E:                                                              \
    return NAME;
#include "tilekit/Machine/Machine.def"
  }
  return "?";
}

/// The core that owns `buffer` (None for GM).
constexpr Core getOwner(Buffer buffer) {
  switch (buffer) {
#define TILEKIT_BUFFER(E, NAME, CORE)                                          \
  case Buffer::E:                                                              \
    return Core::CORE;
#include "tilekit/Machine/Machine.def"
  }
  return Core::None;
}

/// Bytes of `buffer` on the default machine, configs/ascend910b.json (0
/// for GM: unbounded).
constexpr int64_t getDefaultCapacity(Buffer buffer) {
  switch (buffer) {
#define TILEKIT_CONFIG_CAPACITY(E, DEFAULT, LIMIT)                             \
  case Buffer::E:                                                              \
    return DEFAULT;
#include "tilekit/Machine/ConfigCapacities.inc"
  default:
    return 0;
  }
}

//===----------------------------------------------------------------------===//
// Pipes
//===----------------------------------------------------------------------===//

/// The largest capacity of `buffer` in any machine config (0 for GM): a
/// tile address past it is wrong on every machine, so the verifier rejects
/// it; planning and `sim` check the capacities of the config in use.
constexpr int64_t getCapacityLimit(Buffer buffer) {
  switch (buffer) {
#define TILEKIT_CONFIG_CAPACITY(E, DEFAULT, LIMIT)                             \
  case Buffer::E:                                                              \
    return LIMIT;
#include "tilekit/Machine/ConfigCapacities.inc"
  default:
    return 0;
  }
}

/// Where an allocation in `buffer` may start, in bytes.
constexpr int64_t getAlignment(Buffer buffer) {
  switch (buffer) {
#define TILEKIT_BUFFER_ALIGNMENT(E, BYTES)                                     \
  case Buffer::E:                                                              \
    return BYTES;
#include "tilekit/Machine/Machine.def"
  }
  return 1;
}

/// Whether two work items that each use `bytes` of `buffer` fit its
/// `capacity` together, the second placed above the first at the buffer's
/// allocation alignment (at least a 32-byte block): the one rule by which
/// a core overlaps consecutive items, in the compiled kernel
/// (ascendc-form-launch) and in the timing model's item gate.
constexpr bool fitsTwice(Buffer buffer, int64_t bytes, int64_t capacity) {
  int64_t alignment = getAlignment(buffer) > 32 ? getAlignment(buffer) : 32;
  int64_t placed = (bytes + alignment - 1) / alignment * alignment;
  return placed + bytes <= capacity;
}

constexpr llvm::StringLiteral getName(Pipe pipe) {
  switch (pipe) {
#define TILEKIT_PIPE(E, NAME, WHAT)                                            \
  case Pipe::E:                                                                \
    return NAME;
#include "tilekit/Machine/Machine.def"
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Data paths
//===----------------------------------------------------------------------===//

constexpr llvm::StringLiteral getName(DataPath path) {
  switch (path) {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY)                       \
  case DataPath::E:                                                            \
    return NAME;
#include "tilekit/Machine/Machine.def"
  }
  return "?";
}

constexpr Buffer getSource(DataPath path) {
  switch (path) {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY)                       \
  case DataPath::E:                                                            \
    return Buffer::FROM;
#include "tilekit/Machine/Machine.def"
  }
  return Buffer::GM;
}

constexpr Buffer getDestination(DataPath path) {
  switch (path) {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY)                       \
  case DataPath::E:                                                            \
    return Buffer::TO;
#include "tilekit/Machine/Machine.def"
  }
  return Buffer::GM;
}

/// The engine (pipe) that moves data along `path`.
constexpr Pipe getPipe(DataPath path) {
  switch (path) {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY)                       \
  case DataPath::E:                                                            \
    return Pipe::PIPE;
#include "tilekit/Machine/Machine.def"
  }
  return Pipe::All;
}

/// Whether a flag from pipe `src` to pipe `dst` exists (Ascend C's
/// HardEvent has a member for the pair).
constexpr bool hasHardEvent(Pipe src, Pipe dst) {
#define TILEKIT_HARD_EVENT(SRC, DST)                                           \
  if (src == Pipe::SRC && dst == Pipe::DST)                                    \
    return true;
#include "tilekit/Machine/Machine.def"
  return false;
}

#define TILEKIT_EVENT_IDS(COUNT, RESERVED)                                     \
  /** The event ids of SetFlag / WaitFlag, and the first one reserved. */      \
  constexpr int64_t kEventIds = COUNT, kFirstReservedEventId = RESERVED;
#include "tilekit/Machine/Machine.def"

#define TILEKIT_CROSS_CORE_FLAGS(COUNT, SETS)                                  \
  /** The cross-core flag ids: 0 to kCrossCoreFlags - 1; the sets of one */    \
  /** flag pending at once. */                                                 \
  constexpr int64_t kCrossCoreFlags = COUNT, kCrossCoreFlagSets = SETS;
#include "tilekit/Machine/Machine.def"

#define TILEKIT_NPU_ARCH(C220, C310)                                           \
  /** __NPU_ARCH__ of each architecture, as the device compiler has it. */     \
  constexpr int kNpuArchC220 = C220, kNpuArchC310 = C310;
#include "tilekit/Machine/Machine.def"

#define TILEKIT_MUTEX_IDS(COUNT)                                               \
  /** The buffer ids a kernel picks: 0 to kMutexIds - 1. */                    \
  constexpr int64_t kMutexIds = COUNT;
#include "tilekit/Machine/Machine.def"

/// Whether only a cross-core push takes `path` (never a tile move).
constexpr bool isPushOnly(DataPath path) {
  switch (path) {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY)                       \
  case DataPath::E:                                                            \
    return PUSH_ONLY;
#include "tilekit/Machine/Machine.def"
  }
  return false;
}

/// The path from `from` to `to`, if the machine has one.
constexpr std::optional<DataPath> findPath(Buffer from, Buffer to) {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH_ONLY)                       \
  if (from == Buffer::FROM && to == Buffer::TO)                                \
    return DataPath::E;
#include "tilekit/Machine/Machine.def"
  return std::nullopt;
}

/// The path a tile move takes from `from` to `to`, if it may.
constexpr std::optional<DataPath> findMovePath(Buffer from, Buffer to) {
  std::optional<DataPath> path = findPath(from, to);
  if (path && isPushOnly(*path))
    return std::nullopt;
  return path;
}

//===----------------------------------------------------------------------===//
// Split codes
//===----------------------------------------------------------------------===//

/// The split code numbered `code`, if there is one.
constexpr std::optional<SplitCode> getSplitCode(int64_t code) {
#define TILEKIT_SPLIT(E, CODE, NAME, AXIS, ODD)                                \
  if (code == CODE)                                                            \
    return SplitCode::E;
#include "tilekit/Machine/Machine.def"
  return std::nullopt;
}

constexpr llvm::StringLiteral getName(SplitCode split) {
  switch (split) {
#define TILEKIT_SPLIT(E, CODE, NAME, AXIS, ODD)                                \
  case SplitCode::E:                                                           \
    return NAME;
#include "tilekit/Machine/Machine.def"
  }
  return "?";
}

/// The dimension a split cuts; -1 for none.
constexpr int getSplitAxis(SplitCode split) {
  switch (split) {
#define TILEKIT_SPLIT(E, CODE, NAME, AXIS, ODD)                                \
  case SplitCode::E:                                                           \
    return AXIS;
#include "tilekit/Machine/Machine.def"
  }
  return -1;
}

/// Whether a split divides an odd valid extent (lane 0 keeps one more).
constexpr bool isOddSplit(SplitCode split) {
  switch (split) {
#define TILEKIT_SPLIT(E, CODE, NAME, AXIS, ODD)                                \
  case SplitCode::E:                                                           \
    return ODD;
#include "tilekit/Machine/Machine.def"
  }
  return false;
}

} // namespace tilekit::machine

#endif // TILEKIT_MACHINE_MACHINE_H
