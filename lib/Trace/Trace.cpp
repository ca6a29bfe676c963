//===- Trace.cpp - Trace records, files and dumps -------------------------===//

#include "tilekit/Trace/Trace.h"

#include "tilekit/Support/AtomicFile.h"
#include "tilekit/Support/InputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <limits>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::trace;

static constexpr StringLiteral kMagic("TKTRACE\x01");
static constexpr size_t kFixedRecordBytes = 72;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

static const char *const kKindNames[] = {"work_begin", "work_end",   "dma",
                                         "compute",    "memory_bar", "set_flag",
                                         "wait_flag",  "barrier"};
static const char *const kUnitNames[] = {"cube", "vector", "scalar"};
StringRef trace::getName(RecordKind kind) {
  return kKindNames[static_cast<unsigned>(kind)];
}
StringRef trace::getName(Unit unit) {
  return kUnitNames[static_cast<unsigned>(unit)];
}

template <size_t N>
static std::optional<uint8_t> lookup(const char *const (&names)[N],
                                     StringRef name) {
  for (size_t i = 0; i < N; ++i)
    if (name == names[i])
      return static_cast<uint8_t>(i);
  return std::nullopt;
}

/// The enumerator of `E` (numbered 0 to `count` - 1) named `name`.
template <typename E>
static std::optional<uint8_t> lookupMachineName(StringRef name,
                                                unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    if (name == machine::getName(static_cast<E>(i)))
      return static_cast<uint8_t>(i);
  return std::nullopt;
}

uint16_t Trace::intern(StringRef name) {
  auto [it, inserted] =
      indexOf.try_emplace(name, static_cast<uint16_t>(names.size()));
  if (inserted)
    names.push_back(name.str());
  return it->second;
}

TraceSink::~TraceSink() = default;

//===----------------------------------------------------------------------===//
// Binary form
//===----------------------------------------------------------------------===//

namespace {
/// Appends little-endian integers.
class Encoder {
public:
  explicit Encoder(std::string &out) : out(out) {}
  template <typename T> void put(T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T)); // little-endian host
    out.append(bytes, sizeof(T));
  }

private:
  std::string &out;
};

/// Reads little-endian integers, failing past the end.
class Decoder {
public:
  Decoder(StringRef bytes) : bytes(bytes) {}
  template <typename T> bool get(T &value) {
    if (bytes.size() - at < sizeof(T))
      return false;
    std::memcpy(&value, bytes.data() + at, sizeof(T));
    at += sizeof(T);
    return true;
  }
  bool getString(std::string &text, size_t length) {
    if (bytes.size() - at < length)
      return false;
    text.assign(bytes.data() + at, length);
    at += length;
    return true;
  }
  size_t remaining() const { return bytes.size() - at; }

private:
  StringRef bytes;
  size_t at = 0;
};
} // namespace

/// The limits of the format, the same for the writer and both readers: at
/// most 255 buffers read and written (one byte each in the binary form),
/// and ids the timing model can key on (the two largest values of each id
/// type are reserved).
static Error checkLimits(const Record &record) {
  auto bad = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  if (record.reads.size() > kMaxBuffersPerRecord ||
      record.writes.size() > kMaxBuffersPerRecord)
    return bad("reads " + Twine(record.reads.size()) + " and writes " +
               Twine(record.writes.size()) + " buffers; at most " +
               Twine(kMaxBuffersPerRecord) + " each");
  for (ArrayRef<uint64_t> ids :
       {ArrayRef(record.reads), ArrayRef(record.writes)})
    for (uint64_t id : ids)
      if (id >= kReservedBufferIds)
        return bad("buffer id " + Twine(id) + " is reserved (at most " +
                   Twine(kReservedBufferIds - 1) + ")");
  if (record.item >= kReservedItemIds)
    return bad("work item " + Twine(record.item) + " is reserved (at most " +
               Twine(kReservedItemIds - 1) + ")");
  return Error::success();
}

Error trace::writeBinaryTrace(StringRef path, const Trace &trace) {
  std::string bytes;
  Encoder out(bytes);
  bytes.append(kMagic.data(), kMagic.size());
  out.put<uint32_t>(trace.names.size());
  for (const std::string &name : trace.names) {
    out.put<uint16_t>(name.size());
    bytes.append(name);
  }
  out.put<uint64_t>(trace.records.size());
  for (auto [n, record] : llvm::enumerate(trace.records))
    if (Error error = checkLimits(record))
      return createStringError(inconvertibleErrorCode(),
                               path + ": record " + Twine(n) + ": " +
                                   toString(std::move(error)));
  for (const Record &record : trace.records) {
    out.put<uint8_t>(static_cast<uint8_t>(record.kind));
    out.put<uint8_t>(record.sub);
    out.put<uint8_t>(record.elementSize);
    out.put<uint8_t>(record.flag ? 1 : 0);
    out.put<uint16_t>(record.dtype);
    out.put<uint16_t>(record.op);
    out.put<uint8_t>(static_cast<uint8_t>(record.setPipe));
    out.put<uint8_t>(static_cast<uint8_t>(record.waitPipe));
    out.put<uint8_t>(static_cast<uint8_t>(record.writeSpace));
    out.put<uint8_t>(record.reads.size());
    out.put<uint8_t>(record.writes.size());
    out.put<uint8_t>(0);
    out.put<uint16_t>(0);
    out.put<uint32_t>(record.item);
    for (uint32_t extent : record.shape)
      out.put<uint32_t>(extent);
    for (uint32_t stride : record.strides)
      out.put<uint32_t>(stride);
    out.put<uint64_t>(record.amount);
    out.put<uint64_t>(record.writeBytes);
    out.put<uint32_t>(record.tagId);
    out.put<uint32_t>(record.tagSlot);
    out.put<uint64_t>(record.gmOffset);
    for (uint64_t buffer : record.reads)
      out.put<uint64_t>(buffer);
    for (uint64_t buffer : record.writes)
      out.put<uint64_t>(buffer);
  }
  return writeFileAtomically(path, bytes);
}

/// Checks the enum fields of a decoded or parsed record.
static Error checkRecord(const Record &record, const Trace &trace) {
  auto bad = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  if (static_cast<unsigned>(record.kind) > 7)
    return bad("unknown record kind " +
               Twine(static_cast<unsigned>(record.kind)));
  if (record.kind == RecordKind::Dma && record.sub >= kNumDmaPaths)
    return bad("unknown DMA path " + Twine(record.sub));
  if (record.kind == RecordKind::Compute && record.sub > 2)
    return bad("unknown unit " + Twine(record.sub));
  if (record.kind == RecordKind::PipeBarrier && record.sub > kNumPipes)
    return bad("unknown pipe " + Twine(record.sub));
  if (static_cast<unsigned>(record.setPipe) >= kNumPipes ||
      static_cast<unsigned>(record.waitPipe) >= kNumPipes)
    return bad("unknown flag pipe");
  if (static_cast<unsigned>(record.writeSpace) >= kNumSpaces)
    return bad("unknown space " +
               Twine(static_cast<unsigned>(record.writeSpace)));
  if ((record.dtype && record.dtype >= trace.names.size()) ||
      (record.kind == RecordKind::Compute && record.op >= trace.names.size()))
    return bad("name index out of range");
  return checkLimits(record);
}

static Expected<Trace> parseBinary(StringRef bytes, StringRef name) {
  Trace trace;
  Decoder in(bytes.drop_front(kMagic.size()));
  auto fail = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), name + ": " + why);
  };
  uint32_t nameCount;
  if (!in.get(nameCount))
    return fail("truncated header");
  for (uint32_t i = 0; i < nameCount; ++i) {
    uint16_t length;
    std::string text;
    if (!in.get(length) || !in.getString(text, length))
      return fail("truncated name table");
    // Names are op and element type names: identifiers that the text form
    // can hold, each once (records refer to them by position).
    bool identifier = !text.empty() && llvm::all_of(text, [](char c) {
      return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
    });
    if (!identifier)
      return fail("name " + Twine(i) + " is not an identifier");
    if (trace.intern(text) != i)
      return fail("name " + Twine(i) + " '" + text + "' appears twice");
  }
  uint64_t count;
  if (!in.get(count))
    return fail("truncated header");
  if (count > in.remaining() / kFixedRecordBytes)
    return fail("declares " + Twine(count) + " records but holds at most " +
                Twine(in.remaining() / kFixedRecordBytes));
  trace.records.resize(count);
  for (uint64_t n = 0; n < count; ++n) {
    Record &record = trace.records[n];
    uint8_t kind, flags, setPipe, waitPipe, space, nReads, nWrites, pad8;
    uint16_t pad16;
    bool ok = in.get(kind) && in.get(record.sub) &&
              in.get(record.elementSize) && in.get(flags) &&
              in.get(record.dtype) && in.get(record.op) && in.get(setPipe) &&
              in.get(waitPipe) && in.get(space) && in.get(nReads) &&
              in.get(nWrites) && in.get(pad8) && in.get(pad16) &&
              in.get(record.item);
    for (uint32_t &extent : record.shape)
      ok = ok && in.get(extent);
    for (uint32_t &stride : record.strides)
      ok = ok && in.get(stride);
    ok = ok && in.get(record.amount) && in.get(record.writeBytes) &&
         in.get(record.tagId) && in.get(record.tagSlot) &&
         in.get(record.gmOffset);
    record.kind = static_cast<RecordKind>(kind);
    record.flag = flags & 1;
    record.setPipe = static_cast<Pipe>(setPipe);
    record.waitPipe = static_cast<Pipe>(waitPipe);
    record.writeSpace = static_cast<Space>(space);
    record.reads.resize(nReads);
    record.writes.resize(nWrites);
    for (uint64_t &buffer : record.reads)
      ok = ok && in.get(buffer);
    for (uint64_t &buffer : record.writes)
      ok = ok && in.get(buffer);
    if (!ok)
      return fail("record " + Twine(n) + ": truncated");
    if (Error error = checkRecord(record, trace))
      return fail("record " + Twine(n) + ": " + toString(std::move(error)));
  }
  if (in.remaining())
    return fail(Twine(in.remaining()) + " bytes after the last record");
  return trace;
}

//===----------------------------------------------------------------------===//
// Text form
//===----------------------------------------------------------------------===//

static void printList(raw_ostream &os, StringRef key, ArrayRef<uint64_t> ids) {
  if (ids.empty())
    return;
  os << ' ' << key << '=';
  interleave(ids, os, ",");
}

void trace::printTrace(raw_ostream &os, const Trace &trace) {
  os << "# tilekit trace: " << trace.records.size() << " records\n";
  for (auto [n, record] : llvm::enumerate(trace.records)) {
    os << n << ' ' << getName(record.kind) << " item=" << record.item;
    auto printShape = [&] {
      os << " shape=" << record.shape[0] << 'x' << record.shape[1] << 'x'
         << record.shape[2];
    };
    switch (record.kind) {
    case RecordKind::Dma:
      os << " path=" << getName(record.path());
      printShape();
      os << " strides=" << record.strides[0] << 'x' << record.strides[1]
         << " esize=" << unsigned(record.elementSize)
         << " bytes=" << record.amount << " offset=" << record.gmOffset;
      if (record.flag)
        os << " async tag=" << record.tagId << ':' << record.tagSlot;
      break;
    case RecordKind::Compute:
      os << " unit=" << getName(record.unit())
         << " op=" << trace.name(record.op);
      printShape();
      os << " dtype=" << trace.name(record.dtype)
         << " esize=" << unsigned(record.elementSize)
         << " amount=" << record.amount;
      if (record.flag)
        os << " accumulate";
      break;
    case RecordKind::MemoryBar:
      os << " tag=" << record.tagId << ':' << record.tagSlot;
      break;
    case RecordKind::SetFlag:
    case RecordKind::WaitFlag:
      os << " set=" << getName(record.setPipe)
         << " wait=" << getName(record.waitPipe) << " event=" << record.op;
      break;
    case RecordKind::PipeBarrier:
      os << " pipe=" << getName(record.barrierPipe());
      break;
    case RecordKind::WorkBegin:
    case RecordKind::WorkEnd:
      break;
    }
    printList(os, "reads", record.reads);
    printList(os, "writes", record.writes);
    if (record.writeSpace != Space::GM)
      os << " space=" << getName(record.writeSpace)
         << " wbytes=" << record.writeBytes;
    os << '\n';
  }
}

Error trace::writeTextTrace(StringRef path, const Trace &trace) {
  std::string text;
  raw_string_ostream os(text);
  printTrace(os, trace);
  return writeFileAtomically(path, text);
}

/// Parses one text line into `record`.
static Error parseLine(StringRef line, Record &record, Trace &trace) {
  auto bad = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  SmallVector<StringRef> words;
  line.split(words, ' ', -1, /*KeepEmpty=*/false);
  if (words.size() < 2)
    return bad("expected '<number> <kind> key=value...'");
  std::optional<uint8_t> kind = lookup(kKindNames, words[1]);
  if (!kind)
    return bad("unknown record kind '" + words[1] + "'");
  record.kind = static_cast<RecordKind>(*kind);
  auto number = [&](StringRef key, StringRef text, auto &out) -> Error {
    using Field = std::remove_reference_t<decltype(out)>;
    uint64_t value;
    if (text.getAsInteger(10, value))
      return bad("bad number '" + text + "' for " + key);
    // The field's width is the format's: a larger number is an error, not
    // a silent truncation.
    if (value > std::numeric_limits<Field>::max())
      return bad(key + "=" + text + " is out of range (at most " +
                 Twine(uint64_t(std::numeric_limits<Field>::max())) + ")");
    out = static_cast<Field>(value);
    return Error::success();
  };
  for (StringRef word : ArrayRef(words).drop_front(2)) {
    auto [key, value] = word.split('=');
    Error error = Error::success();
    if (key == "item") {
      error = number(key, value, record.item);
    } else if (key == "path" || key == "unit" || key == "pipe") {
      std::optional<uint8_t> index =
          key == "path"   ? lookupMachineName<DmaPath>(value, kNumDmaPaths)
          : key == "unit" ? lookup(kUnitNames, value)
                          : lookupMachineName<Pipe>(value, kNumPipes + 1);
      if (!index)
        return bad("unknown " + key + " '" + value + "'");
      record.sub = *index;
    } else if (key == "shape" || key == "strides") {
      SmallVector<StringRef> parts;
      value.split(parts, 'x');
      uint32_t *out = key == "shape" ? record.shape : record.strides;
      size_t limit = key == "shape" ? 3 : 2;
      if (parts.size() > limit)
        return bad("too many extents in '" + value + "'");
      for (auto [i, part] : llvm::enumerate(parts))
        if (Error e = number(key, part, out[i]))
          return e;
    } else if (key == "esize") {
      error = number(key, value, record.elementSize);
    } else if (key == "bytes" || key == "amount") {
      error = number(key, value, record.amount);
    } else if (key == "offset") {
      error = number(key, value, record.gmOffset);
    } else if (key == "wbytes") {
      error = number(key, value, record.writeBytes);
    } else if (key == "async" || key == "accumulate") {
      record.flag = true;
    } else if (key == "tag") {
      auto [id, slot] = value.split(':');
      if (Error e = number(key, id, record.tagId))
        return e;
      error = number(key, slot, record.tagSlot);
    } else if (key == "op") {
      record.op = trace.intern(value);
    } else if (key == "dtype") {
      record.dtype = trace.intern(value);
    } else if (key == "set" || key == "wait") {
      std::optional<uint8_t> pipe = lookupMachineName<Pipe>(value, kNumPipes);
      if (!pipe || *pipe >= kNumPipes)
        return bad("unknown pipe '" + value + "'");
      (key == "set" ? record.setPipe : record.waitPipe) =
          static_cast<Pipe>(*pipe);
    } else if (key == "event") {
      error = number(key, value, record.op);
    } else if (key == "space") {
      std::optional<uint8_t> space =
          lookupMachineName<Space>(value, kNumSpaces);
      if (!space)
        return bad("unknown space '" + value + "'");
      record.writeSpace = static_cast<Space>(*space);
    } else if (key == "reads" || key == "writes") {
      SmallVector<StringRef> parts;
      value.split(parts, ',');
      for (StringRef part : parts) {
        uint64_t id;
        if (part.getAsInteger(10, id))
          return bad("bad buffer id '" + part + "'");
        (key == "reads" ? record.reads : record.writes).push_back(id);
      }
    } else {
      return bad("unknown field '" + key + "'");
    }
    if (error)
      return error;
  }
  return Error::success();
}

static Expected<Trace> parseText(StringRef text, StringRef name) {
  Trace trace;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [lineNumber, line] : llvm::enumerate(lines)) {
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    Record record;
    size_t n = trace.records.size();
    if (Error error = parseLine(line, record, trace))
      return createStringError(inconvertibleErrorCode(),
                               name + ":" + Twine(lineNumber + 1) +
                                   ": record " + Twine(n) + ": " +
                                   toString(std::move(error)));
    if (Error error = checkRecord(record, trace))
      return createStringError(inconvertibleErrorCode(),
                               name + ":" + Twine(lineNumber + 1) +
                                   ": record " + Twine(n) + ": " +
                                   toString(std::move(error)));
    trace.records.push_back(std::move(record));
  }
  return trace;
}

Expected<Trace> trace::parseTrace(StringRef bytes, StringRef name) {
  if (bytes.starts_with(kMagic))
    return parseBinary(bytes, name);
  return parseText(bytes, name);
}

Expected<Trace> trace::readTrace(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buffer = readInputFile(path);
  if (!buffer)
    return buffer.takeError();
  return parseTrace((*buffer)->getBuffer(), path);
}
