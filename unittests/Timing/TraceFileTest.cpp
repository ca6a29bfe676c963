//===- TraceFileTest.cpp - Binary and text trace files --------------------===//

#include "tilekit/Trace/Trace.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace tilekit;
using namespace tilekit::trace;

namespace {

Trace sample() {
  Trace trace;
  Record load;
  load.kind = RecordKind::Dma;
  load.sub = static_cast<uint8_t>(DmaPath::GmToUb);
  load.shape[0] = 16;
  load.shape[1] = 128;
  load.strides[0] = 128;
  load.strides[1] = 1;
  load.elementSize = 4;
  load.amount = 8192;
  load.flag = true;
  load.tagId = 3;
  load.tagSlot = 1;
  load.gmOffset = 2048;
  load.reads = {1};
  load.writes = {7};
  load.writeSpace = Space::UB;
  load.writeBytes = 8192;
  trace.records.push_back(load);
  Record exp;
  exp.kind = RecordKind::Compute;
  exp.sub = static_cast<uint8_t>(Unit::Vector);
  exp.op = trace.intern("exp");
  exp.dtype = trace.intern("f32");
  exp.elementSize = 4;
  exp.amount = 2048;
  exp.item = 5;
  exp.reads = {7};
  exp.writes = {8};
  trace.records.push_back(exp);
  Record wait;
  wait.kind = RecordKind::WaitFlag;
  wait.setPipe = Pipe::MTE2;
  wait.waitPipe = Pipe::V;
  wait.op = 2;
  trace.records.push_back(wait);
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
}

TEST(TraceFileTest, TextRoundTrips) {
  Trace trace = sample();
  std::string dump = text(trace);
  EXPECT_NE(dump.find("0 dma item=0 path=gm_ub shape=16x128x0 strides=128x1 "
                      "esize=4 bytes=8192 offset=2048 async tag=3:1 reads=1 "
                      "writes=7 space=ub wbytes=8192"),
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

  Trace trace = sample();
  std::string path = tempPath("t.bin");
  ASSERT_FALSE(static_cast<bool>(writeBinaryTrace(path, trace)));
  auto bytes = llvm::MemoryBuffer::getFile(path);
  std::string truncated = (*bytes)->getBuffer().drop_back(5).str();
  auto cut = parseTrace(truncated, "t.bin");
  ASSERT_FALSE(static_cast<bool>(cut));
  EXPECT_EQ(toString(cut.takeError()), "t.bin: record 2: truncated");

  std::string corrupt = (*bytes)->getBuffer().str();
  // The first record's kind byte follows the header.
  size_t header = 8 + 4 + (2 + 3) + (2 + 3) + 8;
  corrupt[header] = 42;
  auto wrong = parseTrace(corrupt, "t.bin");
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_EQ(toString(wrong.takeError()),
            "t.bin: record 0: unknown record kind 42");
}

// What the writer accepts, the readers read back: a record it cannot
// encode is an error naming it, and nothing is written.
TEST(TraceFileTest, WriterEnforcesTheReadersLimits) {
  Trace trace = sample();
  trace.records[1].reads.assign(256, 1);
  std::string path = tempPath("wide.bin");
  llvm::Error error = writeBinaryTrace(path, trace);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(toString(std::move(error)),
            path + ": record 1: reads 256 and writes " +
                std::to_string(trace.records[1].writes.size()) +
                " buffers; at most 255 each");
  EXPECT_FALSE(llvm::sys::fs::exists(path));

  trace = sample();
  trace.records[0].writes = {~uint64_t(0)};
  error = writeBinaryTrace(path, trace);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(toString(std::move(error)).find("record 0: buffer id"),
            std::string::npos);
}

} // namespace
