//===- TraceFile.cpp - Streaming trace readers and writers ----------------===//
//
// Writers stage the file next to its path and rename it into place in
// finish(), so a reader never sees half a trace. The binary reader holds
// one chunk of the file at a time, so timing a trace of any length takes
// memory bounded by the chunk and the timing model's window.
//
//===----------------------------------------------------------------------===//

#include "TraceFormats.h"

#include "tilekit/Support/InputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

using namespace llvm;
using namespace tilekit;
using namespace tilekit::trace;
using namespace tilekit::trace::format;

static constexpr size_t kChunkBytes = 1 << 20;

//===----------------------------------------------------------------------===//
// Writers
//===----------------------------------------------------------------------===//

struct TraceFileWriter::Impl {
  std::string path;
  sys::fs::TempFile temp;
  std::unique_ptr<raw_fd_ostream> out;
  bool text;
  std::string pending;
  RecordEncoder encoder;
  uint64_t records = 0;
  uint64_t offset = 0;
  std::optional<std::string> firstError;
  bool finished = false;

  Impl(StringRef path, sys::fs::TempFile temp, bool text)
      : path(path.str()), temp(std::move(temp)), text(text) {
    out = std::make_unique<raw_fd_ostream>(this->temp.FD,
                                           /*shouldClose=*/false);
  }
  void flush() {
    out->write(pending.data(), pending.size());
    offset += pending.size();
    pending.clear();
  }
};

Expected<std::unique_ptr<TraceFileWriter>>
format::createWriter(StringRef path, TraceTables &tables, bool text) {
  Expected<sys::fs::TempFile> temp =
      sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + path +
                                 "': " + toString(temp.takeError()));
  auto impl =
      std::make_unique<TraceFileWriter::Impl>(path, std::move(*temp), text);
  impl->pending = text ? "# tilekit trace\n" : encodeHeader();
  return std::unique_ptr<TraceFileWriter>(
      new TraceFileWriter(std::move(impl), tables));
}

Expected<std::unique_ptr<TraceFileWriter>>
TraceFileWriter::create(StringRef path, TraceTables &tables) {
  return createWriter(path, tables, path.ends_with(".txt"));
}

TraceFileWriter::TraceFileWriter(std::unique_ptr<Impl> impl,
                                 TraceTables &tables)
    : impl(std::move(impl)), tables(tables) {}

TraceFileWriter::~TraceFileWriter() {
  if (!impl->finished) {
    impl->out.reset();
    consumeError(impl->temp.discard());
  }
}

void TraceFileWriter::emit(const Record &record) {
  if (impl->firstError)
    return;
  if (Error error = checkRecord(record, tables)) {
    impl->firstError = "record " + std::to_string(impl->records) + ": " +
                       toString(std::move(error));
    return;
  }
  if (impl->text) {
    raw_string_ostream os(impl->pending);
    printRecord(os, impl->records, record, tables);
  } else {
    impl->encoder.encode(record, impl->pending);
  }
  ++impl->records;
  if (impl->pending.size() >= kChunkBytes)
    impl->flush();
}

Error TraceFileWriter::finish() {
  auto fail = [&](const Twine &why) {
    impl->out.reset();
    consumeError(impl->temp.discard());
    impl->finished = true;
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + impl->path + "': " + why);
  };
  if (impl->finished)
    return Error::success();
  if (impl->firstError)
    return fail(*impl->firstError);
  if (!impl->text) {
    impl->pending.push_back(static_cast<char>(kEndOfRecords));
    uint64_t tablesOffset = impl->offset + impl->pending.size();
    impl->pending += encodeTables(tables);
    impl->pending += encodeFooter(impl->records, tablesOffset);
  }
  impl->flush();
  impl->out->flush();
  if (impl->out->has_error()) {
    std::string message = impl->out->error().message();
    impl->out->clear_error();
    return fail(message);
  }
  impl->out.reset();
  impl->finished = true;
  if (Error error = impl->temp.keep(impl->path))
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + impl->path +
                                 "': " + toString(std::move(error)));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Readers
//===----------------------------------------------------------------------===//

namespace {
/// A whole trace held in memory (the text form, or standard input).
class WholeTraceReader : public TraceReader {
public:
  explicit WholeTraceReader(Trace trace) : records(std::move(trace.records)) {
    tables = std::move(trace.tables);
  }
  Expected<const Record *> next() override {
    if (at == records.size())
      return nullptr;
    return &records[at++];
  }

private:
  std::vector<Record> records;
  size_t at = 0;
};

/// A binary trace file read one chunk at a time.
class StreamingTraceReader : public TraceReader {
public:
  static Expected<std::unique_ptr<TraceReader>> open(StringRef path);
  ~StreamingTraceReader() override { sys::fs::closeFile(file); }
  Expected<const Record *> next() override;
  Expected<bool> readInto(Record &record) override;

private:
  StreamingTraceReader(StringRef path, sys::fs::file_t file)
      : path(path.str()), file(file) {}
  Error fail(const Twine &why) const {
    return createStringError(inconvertibleErrorCode(), path + ": " + why);
  }
  /// Reads [offset, offset + size) of the file.
  Error readAt(uint64_t offset, size_t size, std::string &into);
  /// Keeps at least kMaxEncodedRecord bytes ahead when the file has them.
  Error refill();

  std::string path;
  sys::fs::file_t file;
  uint64_t recordsEnd = 0, count = 0, decoded = 0;
  /// The chunk, and the file offset of its end.
  std::string chunk;
  size_t at = 0;
  uint64_t chunkEnd = 0;
  RecordDecoder decoder;
  Record current;
};
} // namespace

Error StreamingTraceReader::readAt(uint64_t offset, size_t size,
                                   std::string &into) {
  into.resize(size);
  size_t done = 0;
  while (done < size) {
    Expected<size_t> got = sys::fs::readNativeFileSlice(
        file, MutableArrayRef(into.data() + done, size - done), offset + done);
    if (!got)
      return fail(toString(got.takeError()));
    if (*got == 0)
      return fail("truncated");
    done += *got;
  }
  return Error::success();
}

Expected<std::unique_ptr<TraceReader>>
StreamingTraceReader::open(StringRef path) {
  Expected<sys::fs::file_t> file = sys::fs::openNativeFileForRead(path);
  if (!file)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '" + path +
                                 "': " + toString(file.takeError()));
  std::unique_ptr<StreamingTraceReader> reader(
      new StreamingTraceReader(path, *file));
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(*file, status))
    return reader->fail(ec.message());
  uint64_t size = status.getSize();
  std::string header, footer, tableBytes;
  if (size < kHeaderBytes)
    return reader->fail("truncated header");
  if (Error error = reader->readAt(0, kHeaderBytes, header))
    return std::move(error);
  if (Error error = checkHeader(header, path))
    return std::move(error);
  if (size < kHeaderBytes + 1 + kFooterBytes)
    return reader->fail("truncated: no footer (was the writer interrupted?)");
  uint64_t tablesOffset;
  if (Error error = reader->readAt(size - kFooterBytes, kFooterBytes, footer))
    return std::move(error);
  if (Error error = decodeFooter(footer, size, reader->count, tablesOffset))
    return reader->fail(toString(std::move(error)));
  if (Error error = reader->readAt(
          tablesOffset, size - kFooterBytes - tablesOffset, tableBytes))
    return std::move(error);
  if (Error error = decodeTables(tableBytes, reader->tables))
    return reader->fail(toString(std::move(error)));
  std::string last;
  if (Error error = reader->readAt(tablesOffset - 1, 1, last))
    return std::move(error);
  if (static_cast<uint8_t>(last[0]) != kEndOfRecords)
    return reader->fail("the records do not end where the footer says");
  reader->recordsEnd = tablesOffset - 1;
  reader->chunkEnd = kHeaderBytes;
  if (reader->count > reader->recordsEnd - kHeaderBytes)
    return reader->fail("declares " + Twine(reader->count) +
                        " records but holds at most " +
                        Twine(reader->recordsEnd - kHeaderBytes));
  return std::unique_ptr<TraceReader>(std::move(reader));
}

Error StreamingTraceReader::refill() {
  size_t left = chunk.size() - at;
  if (left >= kMaxEncodedRecord || chunkEnd == recordsEnd)
    return Error::success();
  std::string next;
  size_t size = std::min<uint64_t>(kChunkBytes, recordsEnd - chunkEnd);
  if (Error error = readAt(chunkEnd, size, next))
    return error;
  chunk = chunk.substr(at) + next;
  at = 0;
  chunkEnd += size;
  return Error::success();
}

Expected<const Record *> StreamingTraceReader::next() {
  Expected<bool> more = readInto(current);
  if (!more)
    return more.takeError();
  return *more ? &current : nullptr;
}

Expected<bool> StreamingTraceReader::readInto(Record &record) {
  if (decoded == count) {
    if (chunkEnd != recordsEnd || at != chunk.size())
      return fail("bytes after the last record");
    return false;
  }
  if (Error error = refill())
    return std::move(error);
  const char *begin = chunk.data() + at, *cursor = begin;
  if (!decoder.decode(cursor, chunk.data() + chunk.size(), record))
    return fail("record " + Twine(decoded) + ": truncated");
  at += cursor - begin;
  if (Error error = checkRecord(record, tables))
    return fail("record " + Twine(decoded) + ": " + toString(std::move(error)));
  ++decoded;
  return true;
}

namespace {
/// Decodes on a thread of its own, a batch ahead of the consumer, so that
/// decoding a binary trace overlaps timing it.
class PrefetchingTraceReader : public TraceReader {
public:
  explicit PrefetchingTraceReader(std::unique_ptr<TraceReader> source)
      : source(std::move(source)) {
    tables = this->source->getTables();
    worker = std::thread([this] { produce(); });
  }
  ~PrefetchingTraceReader() override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    worker.join();
  }
  Expected<const Record *> next() override {
    if (at == batch.records.size()) {
      if (batch.last)
        return finish();
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return !ready.empty(); });
      // The used batch goes back to the producer, which refills it.
      spare.push_back(std::move(batch));
      batch = std::move(ready.front());
      ready.pop_front();
      lock.unlock();
      changed.notify_all();
      at = 0;
      if (batch.records.empty())
        return finish();
    }
    return &batch.records[at++];
  }

private:
  struct Batch {
    std::vector<Record> records;
    /// The source ended (with `error`, if it failed) after these records.
    bool last = false;
    std::optional<std::string> error;
  };
  static constexpr size_t kBatchRecords = 4096, kBatchesAhead = 4;

  Expected<const Record *> finish() {
    if (batch.error)
      return createStringError(inconvertibleErrorCode(), *batch.error);
    return nullptr;
  }

  void produce() {
    while (true) {
      Batch next;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (!spare.empty()) {
          next.records = std::move(spare.front().records);
          spare.pop_front();
        }
      }
      // Records are decoded over the old ones: resizing an emptied vector
      // would zero every record first.
      if (next.records.size() < kBatchRecords)
        next.records.resize(kBatchRecords);
      size_t count = 0;
      while (count < kBatchRecords) {
        // Decoded straight into the batch.
        Expected<bool> more = source->readInto(next.records[count]);
        if (!more) {
          next.error = toString(more.takeError());
          next.last = true;
          break;
        }
        if (!*more) {
          next.last = true;
          break;
        }
        ++count;
      }
      if (count < kBatchRecords)
        next.records.resize(count);
      bool last = next.last;
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock,
                   [&] { return stopping || ready.size() < kBatchesAhead; });
      if (stopping)
        return;
      ready.push_back(std::move(next));
      lock.unlock();
      changed.notify_all();
      if (last)
        return;
    }
  }

  std::unique_ptr<TraceReader> source;
  std::thread worker;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Batch> ready, spare;
  bool stopping = false;
  Batch batch;
  size_t at = 0;
};
} // namespace

Expected<std::unique_ptr<TraceReader>> TraceReader::open(StringRef path) {
  // A regular binary file streams; anything else is read whole.
  if (path != "-" && sys::fs::is_regular_file(path)) {
    char magic[8] = {};
    if (Expected<sys::fs::file_t> file = sys::fs::openNativeFileForRead(path)) {
      Expected<size_t> got =
          sys::fs::readNativeFileSlice(*file, MutableArrayRef(magic, 8), 0);
      sys::fs::closeFile(*file);
      if (got && isBinaryTrace(StringRef(magic, *got))) {
        Expected<std::unique_ptr<TraceReader>> reader =
            StreamingTraceReader::open(path);
        if (!reader)
          return reader.takeError();
        return std::unique_ptr<TraceReader>(
            new PrefetchingTraceReader(std::move(*reader)));
      }
      if (!got)
        consumeError(got.takeError());
    } else {
      consumeError(file.takeError());
    }
  }
  Expected<Trace> trace = readTrace(path);
  if (!trace)
    return trace.takeError();
  return std::unique_ptr<TraceReader>(new WholeTraceReader(std::move(*trace)));
}
