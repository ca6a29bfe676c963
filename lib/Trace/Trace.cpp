//===- Trace.cpp - Trace records, tables and checks -----------------------===//

#include "tilekit/Trace/Trace.h"

#include "TraceFormats.h"

#include "tilekit/Support/InputFile.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace tilekit;
using namespace tilekit::trace;

static const char *const kKindNames[] = {
    "work_begin", "work_end",  "dma",     "compute", "memory_bar",
    "set_flag",   "wait_flag", "barrier", "push",    "pop"};
static_assert(std::size(kKindNames) == kNumRecordKinds);
static const char *const kUnitNames[] = {"cube", "vector", "scalar"};
static const char *const kCoreNames[] = {"cube", "vector", "aicore"};

StringRef trace::getName(RecordKind kind) {
  return kKindNames[static_cast<unsigned>(kind)];
}
StringRef trace::getName(Unit unit) {
  return kUnitNames[static_cast<unsigned>(unit)];
}
StringRef trace::getName(CoreKind core) {
  return kCoreNames[static_cast<unsigned>(core)];
}

std::optional<uint8_t> trace::format::lookupKind(StringRef name) {
  for (unsigned i = 0; i < kNumRecordKinds; ++i)
    if (name == kKindNames[i])
      return i;
  return std::nullopt;
}
std::optional<uint8_t> trace::format::lookupUnit(StringRef name) {
  for (unsigned i = 0; i < std::size(kUnitNames); ++i)
    if (name == kUnitNames[i])
      return i;
  return std::nullopt;
}
std::optional<uint8_t> trace::format::lookupCore(StringRef name) {
  for (unsigned i = 0; i < std::size(kCoreNames); ++i)
    if (name == kCoreNames[i])
      return i;
  return std::nullopt;
}

void Record::addRead(uint64_t buffer) { tilekit_trace_add_read(this, buffer); }

void Record::addWrite(uint64_t buffer) {
  tilekit_trace_add_write(this, buffer);
}

uint16_t TraceTables::intern(StringRef name) {
  auto [it, inserted] =
      indexOf.try_emplace(name, static_cast<uint16_t>(names.size()));
  if (inserted)
    names.push_back(name.str());
  return it->second;
}

uint32_t TraceTables::internLocation(StringRef file, uint32_t line,
                                     uint32_t column) {
  uint16_t fileIndex = intern(file);
  auto [it, inserted] =
      locationOf.try_emplace(std::make_tuple(fileIndex, line, column),
                             static_cast<uint32_t>(locations.size()));
  if (inserted)
    locations.push_back({fileIndex, line, column});
  return it->second;
}

std::string TraceTables::describeLocation(uint32_t index) const {
  const SourceLocation *loc = location(index);
  if (!loc)
    return "?";
  return (name(loc->file) + ":" + Twine(loc->line) + ":" + Twine(loc->column))
      .str();
}

TraceSink::~TraceSink() = default;
TraceReader::~TraceReader() = default;

Expected<bool> TraceReader::readInto(Record &record) {
  Expected<const Record *> next = this->next();
  if (!next)
    return next.takeError();
  if (!*next)
    return false;
  record = **next;
  return true;
}

Error trace::checkRecord(const Record &record, const TraceTables &tables) {
  auto bad = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  if (record.kind >= kNumRecordKinds)
    return bad("unknown record kind " + Twine(unsigned(record.kind)));
  if (record.core > static_cast<unsigned>(CoreKind::AiCore))
    return bad("unknown core " + Twine(unsigned(record.core)));
  if (record.lane > 1)
    return bad("lane " + Twine(unsigned(record.lane)) +
               " is out of range (an AI core has vector cores 0 and 1)");
  RecordKind kind = record.getKind();
  bool transfer = kind == RecordKind::Dma || kind == RecordKind::Push ||
                  kind == RecordKind::Pop;
  if (transfer && record.sub >= kNumDmaPaths)
    return bad("unknown DMA path " + Twine(unsigned(record.sub)));
  if (kind == RecordKind::Compute && record.sub > 2)
    return bad("unknown unit " + Twine(unsigned(record.sub)));
  if (kind == RecordKind::PipeBarrier && record.sub > kNumPipes)
    return bad("unknown pipe " + Twine(unsigned(record.sub)));
  if (record.set_pipe >= kNumPipes || record.wait_pipe >= kNumPipes)
    return bad("unknown flag pipe");
  if (record.space >= kNumSpaces)
    return bad("unknown space " + Twine(unsigned(record.space)));
  if ((record.dtype && record.dtype >= tables.size()) ||
      (kind == RecordKind::Compute && record.op >= tables.size()))
    return bad("name index out of range");
  if (record.loc >= tables.getLocations().size())
    return bad("location " + Twine(record.loc) + " is not in the table");
  if (record.isOverfull() ||
      record.num_reads + record.num_writes > kMaxBuffersPerRecord)
    return bad("lists more than " + Twine(kMaxBuffersPerRecord) +
               " buffers read and written");
  for (uint64_t id :
       ArrayRef(record.buffers, record.num_reads + record.num_writes))
    if (id >= kReservedBufferIds)
      return bad("buffer id " + Twine(id) + " is reserved (at most " +
                 Twine(kReservedBufferIds - 1) + ")");
  if (record.item >= kReservedItemIds)
    return bad("work item " + Twine(record.item) + " is reserved (at most " +
               Twine(kReservedItemIds - 1) + ")");
  return Error::success();
}

Expected<Trace> trace::parseTrace(StringRef bytes, StringRef name) {
  if (format::isBinaryTrace(bytes))
    return format::parseBinary(bytes, name);
  return format::parseText(bytes, name);
}

Expected<Trace> trace::readTrace(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buffer = readInputFile(path);
  if (!buffer)
    return buffer.takeError();
  return parseTrace((*buffer)->getBuffer(), path);
}

/// Writes a whole trace through the streaming writer of its form.
static Error writeWholeTrace(StringRef path, const Trace &trace, bool text) {
  TraceTables tables = trace.tables;
  Expected<std::unique_ptr<TraceFileWriter>> writer =
      format::createWriter(path, tables, text);
  if (!writer)
    return writer.takeError();
  for (const Record &record : trace.records)
    (*writer)->emit(record);
  return (*writer)->finish();
}

Error trace::writeBinaryTrace(StringRef path, const Trace &trace) {
  return writeWholeTrace(path, trace, /*text=*/false);
}

Error trace::writeTextTrace(StringRef path, const Trace &trace) {
  return writeWholeTrace(path, trace, /*text=*/true);
}

/// The core of a pipe outside a group: the cube's own pipes, the vector
/// pipe, or none for the pipes both have (MTE2, MTE3, S).
static std::optional<CoreKind> coreOfPipe(trace::Pipe pipe) {
  switch (pipe) {
  case trace::Pipe::M:
  case trace::Pipe::MTE1:
  case trace::Pipe::FIX:
    return CoreKind::Cube;
  case trace::Pipe::V:
    return CoreKind::Vector;
  default:
    return std::nullopt;
  }
}

static bool isCubeSpace(Space space) {
  return space != Space::GM && space != Space::UB;
}

/// Outside a group the record says which core runs it: cube ops and
/// transfers touching the cube's buffers run on the cube core, the rest on
/// vector core 0; a flag belongs to the core of its pipe on its side (the
/// other side decides for the shared MTE2/MTE3/S); a barrier on every pipe
/// spans the AI core.
CoreKind trace::defaultCore(const Record &record) {
  switch (record.getKind()) {
  case RecordKind::Compute:
    return record.unit() == trace::Unit::Cube ? CoreKind::Cube
                                              : CoreKind::Vector;
  case RecordKind::Dma:
  case RecordKind::Push:
  case RecordKind::Pop:
    return isCubeSpace(trace::getSource(record.path())) ||
                   isCubeSpace(trace::getDestination(record.path()))
               ? CoreKind::Cube
               : CoreKind::Vector;
  case RecordKind::SetFlag:
  case RecordKind::WaitFlag: {
    bool set = record.getKind() == RecordKind::SetFlag;
    trace::Pipe own = set ? record.getSetPipe() : record.getWaitPipe();
    trace::Pipe other = set ? record.getWaitPipe() : record.getSetPipe();
    return coreOfPipe(own).value_or(
        coreOfPipe(other).value_or(CoreKind::Vector));
  }
  case RecordKind::PipeBarrier:
    return record.barrierPipe() == trace::Pipe::All
               ? CoreKind::AiCore
               : coreOfPipe(record.barrierPipe()).value_or(CoreKind::Vector);
  default:
    return CoreKind::AiCore;
  }
}
