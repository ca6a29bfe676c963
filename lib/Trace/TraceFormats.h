//===- TraceFormats.h - The binary and text trace forms ----------*- C++
//-*-===//
//
// Internal to lib/Trace: the encoders, decoders and parsers behind the
// reader and writer classes of Trace.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_TRACE_TRACEFORMATS_H
#define TILEKIT_LIB_TRACE_TRACEFORMATS_H

#include "tilekit/Trace/Trace.h"

#include <optional>

namespace tilekit::trace::format {

std::optional<uint8_t> lookupKind(llvm::StringRef name);
std::optional<uint8_t> lookupUnit(llvm::StringRef name);
std::optional<uint8_t> lookupCore(llvm::StringRef name);

/// The binary form: a header with the ABI version, varint-coded records,
/// the tables, and a footer locating them (docs/trace-format.md).
bool isBinaryTrace(llvm::StringRef bytes);
constexpr size_t kHeaderBytes = 16, kFooterBytes = 24;

/// The coded fields of a record besides its head byte and buffers.
constexpr unsigned kRecordFields = 23;

/// Encodes records one after another; each is coded against the previous
/// one (work item and buffer ids as deltas) and the previous one of its
/// kind (fields left out when unchanged), so a decoder must see the same
/// sequence.
class RecordEncoder {
public:
  void encode(const Record &record, std::string &out);

private:
  uint32_t previousItem = 0;
  uint64_t previousBuffer = 0;
  uint64_t previous[16][kRecordFields] = {};
};

class RecordDecoder {
public:
  /// Decodes one record from [at, end); false when the bytes end first.
  bool decode(const char *&at, const char *end, Record &record);

private:
  uint32_t previousItem = 0;
  uint64_t previousBuffer = 0;
  /// The last record of each kind (its fixed fields).
  Record prototypes[16];
};
/// The most bytes one encoded record takes.
constexpr size_t kMaxEncodedRecord = 2 + 4 + 24 * 10 + 16 * 10;
/// The byte that ends the records.
constexpr uint8_t kEndOfRecords = 0x0f;

std::string encodeHeader();
/// Checks the header: magic and ABI version.
llvm::Error checkHeader(llvm::StringRef bytes, llvm::StringRef name);
std::string encodeTables(const TraceTables &tables);
llvm::Error decodeTables(llvm::StringRef bytes, TraceTables &tables);
std::string encodeFooter(uint64_t records, uint64_t tablesOffset);
/// The footer's record count and tables offset.
llvm::Error decodeFooter(llvm::StringRef footer, uint64_t fileSize,
                         uint64_t &records, uint64_t &tablesOffset);

llvm::Expected<Trace> parseBinary(llvm::StringRef bytes, llvm::StringRef name);
llvm::Expected<Trace> parseText(llvm::StringRef text, llvm::StringRef name);
/// One text line into `record`, interning names and locations.
llvm::Error parseLine(llvm::StringRef line, Record &record,
                      TraceTables &tables);

llvm::Expected<std::unique_ptr<TraceFileWriter>>
createWriter(llvm::StringRef path, TraceTables &tables, bool text);

} // namespace tilekit::trace::format

#endif // TILEKIT_LIB_TRACE_TRACEFORMATS_H
