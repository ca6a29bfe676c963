//===- TextTrace.cpp - The readable trace form ----------------------------===//
//
// One record per line: `<n> <kind> key=value ...`; names and source
// locations are written out where the binary form has table indices.
//
//===----------------------------------------------------------------------===//

#include "TraceFormats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::trace;
using namespace tilekit::trace::format;

/// The enumerator of `E` (numbered 0 to `count` - 1) named `name`.
template <typename E>
static std::optional<uint8_t> lookupMachineName(StringRef name,
                                                unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    if (name == machine::getName(static_cast<E>(i)))
      return static_cast<uint8_t>(i);
  return std::nullopt;
}

static void printList(raw_ostream &os, StringRef key, ArrayRef<uint64_t> ids) {
  if (ids.empty())
    return;
  os << ' ' << key << '=';
  interleave(ids, os, ",");
}

void trace::printRecord(raw_ostream &os, size_t index, const Record &record,
                        const TraceTables &tables) {
  os << index << ' ' << getName(record.getKind()) << " item=" << record.item
     << " core=" << getName(record.getCore());
  if (record.lane)
    os << " lane=" << unsigned(record.lane);
  auto printShape = [&] {
    os << " shape=" << record.shape[0] << 'x' << record.shape[1] << 'x'
       << record.shape[2];
  };
  switch (record.getKind()) {
  case RecordKind::Dma:
  case RecordKind::Push:
  case RecordKind::Pop:
    os << " path=" << getName(record.path());
    printShape();
    os << " strides=" << record.strides[0] << 'x' << record.strides[1]
       << " esize=" << unsigned(record.elem_size) << " bytes=" << record.amount
       << " offset=" << record.gm_offset;
    if (record.getKind() != RecordKind::Dma)
      os << " pipe_id=" << record.op << " lanes=" << record.tag_id
         << " slots=" << record.tag_slot;
    else if (record.hasFlag())
      os << " async tag=" << record.tag_id << ':' << record.tag_slot;
    break;
  case RecordKind::Compute:
    os << " unit=" << getName(record.unit())
       << " op=" << tables.name(record.op);
    printShape();
    os << " dtype=" << tables.name(record.dtype)
       << " esize=" << unsigned(record.elem_size)
       << " amount=" << record.amount;
    if (record.hasFlag())
      os << " accumulate";
    break;
  case RecordKind::MemoryBar:
    os << " tag=" << record.tag_id << ':' << record.tag_slot;
    break;
  case RecordKind::SetFlag:
  case RecordKind::WaitFlag:
    os << " set=" << getName(record.getSetPipe())
       << " wait=" << getName(record.getWaitPipe()) << " event=" << record.op;
    if (record.isCrossCore())
      os << " cross lanes=" << record.tag_id;
    if (record.isBufferId())
      os << " bufid";
    break;
  case RecordKind::PipeBarrier:
    os << " pipe=" << getName(record.barrierPipe());
    break;
  case RecordKind::WorkBegin:
    if (record.isExplicitlySynchronized())
      os << " explicit blocks=" << record.amount;
    break;
  case RecordKind::WorkEnd:
    break;
  }
  printList(os, "reads", record.reads());
  printList(os, "writes", record.writes());
  if (record.getSpace() != Space::GM)
    os << " space=" << getName(record.getSpace())
       << " wbytes=" << record.write_bytes;
  if (record.loc)
    os << " loc=" << tables.describeLocation(record.loc);
  os << '\n';
}

void trace::printTrace(raw_ostream &os, const Trace &trace) {
  os << "# tilekit trace: " << trace.records.size() << " records\n";
  for (auto [n, record] : llvm::enumerate(trace.records))
    printRecord(os, n, record, trace.tables);
}

Error format::parseLine(StringRef line, Record &record, TraceTables &tables) {
  auto bad = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  SmallVector<StringRef> words;
  line.split(words, ' ', -1, /*KeepEmpty=*/false);
  if (words.size() < 2)
    return bad("expected '<number> <kind> key=value...'");
  std::optional<uint8_t> kind = lookupKind(words[1]);
  if (!kind)
    return bad("unknown record kind '" + words[1] + "'");
  record.kind = *kind;
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
  SmallVector<uint64_t, 4> reads, writes;
  for (StringRef word : ArrayRef(words).drop_front(2)) {
    auto [key, value] = word.split('=');
    Error error = Error::success();
    if (key == "item") {
      error = number(key, value, record.item);
    } else if (key == "core") {
      std::optional<uint8_t> core = lookupCore(value);
      if (!core)
        return bad("unknown core '" + value + "'");
      record.core = *core;
    } else if (key == "lane") {
      error = number(key, value, record.lane);
    } else if (key == "path" || key == "unit" || key == "pipe") {
      std::optional<uint8_t> index =
          key == "path"   ? lookupMachineName<DmaPath>(value, kNumDmaPaths)
          : key == "unit" ? lookupUnit(value)
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
      error = number(key, value, record.elem_size);
    } else if (key == "bytes" || key == "amount" || key == "blocks") {
      error = number(key, value, record.amount);
    } else if (key == "offset") {
      error = number(key, value, record.gm_offset);
    } else if (key == "wbytes") {
      error = number(key, value, record.write_bytes);
    } else if (key == "async" || key == "accumulate" || key == "explicit" ||
               key == "cross") {
      record.flags |= 1;
    } else if (key == "bufid") {
      record.flags |= TILEKIT_TRACE_BUFFER_ID;
    } else if (key == "tag") {
      auto [id, slot] = value.split(':');
      if (Error e = number(key, id, record.tag_id))
        return e;
      error = number(key, slot, record.tag_slot);
    } else if (key == "pipe_id") {
      error = number(key, value, record.op);
    } else if (key == "lanes") {
      error = number(key, value, record.tag_id);
    } else if (key == "slots") {
      error = number(key, value, record.tag_slot);
    } else if (key == "op") {
      record.op = tables.intern(value);
    } else if (key == "dtype") {
      record.dtype = tables.intern(value);
    } else if (key == "set" || key == "wait") {
      std::optional<uint8_t> pipe = lookupMachineName<Pipe>(value, kNumPipes);
      if (!pipe)
        return bad("unknown pipe '" + value + "'");
      (key == "set" ? record.set_pipe : record.wait_pipe) = *pipe;
    } else if (key == "event") {
      error = number(key, value, record.op);
    } else if (key == "space") {
      std::optional<uint8_t> space =
          lookupMachineName<Space>(value, kNumSpaces);
      if (!space)
        return bad("unknown space '" + value + "'");
      record.space = *space;
    } else if (key == "reads" || key == "writes") {
      SmallVector<StringRef> parts;
      value.split(parts, ',');
      for (StringRef part : parts) {
        uint64_t id;
        if (part.getAsInteger(10, id))
          return bad("bad buffer id '" + part + "'");
        (key == "reads" ? reads : writes).push_back(id);
      }
    } else if (key == "loc") {
      // file:line:column; the file may itself hold colons.
      auto [rest, column] = value.rsplit(':');
      auto [file, line] = rest.rsplit(':');
      uint32_t lineNumber, columnNumber;
      if (file.empty() || line.getAsInteger(10, lineNumber) ||
          column.getAsInteger(10, columnNumber))
        return bad("bad location '" + value + "' (expected file:line:column)");
      record.loc = tables.internLocation(file, lineNumber, columnNumber);
    } else {
      return bad("unknown field '" + key + "'");
    }
    if (error)
      return error;
  }
  if (reads.size() + writes.size() > kMaxBuffersPerRecord)
    return bad("reads " + Twine(reads.size()) + " and writes " +
               Twine(writes.size()) + " buffers; at most " +
               Twine(kMaxBuffersPerRecord) + " together");
  for (uint64_t id : reads)
    record.addRead(id);
  for (uint64_t id : writes)
    record.addWrite(id);
  return Error::success();
}

Expected<Trace> format::parseText(StringRef text, StringRef name) {
  Trace trace;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [lineNumber, line] : llvm::enumerate(lines)) {
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    Record record;
    size_t n = trace.records.size();
    Error error = parseLine(line, record, trace.tables);
    if (!error)
      error = checkRecord(record, trace.tables);
    if (error)
      return createStringError(inconvertibleErrorCode(),
                               name + ":" + Twine(lineNumber + 1) +
                                   ": record " + Twine(n) + ": " +
                                   toString(std::move(error)));
    trace.records.push_back(record);
  }
  return trace;
}
