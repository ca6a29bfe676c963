//===- Trace.h - Trace records: the contract of execution and timing -*- C++
//-*-===//
//
// The executor emits, and the timing model reads, a sequence of records:
// DMA transfers, compute ops, memory barriers, flags between pipes, pipe
// barriers, cross-core pushes and pops, and WORK_BEGIN/WORK_END around each
// work item. The record itself is the C struct of TraceABI.h; this header
// gives it C++ accessors, and adds the name and location tables, sinks,
// and the file reader and writers. docs/trace-format.md documents the files.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TRACE_TRACE_H
#define TILEKIT_TRACE_TRACE_H

#include "tilekit/Machine/Machine.h"
#include "tilekit/Trace/TraceABI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilekit::trace {

enum class RecordKind : uint8_t {
  WorkBegin = TILEKIT_TRACE_WORK_BEGIN,
  WorkEnd = TILEKIT_TRACE_WORK_END,
  Dma = TILEKIT_TRACE_DMA,
  Compute = TILEKIT_TRACE_COMPUTE,
  MemoryBar = TILEKIT_TRACE_MEMORY_BAR,
  SetFlag = TILEKIT_TRACE_SET_FLAG,
  WaitFlag = TILEKIT_TRACE_WAIT_FLAG,
  PipeBarrier = TILEKIT_TRACE_BARRIER,
  Push = TILEKIT_TRACE_PUSH,
  Pop = TILEKIT_TRACE_POP,
};
constexpr unsigned kNumRecordKinds = TILEKIT_TRACE_NUM_KINDS;

/// The core of an AI core a record runs on.
enum class CoreKind : uint8_t {
  Cube = TILEKIT_TRACE_CUBE,
  Vector = TILEKIT_TRACE_VECTOR,
  AiCore = TILEKIT_TRACE_AICORE,
};

enum class Unit : uint8_t { Cube, Vector, Scalar };

/// The data paths, pipes and buffers are the machine description's
/// (Machine.def); their numbering is part of the ABI.
using DmaPath = machine::DataPath;
using Pipe = machine::Pipe;
using Space = machine::Buffer;
constexpr unsigned kNumDmaPaths = machine::kNumDataPaths;
constexpr unsigned kNumPipes = machine::kNumPipes;
constexpr unsigned kNumSpaces = machine::kNumBuffers;

llvm::StringRef getName(RecordKind kind);
llvm::StringRef getName(Unit unit);
llvm::StringRef getName(CoreKind core);
using machine::getDestination;
using machine::getName;
using machine::getPipe;
using machine::getSource;

/// Limits of the format (the writers and readers enforce them).
constexpr size_t kMaxBuffersPerRecord = TILEKIT_TRACE_MAX_BUFFERS;
/// Buffer ids and work items at or above these are reserved.
constexpr uint64_t kReservedBufferIds = ~uint64_t(0) - 1;
constexpr uint32_t kReservedItemIds = ~uint32_t(0) - 1;

/// One record: the ABI struct with typed accessors. Fields a kind does not
/// use stay zero.
struct Record : tilekit_trace_record {
  Record() : tilekit_trace_record{} {}
  explicit Record(RecordKind kind) : tilekit_trace_record{} { setKind(kind); }
  /// Leaves the fields uninitialized, for storage about to be overwritten.
  struct Uninitialized {};
  explicit Record(Uninitialized) {}

  RecordKind getKind() const { return static_cast<RecordKind>(kind); }
  void setKind(RecordKind value) { kind = static_cast<uint8_t>(value); }
  CoreKind getCore() const { return static_cast<CoreKind>(core); }
  void setCore(CoreKind value, unsigned laneIndex = 0) {
    core = static_cast<uint8_t>(value);
    lane = static_cast<uint8_t>(laneIndex);
  }
  DmaPath path() const { return static_cast<DmaPath>(sub); }
  Unit unit() const { return static_cast<Unit>(sub); }
  Pipe barrierPipe() const { return static_cast<Pipe>(sub); }
  Pipe getSetPipe() const { return static_cast<Pipe>(set_pipe); }
  Pipe getWaitPipe() const { return static_cast<Pipe>(wait_pipe); }
  Space getSpace() const { return static_cast<Space>(space); }
  void setSpace(Space value) { space = static_cast<uint8_t>(value); }
  /// DMA: async; COMPUTE: an accumulating matmul.
  bool hasFlag() const { return flags & 1; }
  void setFlag(bool value) { flags = value ? 1 : 0; }
  /// WORK_BEGIN: a compiled kernel's block, ordered by its flags alone.
  bool isExplicitlySynchronized() const {
    return flags & TILEKIT_TRACE_EXPLICIT_SYNC;
  }
  /// SET/WAIT_FLAG: a cross-core flag (laneMask() the vector lanes).
  bool isCrossCore() const { return flags & TILEKIT_TRACE_CROSS_CORE; }
  /// SET/WAIT_FLAG: a buffer id's release / acquisition on set_pipe.
  bool isBufferId() const { return flags & TILEKIT_TRACE_BUFFER_ID; }

  llvm::ArrayRef<uint64_t> reads() const { return {buffers, num_reads}; }
  llvm::ArrayRef<uint64_t> writes() const {
    return {buffers + num_reads, num_writes};
  }
  /// Adds a buffer read or written; past kMaxBuffersPerRecord the record is
  /// marked overfull, which writers and the timing model reject.
  void addRead(uint64_t buffer);
  void addWrite(uint64_t buffer);
  bool isOverfull() const { return reserved != 0; }
  /// PUSH/POP and cross-core flags: the lane queues (bit per lane).
  unsigned laneMask() const { return tag_id; }
  /// PUSH/POP: whether the cube pushed the tile (its path leaves L0C; a
  /// vector core's leaves UB).
  bool isFromCube() const { return machine::getSource(path()) == Space::L0C; }
};

/// The core a record runs on outside a cross-core group: cube ops and
/// transfers touching the cube's buffers on the cube core, the rest on
/// vector core 0; a flag on the core of its pipe on its side (the other
/// side decides for the shared MTE2/MTE3/S); a barrier on every pipe on
/// the whole AI core.
CoreKind defaultCore(const Record &record);

/// A source position; file is a name index.
struct SourceLocation {
  uint16_t file = 0;
  uint32_t line = 0, column = 0;
};

/// The names (op kinds, element types, file names) and source locations
/// records refer to by index. Location 0 is "unknown".
class TraceTables {
public:
  TraceTables() : locations(1) {}
  uint16_t intern(llvm::StringRef name);
  uint32_t internLocation(llvm::StringRef file, uint32_t line, uint32_t column);
  llvm::StringRef name(uint16_t index) const {
    return index < names.size() ? llvm::StringRef(names[index]) : "?";
  }
  const SourceLocation *location(uint32_t index) const {
    return index && index < locations.size() ? &locations[index] : nullptr;
  }
  /// "file:line:col", or "?" for an unknown location.
  std::string describeLocation(uint32_t index) const;
  llvm::ArrayRef<std::string> getNames() const { return names; }
  llvm::ArrayRef<SourceLocation> getLocations() const { return locations; }
  size_t size() const { return names.size(); }

private:
  std::vector<std::string> names;
  std::vector<SourceLocation> locations;
  llvm::StringMap<uint16_t> indexOf;
  llvm::DenseMap<std::tuple<uint16_t, uint32_t, uint32_t>, uint32_t> locationOf;
};

/// A whole trace in memory.
struct Trace {
  TraceTables tables;
  std::vector<Record> records;
  llvm::StringRef name(uint16_t index) const { return tables.name(index); }
};

/// Where records go while a kernel runs. Names and locations are interned
/// in the sink's tables before a record refers to them.
class TraceSink {
public:
  virtual ~TraceSink();
  virtual void emit(const Record &record) = 0;
  virtual TraceTables &getTables() = 0;
};

/// A sink that keeps the records in memory.
class TraceCollector : public TraceSink {
public:
  void emit(const Record &record) override { trace.records.push_back(record); }
  TraceTables &getTables() override { return trace.tables; }
  Trace trace;
};

/// Checks a record read from a file or produced elsewhere: known kinds,
/// paths, pipes, spaces and name indices, and the format's limits.
llvm::Error checkRecord(const Record &record, const TraceTables &tables);

/// Writes records as they come to a binary (default) or text (`.txt`)
/// trace file: the file appears, complete, when finish() succeeds, and not
/// at all otherwise. Memory stays bounded by the output buffer.
class TraceFileWriter : public TraceSink {
public:
  /// Opens a temporary file next to `path`; `tables` are the names the
  /// records refer to (written at the end of a binary file).
  static llvm::Expected<std::unique_ptr<TraceFileWriter>>
  create(llvm::StringRef path, TraceTables &tables);
  ~TraceFileWriter() override;
  void emit(const Record &record) override;
  TraceTables &getTables() override { return tables; }
  llvm::Error finish();

  /// The open file (TraceFile.cpp).
  struct Impl;
  TraceFileWriter(std::unique_ptr<Impl> impl, TraceTables &tables);

private:
  std::unique_ptr<Impl> impl;
  TraceTables &tables;
};

/// Reads a trace file record by record: a binary file as a stream (memory
/// bounded by a chunk, whatever the trace's length), a text file whole.
/// Errors name the file and the record number.
class TraceReader {
public:
  static llvm::Expected<std::unique_ptr<TraceReader>>
  open(llvm::StringRef path);
  virtual ~TraceReader();
  const TraceTables &getTables() const { return tables; }
  /// The next record (valid until the next call); null at the end.
  virtual llvm::Expected<const Record *> next() = 0;
  /// The next record into `record`; false at the end.
  virtual llvm::Expected<bool> readInto(Record &record);

protected:
  TraceTables tables;
};

/// Reads a whole trace file, binary or text (recognized by its first bytes).
llvm::Expected<Trace> readTrace(llvm::StringRef path);
llvm::Expected<Trace> parseTrace(llvm::StringRef bytes, llvm::StringRef name);
llvm::Error writeBinaryTrace(llvm::StringRef path, const Trace &trace);
llvm::Error writeTextTrace(llvm::StringRef path, const Trace &trace);

/// The readable form: one record per line.
void printRecord(llvm::raw_ostream &os, size_t index, const Record &record,
                 const TraceTables &tables);
void printTrace(llvm::raw_ostream &os, const Trace &trace);

/// Merges the streams the cores of one AI core wrote, each in its own
/// order, into one deterministic order in which every pop follows its push
/// and every push finds a free slot: records are taken from the first
/// stream until it blocks, then from the next, round robin. The result
/// depends only on the streams' contents, never on how the cores'
/// threads interleaved. Streams that cannot be merged (a pop without a
/// push) are appended in stream order; the timing model reports them.
std::vector<Record>
mergeCoreStreams(llvm::ArrayRef<std::vector<Record>> streams);

} // namespace tilekit::trace

#endif // TILEKIT_TRACE_TRACE_H
