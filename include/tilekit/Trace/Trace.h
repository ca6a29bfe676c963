//===- Trace.h - Trace records: the contract of execution and timing -*- C++
//-*-===//
//
// The executor emits, and the timing model reads, a sequence of records:
// DMA transfers, compute ops, memory barriers, flags between pipes, pipe
// barriers, and WORK_BEGIN/WORK_END around each work item (one block of a
// launch). The timing model never sees MLIR. docs/trace-format.md
// documents the binary file and the text dump.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_TRACE_TRACE_H
#define TILEKIT_TRACE_TRACE_H

#include "tilekit/Machine/Machine.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilekit::trace {

enum class RecordKind : uint8_t {
  WorkBegin,
  WorkEnd,
  Dma,
  Compute,
  MemoryBar,
  SetFlag,
  WaitFlag,
  PipeBarrier,
};

/// The data paths, pipes and buffers are the machine description's
/// (Machine.def); their numbering is part of the file format.
using DmaPath = machine::DataPath;
using Pipe = machine::Pipe;
using Space = machine::Buffer;
constexpr unsigned kNumDmaPaths = machine::kNumDataPaths;
constexpr unsigned kNumPipes = machine::kNumPipes;
constexpr unsigned kNumSpaces = machine::kNumBuffers;

enum class Unit : uint8_t { Cube, Vector, Scalar };

llvm::StringRef getName(RecordKind kind);
llvm::StringRef getName(Unit unit);
using machine::getDestination;
using machine::getName;
using machine::getPipe;

/// Limits of the format (the writer and both readers enforce them).
constexpr size_t kMaxBuffersPerRecord = 255;
/// Buffer ids and work items at or above these are reserved.
constexpr uint64_t kReservedBufferIds = ~uint64_t(0) - 1;
constexpr uint32_t kReservedItemIds = ~uint32_t(0) - 1;

/// One record. Fields a kind does not use stay zero.
struct Record {
  RecordKind kind = RecordKind::Compute;
  /// DMA: the path; COMPUTE: the unit; SET/WAIT_FLAG: unused;
  /// PIPE_BARRIER: the pipe.
  uint8_t sub = 0;
  /// Element type name index (into Trace::names) and bytes per element.
  uint16_t dtype = 0;
  uint8_t elementSize = 0;
  /// DMA: async (completes at issue; a MEMORY_BAR waits for the data).
  /// COMPUTE: an accumulating matmul (reads and writes its accumulator).
  bool flag = false;
  /// COMPUTE: op kind name index; SET/WAIT_FLAG: the event id.
  uint16_t op = 0;
  /// SET/WAIT_FLAG: the pipes.
  Pipe setPipe = Pipe::S, waitPipe = Pipe::S;
  /// The on-chip space the record writes (capacity), GM when none.
  Space writeSpace = Space::GM;
  /// The work item the record belongs to.
  uint32_t item = 0;
  /// Up to three extents (rows, columns, batch or depth) and element
  /// strides of the two innermost dimensions of the GM side.
  uint32_t shape[3] = {0, 0, 0};
  uint32_t strides[2] = {0, 0};
  /// DMA: bytes moved; COMPUTE: elements (vector) or M*K*N (cube).
  uint64_t amount = 0;
  /// Bytes of the buffer written (capacity).
  uint64_t writeBytes = 0;
  /// DMA async / MEMORY_BAR: the tag pair.
  uint32_t tagId = 0, tagSlot = 0;
  /// DMA to or from GM: the element offset of the box in its GM tensor
  /// (with the GM buffer id, it tells first touches from re-reads).
  uint64_t gmOffset = 0;
  /// Buffers read and written.
  llvm::SmallVector<uint64_t, 3> reads, writes;

  DmaPath path() const { return static_cast<DmaPath>(sub); }
  Unit unit() const { return static_cast<Unit>(sub); }
  Pipe barrierPipe() const { return static_cast<Pipe>(sub); }
};

/// A trace: the names its records refer to, and the records.
struct Trace {
  std::vector<std::string> names;
  std::vector<Record> records;

  /// The index of `name` in `names`, adding it when new.
  uint16_t intern(llvm::StringRef name);
  llvm::StringRef name(uint16_t index) const {
    return index < names.size() ? llvm::StringRef(names[index]) : "?";
  }

private:
  llvm::StringMap<uint16_t> indexOf;
};

/// Where records go while a kernel runs.
class TraceSink {
public:
  virtual ~TraceSink();
  virtual void emit(const Record &record) = 0;
  virtual uint16_t intern(llvm::StringRef name) = 0;
};

/// A sink that keeps the records in memory.
class TraceCollector : public TraceSink {
public:
  void emit(const Record &record) override { trace.records.push_back(record); }
  uint16_t intern(llvm::StringRef name) override { return trace.intern(name); }
  Trace trace;
};

/// The compact binary form (docs/trace-format.md).
llvm::Error writeBinaryTrace(llvm::StringRef path, const Trace &trace);
/// Reads a trace file, binary or text (recognized by its first bytes);
/// errors name the file and the record number.
llvm::Expected<Trace> readTrace(llvm::StringRef path);
llvm::Expected<Trace> parseTrace(llvm::StringRef bytes, llvm::StringRef name);

/// The readable form: one record per line.
void printTrace(llvm::raw_ostream &os, const Trace &trace);
llvm::Error writeTextTrace(llvm::StringRef path, const Trace &trace);

} // namespace tilekit::trace

#endif // TILEKIT_TRACE_TRACE_H
