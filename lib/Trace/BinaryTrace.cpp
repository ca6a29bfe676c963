//===- BinaryTrace.cpp - The compact binary trace form --------------------===//
//
// A record is its kind/core/lane byte, a varint mask of the fields that
// differ from the previous record of its kind, and those fields as varints;
// the work item and buffer ids are zigzag deltas against the previous
// record's, so a record of a loop's steady state takes 5-15 bytes. The tables
// follow the records, so a producer can write records as they come and intern
// names until the end.
//
//===----------------------------------------------------------------------===//

#include "TraceFormats.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"

#include <cstddef>
#include <cstring>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::trace;
using namespace tilekit::trace::format;

// Both magics end in a NUL byte (sizeof counts it).
static constexpr char kMagicBytes[] = "TKTRACE";
static constexpr char kFooterMagicBytes[] = "TKTREND";
static const StringRef kMagic(kMagicBytes, sizeof(kMagicBytes));
static const StringRef kFooterMagic(kFooterMagicBytes,
                                    sizeof(kFooterMagicBytes));

bool format::isBinaryTrace(StringRef bytes) {
  return bytes.starts_with("TKTRACE");
}

//===----------------------------------------------------------------------===//
// Varints
//===----------------------------------------------------------------------===//

static void putVarint(std::string &out, uint64_t value) {
  char bytes[10];
  unsigned n = 0;
  while (value >= 0x80) {
    bytes[n++] = static_cast<char>(value | 0x80);
    value >>= 7;
  }
  bytes[n++] = static_cast<char>(value);
  out.append(bytes, n);
}

static inline bool getVarint(const char *&at, const char *end,
                             uint64_t &value) {
  // Most values fit one byte.
  if (at != end && !(static_cast<uint8_t>(*at) & 0x80)) {
    value = static_cast<uint8_t>(*at++);
    return true;
  }
  value = 0;
  for (unsigned shift = 0; shift < 64 && at != end; shift += 7) {
    uint8_t byte = static_cast<uint8_t>(*at++);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

static uint64_t zigzag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^
         static_cast<uint64_t>(value >> 63);
}
static int64_t unzigzag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

/// The coded fields in mask order: enumerator and member. The item (coded
/// as a delta, FItem) sits between `op` and `loc`. One list for the
/// enumeration, the encoder and the decoder.
#define TILEKIT_TRACE_CODED_FIELDS(X)                                          \
  X(FSub, sub)                                                                 \
  X(FElemSize, elem_size)                                                      \
  X(FFlags, flags)                                                             \
  X(FSetPipe, set_pipe)                                                        \
  X(FWaitPipe, wait_pipe)                                                      \
  X(FSpace, space)                                                             \
  X(FDtype, dtype)                                                             \
  X(FOp, op)                                                                   \
  X(FItem, item)                                                               \
  X(FLoc, loc)                                                                 \
  X(FShape0, shape[0])                                                         \
  X(FShape1, shape[1])                                                         \
  X(FShape2, shape[2])                                                         \
  X(FStride0, strides[0])                                                      \
  X(FStride1, strides[1])                                                      \
  X(FTagId, tag_id)                                                            \
  X(FTagSlot, tag_slot)                                                        \
  X(FAmount, amount)                                                           \
  X(FWriteBytes, write_bytes)                                                  \
  X(FGmOffset, gm_offset)                                                      \
  X(FReads, num_reads)                                                         \
  X(FWrites, num_writes)                                                       \
  X(FReserved, reserved)

namespace {
enum Field : unsigned {
#define TILEKIT_FIELD_ENUM(E, member) E,
  TILEKIT_TRACE_CODED_FIELDS(TILEKIT_FIELD_ENUM)
#undef TILEKIT_FIELD_ENUM
      kNumFields
};
static_assert(kNumFields == kRecordFields);
} // namespace

/// Calls `f(field, member)` for each coded field but the item (coded as a
/// delta by the encoder and decoder themselves).
template <typename R, typename F> static void forEachField(R &record, F f) {
#define TILEKIT_FIELD_VISIT(E, member)                                         \
  if constexpr (E != FItem)                                                    \
    f(E, record.member);
  TILEKIT_TRACE_CODED_FIELDS(TILEKIT_FIELD_VISIT)
#undef TILEKIT_FIELD_VISIT
}

void RecordEncoder::encode(const Record &record, std::string &out) {
  out.push_back(static_cast<char>(record.kind | (record.core & 3) << 4 |
                                  (record.lane & 1) << 6));
  uint64_t values[kNumFields] = {};
  uint64_t mask = 0;
  forEachField(record, [&](Field field, auto value) { values[field] = value; });
  int64_t itemDelta = static_cast<int64_t>(record.item) - previousItem;
  values[FItem] = zigzag(itemDelta);
  previousItem = record.item;
  // Fields as the previous record of this kind had them are left out.
  uint64_t *last = previous[record.kind & 0x0f];
  for (unsigned f = 0; f < kNumFields; ++f)
    if (f == FItem ? values[f] != 0 : values[f] != last[f])
      mask |= uint64_t(1) << f;
  putVarint(out, mask);
  for (unsigned f = 0; f < kNumFields; ++f)
    if (mask >> f & 1)
      putVarint(out, values[f]);
  std::copy(values, values + kNumFields, last);
  unsigned count = std::min<unsigned>(record.num_reads + record.num_writes,
                                      kMaxBuffersPerRecord);
  for (unsigned i = 0; i < count; ++i) {
    uint64_t buffer = record.buffers[i];
    putVarint(out, zigzag(static_cast<int64_t>(buffer - previousBuffer)));
    previousBuffer = buffer;
  }
}

/// Sets one coded field of `record` (not the item); false when `value`
/// does not fit it.
static bool setField(Record &record, unsigned field, uint64_t value) {
  bool fits = true;
  auto assign = [&](auto &target) {
    using T = std::remove_reference_t<decltype(target)>;
    if constexpr (sizeof(T) < sizeof(uint64_t))
      fits = (value >> (8 * sizeof(T))) == 0;
    target = static_cast<T>(value);
  };
  switch (field) {
#define TILEKIT_FIELD_SET(E, member)                                           \
  case E:                                                                      \
    if constexpr (E != FItem)                                                  \
      assign(record.member);                                                   \
    break;
    TILEKIT_TRACE_CODED_FIELDS(TILEKIT_FIELD_SET)
#undef TILEKIT_FIELD_SET
  default:
    break;
  }
  return fits;
}

bool RecordDecoder::decode(const char *&at, const char *end, Record &record) {
  if (at == end)
    return false;
  uint8_t head = static_cast<uint8_t>(*at++);
  unsigned kind = head & 0x0f;
  uint64_t mask;
  if (!getVarint(at, end, mask) || mask >> kNumFields)
    return false;
  // Unchanged fields are the previous record's of this kind: start from it
  // and set the fields the mask names.
  constexpr size_t kFixedBytes = offsetof(tilekit_trace_record, buffers);
  std::memcpy(static_cast<void *>(&record), &prototypes[kind], kFixedBytes);
  record.kind = kind;
  record.core = (head >> 4) & 3;
  record.lane = (head >> 6) & 1;
  bool fits = true;
  uint64_t itemDelta = 0;
  for (uint64_t bits = mask; bits; bits &= bits - 1) {
    unsigned field = llvm::countr_zero(bits);
    uint64_t value;
    if (!getVarint(at, end, value))
      return false;
    if (field == FItem)
      itemDelta = value;
    else
      fits &= setField(record, field, value);
  }
  previousItem = static_cast<uint32_t>(previousItem + unzigzag(itemDelta));
  record.item = previousItem;
  std::memcpy(static_cast<void *>(&prototypes[kind]), &record, kFixedBytes);
  if (!fits || record.num_reads + record.num_writes > kMaxBuffersPerRecord) {
    record.reserved = 1; // checkRecord reports it
    record.num_reads = record.num_writes = 0;
    return true;
  }
  for (unsigned i = 0; i < record.num_reads + record.num_writes; ++i) {
    uint64_t delta;
    if (!getVarint(at, end, delta))
      return false;
    previousBuffer += static_cast<uint64_t>(unzigzag(delta));
    record.buffers[i] = previousBuffer;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Header, tables, footer
//===----------------------------------------------------------------------===//

static void putFixed(std::string &out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>(value >> (8 * i)));
}
static uint64_t getFixed(const char *at, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i)
    value |= static_cast<uint64_t>(static_cast<uint8_t>(at[i])) << (8 * i);
  return value;
}

std::string format::encodeHeader() {
  std::string out = kMagic.str();
  putFixed(out, TILEKIT_TRACE_ABI_VERSION, 4);
  putFixed(out, 0, 4);
  return out;
}

Error format::checkHeader(StringRef bytes, StringRef name) {
  auto fail = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), name + ": " + why);
  };
  // Version 1 files had the version in the magic's last byte and no field.
  if (bytes.size() >= 8 && bytes.starts_with("TKTRACE") && bytes[7] == 1)
    return fail("trace ABI version 1, but this tilekit reads version " +
                Twine(TILEKIT_TRACE_ABI_VERSION) +
                "; produce the trace again with this tilekit");
  if (bytes.size() < kHeaderBytes || !bytes.starts_with(kMagic))
    return fail("truncated header");
  uint64_t version = getFixed(bytes.data() + 8, 4);
  if (version != TILEKIT_TRACE_ABI_VERSION)
    return fail("trace ABI version " + Twine(version) +
                ", but this tilekit reads version " +
                Twine(TILEKIT_TRACE_ABI_VERSION));
  return Error::success();
}

std::string format::encodeTables(const TraceTables &tables) {
  std::string out;
  putVarint(out, tables.getNames().size());
  for (const std::string &name : tables.getNames()) {
    putVarint(out, name.size());
    out += name;
  }
  ArrayRef<SourceLocation> locations = tables.getLocations().drop_front();
  putVarint(out, locations.size());
  for (const SourceLocation &loc : locations) {
    putVarint(out, loc.file);
    putVarint(out, loc.line);
    putVarint(out, loc.column);
  }
  return out;
}

Error format::decodeTables(StringRef bytes, TraceTables &tables) {
  auto fail = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  const char *at = bytes.begin(), *end = bytes.end();
  uint64_t count;
  if (!getVarint(at, end, count) || count > 65536)
    return fail("truncated name table");
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t length;
    if (!getVarint(at, end, length) || length > static_cast<uint64_t>(end - at))
      return fail("truncated name table");
    StringRef text(at, length);
    at += length;
    // Names are op and element type names and file names: printable,
    // without spaces (the text form holds them), each once.
    bool printable = !text.empty() && llvm::all_of(text, [](char c) {
      return llvm::isPrint(c) && c != ' ' && c != '=';
    });
    if (!printable)
      return fail("name " + Twine(i) + " is not printable without spaces");
    if (tables.intern(text) != i)
      return fail("name " + Twine(i) + " '" + text + "' appears twice");
  }
  if (!getVarint(at, end, count) || count > static_cast<uint64_t>(end - at))
    return fail("truncated location table");
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t file, line, column;
    if (!getVarint(at, end, file) || !getVarint(at, end, line) ||
        !getVarint(at, end, column))
      return fail("truncated location table");
    if (file >= tables.size() || line > UINT32_MAX || column > UINT32_MAX)
      return fail("location " + Twine(i + 1) + " is out of range");
    if (tables.internLocation(tables.name(file), line, column) != i + 1)
      return fail("location " + Twine(i + 1) + " appears twice");
  }
  if (at != end)
    return fail(Twine(end - at) + " bytes after the tables");
  return Error::success();
}

std::string format::encodeFooter(uint64_t records, uint64_t tablesOffset) {
  std::string out;
  putFixed(out, records, 8);
  putFixed(out, tablesOffset, 8);
  out += kFooterMagic;
  return out;
}

Error format::decodeFooter(StringRef footer, uint64_t fileSize,
                           uint64_t &records, uint64_t &tablesOffset) {
  auto fail = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  if (footer.size() != kFooterBytes || !footer.ends_with(kFooterMagic))
    return fail("truncated: no footer (was the writer interrupted?)");
  records = getFixed(footer.data(), 8);
  tablesOffset = getFixed(footer.data() + 8, 8);
  if (tablesOffset < kHeaderBytes + 1 || tablesOffset > fileSize - kFooterBytes)
    return fail("the footer's table offset " + Twine(tablesOffset) +
                " lies outside the file");
  return Error::success();
}

Expected<Trace> format::parseBinary(StringRef bytes, StringRef name) {
  auto fail = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), name + ": " + why);
  };
  if (Error error = checkHeader(bytes, name))
    return std::move(error);
  if (bytes.size() < kHeaderBytes + 1 + kFooterBytes)
    return fail("truncated: no footer (was the writer interrupted?)");
  uint64_t count, tablesOffset;
  if (Error error = decodeFooter(bytes.take_back(kFooterBytes), bytes.size(),
                                 count, tablesOffset))
    return fail(toString(std::move(error)));
  Trace trace;
  if (Error error = decodeTables(
          bytes.slice(tablesOffset, bytes.size() - kFooterBytes), trace.tables))
    return fail(toString(std::move(error)));
  const char *at = bytes.data() + kHeaderBytes;
  const char *end = bytes.data() + tablesOffset - 1;
  if (static_cast<uint8_t>(*end) != kEndOfRecords)
    return fail("the records do not end where the footer says");
  if (count > static_cast<uint64_t>(end - at))
    return fail("declares " + Twine(count) + " records but holds at most " +
                Twine(end - at));
  RecordDecoder decoder;
  trace.records.resize(count);
  for (uint64_t n = 0; n < count; ++n) {
    if (!decoder.decode(at, end, trace.records[n]))
      return fail("record " + Twine(n) + ": truncated");
    if (Error error = checkRecord(trace.records[n], trace.tables))
      return fail("record " + Twine(n) + ": " + toString(std::move(error)));
  }
  if (at != end)
    return fail(Twine(end - at) + " bytes after the last record");
  return trace;
}
