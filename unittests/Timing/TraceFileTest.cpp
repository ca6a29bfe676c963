//===- TraceFileTest.cpp - Binary and text trace files, stream merging ----===//

#include "tilekit/Trace/Trace.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace tilekit;
using namespace tilekit::trace;
using llvm::StringRef;

namespace {

Trace sample() {
  Trace trace;
  Record load(RecordKind::Dma);
  load.setCore(CoreKind::Vector, 1);
  load.sub = static_cast<uint8_t>(DmaPath::GmToUb);
  load.shape[0] = 16;
  load.shape[1] = 128;
  load.strides[0] = 128;
  load.strides[1] = 1;
  load.elem_size = 4;
  load.amount = 8192;
  load.setFlag(true);
  load.tag_id = 3;
  load.tag_slot = 1;
  load.gm_offset = 2048;
  load.addRead(1);
  load.addWrite(7);
  load.setSpace(Space::UB);
  load.write_bytes = 8192;
  load.loc = trace.tables.internLocation("kernel.mlir", 12, 5);
  trace.records.push_back(load);
  Record exp(RecordKind::Compute);
  exp.setCore(CoreKind::Vector);
  exp.sub = static_cast<uint8_t>(Unit::Vector);
  exp.op = trace.tables.intern("exp");
  exp.dtype = trace.tables.intern("f32");
  exp.elem_size = 4;
  exp.amount = 2048;
  exp.item = 5;
  exp.addRead(7);
  exp.addWrite(8);
  trace.records.push_back(exp);
  Record wait(RecordKind::WaitFlag);
  wait.set_pipe = static_cast<uint8_t>(Pipe::MTE2);
  wait.wait_pipe = static_cast<uint8_t>(Pipe::V);
  wait.op = 2;
  trace.records.push_back(wait);
  Record push(RecordKind::Push);
  push.setCore(CoreKind::Cube);
  push.sub = static_cast<uint8_t>(DmaPath::L0CToUb);
  push.amount = 4096;
  push.op = 1;
  push.tag_id = 3;
  push.tag_slot = 2;
  push.addRead(9);
  trace.records.push_back(push);
  return trace;
}

std::string text(const Trace &trace) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printTrace(os, trace);
  return out;
}

std::string tempPath(const char *name) {
  llvm::SmallString<128> dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tracetest", dir));
  llvm::sys::path::append(dir, name);
  return std::string(dir);
}

TEST(TraceFileTest, BinaryRoundTrips) {
  Trace trace = sample();
  std::string path = tempPath("t.bin");
  ASSERT_FALSE(static_cast<bool>(writeBinaryTrace(path, trace)));
  auto read = readTrace(path);
  ASSERT_TRUE(static_cast<bool>(read)) << toString(read.takeError());
  EXPECT_EQ(text(*read), text(trace));
  // The streaming reader sees the same records.
  auto reader = TraceReader::open(path);
  ASSERT_TRUE(static_cast<bool>(reader)) << toString(reader.takeError());
  Trace streamed;
  streamed.tables = (*reader)->getTables();
  while (true) {
    auto record = (*reader)->next();
    ASSERT_TRUE(static_cast<bool>(record)) << toString(record.takeError());
    if (!*record)
      break;
    streamed.records.push_back(**record);
  }
  EXPECT_EQ(text(streamed), text(trace));
}

// The varint form is compact: a GEMM-like stream of DMAs and matmuls takes
// well under the 83 bytes per record of the fixed-width version 1 form.
TEST(TraceFileTest, BinaryIsCompact) {
  Trace trace;
  uint16_t f16 = trace.tables.intern("f16");
  for (uint32_t i = 0; i < 1000; ++i) {
    Record dma(RecordKind::Dma);
    dma.sub = static_cast<uint8_t>(DmaPath::GmToL1);
    dma.item = i / 10;
    dma.amount = 16384;
    dma.shape[0] = 128;
    dma.shape[1] = 64;
    dma.strides[0] = 4096;
    dma.gm_offset = uint64_t(i) * 64;
    dma.addRead(1);
    dma.addWrite(100 + i % 4);
    dma.setSpace(Space::L1);
    dma.write_bytes = 16384;
    trace.records.push_back(dma);
    Record mm(RecordKind::Compute);
    mm.item = i / 10;
    mm.dtype = f16;
    mm.op = f16;
    mm.shape[0] = 128;
    mm.shape[1] = 64;
    mm.shape[2] = 256;
    mm.addRead(100 + i % 4);
    mm.addWrite(200);
    trace.records.push_back(mm);
  }
  std::string path = tempPath("c.bin");
  ASSERT_FALSE(static_cast<bool>(writeBinaryTrace(path, trace)));
  uint64_t size = 0;
  ASSERT_FALSE(llvm::sys::fs::file_size(path, size));
  EXPECT_LT(size, 2000u * 20) << size << " bytes for 2000 records";
}

TEST(TraceFileTest, TextRoundTrips) {
  Trace trace = sample();
  std::string dump = text(trace);
  EXPECT_NE(dump.find("0 dma item=0 core=vector lane=1 path=gm_ub "
                      "shape=16x128x0 strides=128x1 esize=4 bytes=8192 "
                      "offset=2048 async tag=3:1 reads=1 writes=7 space=ub "
                      "wbytes=8192 loc=kernel.mlir:12:5"),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("3 push item=0 core=cube path=l0c_ub shape=0x0x0 "
                      "strides=0x0 esize=0 bytes=4096 offset=0 pipe_id=1 "
                      "lanes=3 slots=2 reads=9"),
            std::string::npos)
      << dump;
  auto parsed = parseTrace(dump, "dump.txt");
  ASSERT_TRUE(static_cast<bool>(parsed)) << toString(parsed.takeError());
  EXPECT_EQ(text(*parsed), dump);
}

TEST(TraceFileTest, ErrorsNameTheRecord) {
  auto bad = parseTrace("0 dma path=gm_ub\n1 dma path=nowhere\n", "t.txt");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(toString(bad.takeError()),
            "t.txt:2: record 1: unknown path 'nowhere'");
  auto lane = parseTrace("0 dma core=vector lane=2 path=gm_ub\n", "t.txt");
  ASSERT_FALSE(static_cast<bool>(lane));
  EXPECT_EQ(toString(lane.takeError()),
            "t.txt:1: record 0: lane 2 is out of range (an AI core has "
            "vector cores 0 and 1)");

  Trace trace = sample();
  std::string path = tempPath("t.bin");
  ASSERT_FALSE(static_cast<bool>(writeBinaryTrace(path, trace)));
  auto bytes = llvm::MemoryBuffer::getFile(path);
  std::string whole = (*bytes)->getBuffer().str();
  // A file cut short has no footer.
  auto cut = parseTrace(StringRef(whole).drop_back(5), "t.bin");
  ASSERT_FALSE(static_cast<bool>(cut));
  EXPECT_EQ(toString(cut.takeError()),
            "t.bin: truncated: no footer (was the writer interrupted?)");
  // The first record's head byte follows the 16-byte header.
  std::string corrupt = whole;
  corrupt[16] = 0x0e;
  auto wrong = parseTrace(corrupt, "t.bin");
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_EQ(toString(wrong.takeError()),
            "t.bin: record 0: unknown record kind 14");
}

// The ABI version is in the header; another version is refused naming
// both.
TEST(TraceFileTest, VersionMismatchNamesBothVersions) {
  Trace trace = sample();
  std::string path = tempPath("v.bin");
  ASSERT_FALSE(static_cast<bool>(writeBinaryTrace(path, trace)));
  std::string bytes = (*llvm::MemoryBuffer::getFile(path))->getBuffer().str();
  bytes[8] = 7;
  auto future = parseTrace(bytes, "v.bin");
  ASSERT_FALSE(static_cast<bool>(future));
  EXPECT_EQ(toString(future.takeError()),
            "v.bin: trace ABI version 7, but this tilekit reads version " +
                std::to_string(TILEKIT_TRACE_ABI_VERSION));
  // Version 1 files carried the version in the magic.
  auto old = parseTrace(StringRef("TKTRACE\x01\0\0\0\0", 12), "old.bin");
  ASSERT_FALSE(static_cast<bool>(old));
  EXPECT_NE(toString(old.takeError()).find("trace ABI version 1, but"),
            std::string::npos);
  // The streaming reader checks the same.
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << bytes;
  }
  auto reader = TraceReader::open(path);
  ASSERT_FALSE(static_cast<bool>(reader));
  EXPECT_NE(toString(reader.takeError()).find("trace ABI version 7"),
            std::string::npos);
}

// What the writer accepts, the readers read back: a record it cannot
// encode is an error naming it, and nothing is written.
TEST(TraceFileTest, WriterEnforcesTheReadersLimits) {
  Trace trace = sample();
  for (int i = 0; i < 20; ++i)
    trace.records[1].addRead(1);
  std::string path = tempPath("wide.bin");
  llvm::Error error = writeBinaryTrace(path, trace);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(toString(std::move(error)),
            "cannot write '" + path +
                "': record 1: lists more than 16 buffers read and written");
  EXPECT_FALSE(llvm::sys::fs::exists(path));

  trace = sample();
  trace.records[0].buffers[1] = ~uint64_t(0);
  error = writeBinaryTrace(path, trace);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(toString(std::move(error)).find("record 0: buffer id"),
            std::string::npos);
}

Record transfer(RecordKind kind, bool fromCube, unsigned lanes,
                uint32_t slots = 0, uint64_t tag = 0) {
  Record record(kind);
  record.sub =
      static_cast<uint8_t>(fromCube ? DmaPath::L0CToUb : DmaPath::UbToL1);
  record.tag_id = lanes;
  record.tag_slot = slots;
  record.amount = tag; // tells the records apart
  return record;
}

Record compute(uint64_t tag) {
  Record record(RecordKind::Compute);
  record.amount = tag;
  return record;
}

std::vector<uint64_t> tags(const std::vector<Record> &records) {
  std::vector<uint64_t> result;
  for (const Record &record : records)
    result.push_back(record.amount);
  return result;
}

// The merged order depends only on the streams: every pop follows its push,
// and a push waits for the pop that frees its slot.
TEST(MergeStreamsTest, PopsFollowPushesAndPushesWaitForSlots) {
  // The cube pushes three tiles to both lanes through one slot; each lane
  // pops them and computes.
  std::vector<Record> cube, lane0, lane1;
  for (uint64_t i = 0; i < 3; ++i) {
    cube.push_back(compute(100 + i));
    cube.push_back(transfer(RecordKind::Push, true, 3, 1, 110 + i));
    lane0.push_back(transfer(RecordKind::Pop, true, 1, 0, 200 + i));
    lane0.push_back(compute(210 + i));
    lane1.push_back(transfer(RecordKind::Pop, true, 2, 0, 300 + i));
    lane1.push_back(compute(310 + i));
  }
  std::vector<Record> merged = mergeCoreStreams({cube, lane0, lane1});
  std::vector<uint64_t> expected = {
      100, 110, 101, // the second push waits for both lanes' first pops
      200, 210,      // lane 0 pops, then blocks on the next push
      300, 310,      // lane 1 too
      111, 102,      // now the cube can push again
      201, 211, 301, 311, 112, 202, 212, 302, 312};
  EXPECT_EQ(tags(merged), expected);
  // Unbounded, the cube runs ahead.
  for (Record &record : cube)
    record.tag_slot = 0;
  merged = mergeCoreStreams({cube, lane0, lane1});
  EXPECT_EQ(tags(merged).at(5), 112u);
  // A pop with no push anywhere: the streams in order, for the timing model
  // to report.
  merged = mergeCoreStreams({lane0});
  EXPECT_EQ(tags(merged).front(), 200u);
  EXPECT_EQ(merged.size(), lane0.size());
}

} // namespace
