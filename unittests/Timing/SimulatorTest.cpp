//===- SimulatorTest.cpp - Exact cycle counts of the timing model ---------===//
//
// A test machine with round figures: 1.073741824 GHz, so that 1 GiB/s is 1
// byte per cycle; every path moves 64 B/cycle after a 10-cycle latency;
// vector ops cost 0.25 cycles per f32 element plus 10; the cube costs
// 6 + (M/16)(K/16)(N/16) cycles for f16.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Timing/Simulator.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace tilekit;
using namespace tilekit::timing;
using namespace tilekit::trace;

namespace {

std::string machine(unsigned aic = 1, unsigned outstanding = 8,
                    unsigned slots = 2, unsigned ub = 65536) {
  std::string paths;
  for (unsigned p = 0; p < kNumDmaPaths; ++p)
    paths += std::string(p ? ", " : "") + "\"" +
             getName(static_cast<DmaPath>(p)).str() + "\": 64";
  return R"({"name": "test", "clock_ghz": 1.073741824,
    "cores": {"aic": )" +
         std::to_string(aic) + R"(, "aiv": 2},
    "buffers_bytes": {"ub": )" +
         std::to_string(ub) + R"(, "l1": 524288,
      "l0a": 65536, "l0b": 65536, "l0c": 131072, "bias": 1024},
    "dma": {"latency_cycles": 10, "max_outstanding": )" +
         std::to_string(outstanding) + R"(, "bandwidth_gib_s": {)" + paths +
         R"(}},
    "hbm": {"bandwidth_gb_s": 1e9},
    "cube": {"head_cycles": 6, "k0_bytes": 32, "weight_slots": )" +
         std::to_string(slots) + R"(, "cycles_per_step": {"f16": 1}},
    "vector": {"default": {"slope": 0.25, "bias": 10}}})";
}

MachineConfig config(const std::string &json) {
  auto parsed = parseMachineConfig(json, "test.json");
  EXPECT_TRUE(static_cast<bool>(parsed)) << toString(parsed.takeError());
  return std::move(*parsed);
}

bool isCubeSpace(Space space) {
  return space != Space::GM && space != Space::UB;
}

/// Builds records tersely. Each runs on the cube core when it is a cube
/// op or touches the cube's buffers, else on vector core `lane`.
struct Builder {
  Trace trace;
  uint32_t item = 0;
  unsigned lane = 0;

  Record &add(Record record, bool cube = false) {
    record.item = item;
    record.setCore(cube ? CoreKind::Cube : CoreKind::Vector, cube ? 0 : lane);
    trace.records.push_back(record);
    return trace.records.back();
  }
  static void buffers(Record &record, const std::vector<uint64_t> &reads,
                      const std::vector<uint64_t> &writes) {
    for (uint64_t id : reads)
      record.addRead(id);
    for (uint64_t id : writes)
      record.addWrite(id);
  }
  Record &dma(DmaPath path, uint64_t bytes, std::vector<uint64_t> reads,
              std::vector<uint64_t> writes, uint64_t writeBytes = 0) {
    Record record(RecordKind::Dma);
    record.sub = static_cast<uint8_t>(path);
    record.amount = bytes;
    buffers(record, reads, writes);
    record.setSpace(getDestination(path));
    record.write_bytes = writeBytes ? writeBytes : bytes;
    return add(record, isCubeSpace(getSource(path)) ||
                           isCubeSpace(getDestination(path)));
  }
  Record &vector(uint64_t elements, std::vector<uint64_t> reads,
                 std::vector<uint64_t> writes) {
    Record record(RecordKind::Compute);
    record.sub = static_cast<uint8_t>(Unit::Vector);
    record.op = trace.tables.intern("exp");
    record.dtype = trace.tables.intern("f32");
    record.elem_size = 4;
    record.amount = elements;
    buffers(record, reads, writes);
    return add(record);
  }
  Record &matmul(uint32_t m, uint32_t k, uint32_t n,
                 std::vector<uint64_t> reads, std::vector<uint64_t> writes,
                 bool accumulate = false, uint64_t writeBytes = 0) {
    Record record(RecordKind::Compute);
    record.sub = static_cast<uint8_t>(Unit::Cube);
    record.op = trace.tables.intern("matmul");
    record.dtype = trace.tables.intern("f16");
    record.elem_size = 2;
    record.shape[0] = m;
    record.shape[1] = k;
    record.shape[2] = n;
    record.setFlag(accumulate);
    if (writeBytes) {
      record.setSpace(Space::L0C);
      record.write_bytes = writeBytes;
    }
    buffers(record, reads, writes);
    return add(record, /*cube=*/true);
  }
  Record &plain(RecordKind kind) { return add(Record(kind)); }
  Record &flag(RecordKind kind, Pipe set, Pipe wait, uint16_t event = 0,
               bool cube = false) {
    Record record(kind);
    record.set_pipe = static_cast<uint8_t>(set);
    record.wait_pipe = static_cast<uint8_t>(wait);
    record.op = event;
    return add(record, cube);
  }
  /// A cross-core push of `bytes` (cube to vector when `fromCube`) into the
  /// lane queues of `lanes` with `slots` slots, and the matching pop.
  Record &push(bool fromCube, uint64_t bytes, uint64_t tile, unsigned lanes,
               uint32_t slots) {
    Record record(RecordKind::Push);
    record.sub =
        static_cast<uint8_t>(fromCube ? DmaPath::L0CToUb : DmaPath::UbToL1);
    record.amount = bytes;
    record.tag_id = lanes;
    record.tag_slot = slots;
    record.addRead(tile);
    return add(record, fromCube);
  }
  Record &pop(bool fromCube, uint64_t bytes, uint64_t tile, unsigned lanes) {
    Record record(RecordKind::Pop);
    DmaPath path = fromCube ? DmaPath::L0CToUb : DmaPath::UbToL1;
    record.sub = static_cast<uint8_t>(path);
    record.amount = bytes;
    record.tag_id = lanes;
    record.addWrite(tile);
    record.setSpace(getDestination(path));
    record.write_bytes = bytes;
    return add(record, !fromCube);
  }
};

SimResult run(const Trace &trace, const MachineConfig &machine,
              unsigned cores = 0) {
  SimOptions options;
  options.timeline = true;
  options.cores = cores;
  auto result = simulate(trace, machine, options);
  EXPECT_TRUE(static_cast<bool>(result)) << toString(result.takeError());
  return std::move(*result);
}

std::string failure(const Trace &trace, const MachineConfig &machine) {
  auto result = simulate(trace, machine);
  if (result)
    return "no error";
  return toString(result.takeError());
}

const TimelineEvent &event(const SimResult &result, uint32_t record) {
  for (const TimelineEvent &e : result.timeline)
    if (e.record == record)
      return e;
  static TimelineEvent none{};
  ADD_FAILURE() << "no event for record " << record;
  return none;
}

TEST(SimulatorTest, DmaCostsLatencyPlusBytesOverBandwidth) {
  Builder b;
  b.dma(DmaPath::GmToUb, 6400, {1}, {2});
  SimResult result = run(b.trace, config(machine()));
  // 10 latency + 6400 B / 64 B per cycle = 110.
  EXPECT_EQ(result.cycles, 110u);
  EXPECT_EQ(result.pathBytes[static_cast<unsigned>(DmaPath::GmToUb)], 6400u);
}

// A reader waits for its writer's completion: at N - 1 = 109 the load has
// not finished, at N = 110 the vector op starts.
TEST(SimulatorTest, ReaderWaitsForWriterCompletion) {
  Builder b;
  b.dma(DmaPath::GmToUb, 6400, {1}, {2});
  b.vector(256, {2}, {3});
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 1).start, 110u);
  EXPECT_NE(event(result, 1).start, 109u);
  // 110 + (0.25 * 256 + 10 = 74) = 184.
  EXPECT_EQ(result.cycles, 184u);
}

// Ops on one pipe run in order; on different pipes they overlap.
TEST(SimulatorTest, PipesAreInOrderQueues) {
  // A DMA keeps its pipe busy for the transfer (bytes / bandwidth) and
  // completes after the latency too, which overlaps the next transfer.
  Builder b;
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}); // MTE2 busy 0..100, done 110
  b.dma(DmaPath::GmToUb, 640, {1}, {3});  // MTE2 busy 100..110, done 120
  b.dma(DmaPath::UbToGm, 640, {4}, {5});  // MTE3 busy 0..10, done 20
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 1).start, 100u);
  EXPECT_EQ(event(result, 1).end, 120u);
  EXPECT_EQ(event(result, 2).start, 0u);
  EXPECT_EQ(result.cycles, 120u);
  EXPECT_EQ(result.cores[0].busy[1][static_cast<unsigned>(Pipe::MTE2)], 110u);
}

// A writer replaces the buffer's writer set: after two writes, a reader
// waits only for the second.
TEST(SimulatorTest, WriterReplacesTheWriterSet) {
  Builder b;
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}); // MTE2 0..110 writes 2
  b.vector(40, {}, {2});                  // V 0..20 writes 2 again
  b.vector(40, {2}, {3});                 // waits for the vector write only
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 1).end, 20u);
  EXPECT_EQ(event(result, 2).start, 20u);
}

// Accumulating matmuls skip the accumulator's read edge and join its writer
// set; they wait only for the non-matmul initializer, and a later reader
// (the store) waits for all of them.
TEST(SimulatorTest, AccumulatorWaitsOnlyForItsInitializer) {
  Builder b;
  b.vector(4000, {}, {7});                                // V 0..1010 init
  b.dma(DmaPath::L1ToL0A, 640, {20}, {3});                // done at 20
  b.matmul(16, 32, 16, {7, 3}, {7}, /*accumulate=*/true); // waits for init
  b.matmul(16, 32, 16, {7, 3}, {7}, /*accumulate=*/true); // M in order
  b.dma(DmaPath::L0CToGm, 640, {7}, {30});                // waits for both
  SimResult result = run(b.trace, config(machine()));
  // 6 + (16/16)(32/16)(16/16) = 8 cycles each.
  EXPECT_EQ(event(result, 2).start, 1010u);
  EXPECT_EQ(event(result, 3).start, 1018u);
  EXPECT_EQ(event(result, 4).start, 1026u);
  // Without the initializer, an accumulation only waits for its operands.
  Builder c;
  c.dma(DmaPath::L1ToL0A, 640, {20}, {3});
  c.matmul(16, 32, 16, {7, 3}, {7}, true);
  SimResult plain = run(c.trace, config(machine()));
  EXPECT_EQ(event(plain, 1).start, 20u);
}

// An async load is done at issue for its readers; the MEMORY_BAR bound to
// its tag pair completes when the data has arrived.
TEST(SimulatorTest, MemoryBarPairsByTag) {
  Builder b;
  Record &load = b.dma(DmaPath::GmToUb, 6400, {1}, {2});
  load.setFlag(true);
  load.tag_id = 4;
  load.tag_slot = 1;
  Record &bar = b.plain(RecordKind::MemoryBar);
  bar.tag_id = 4;
  bar.tag_slot = 1;
  bar.addWrite(2);
  b.vector(40, {2}, {3});
  SimResult result = run(b.trace, config(machine()));
  // Arrival at 110: the reader starts then, not at the issue (0).
  EXPECT_EQ(event(result, 2).start, 110u);

  Builder stuck;
  Record &orphan = stuck.plain(RecordKind::MemoryBar);
  orphan.tag_id = 9;
  EXPECT_EQ(failure(stuck.trace, config(machine())),
            "record 0 (memory_bar, item 0): waits for tag (9, 0), which no "
            "earlier async DMA bound: no progress is possible");
}

// Two work items share a vector core only when each fits half the buffer.
// Items of one vector core fill vector core 0, then vector core 1, of the
// one AI core: item 2 shares vector core 0 with item 0.
TEST(SimulatorTest, CapacityGate) {
  auto threeItems = [](uint64_t bytes) {
    Builder b;
    for (uint32_t item = 0; item < 3; ++item) {
      b.item = item;
      b.plain(RecordKind::WorkBegin);
      b.dma(DmaPath::GmToUb, 640, {1}, {10 + item}, bytes);
      b.vector(4000, {10 + item}, {20 + item}); // V: 1010 cycles
      b.plain(RecordKind::WorkEnd);
    }
    return b.trace;
  };
  // 30000 B of 65536: both fit half; item 2's load overlaps item 0's
  // vector op (MTE2 is free once item 0's 10-cycle transfer is done).
  SimResult small = run(threeItems(30000), config(machine()));
  EXPECT_EQ(event(small, 5).start, 0u); // item 1, on vector core 1
  EXPECT_EQ(event(small, 5).subcore, 2u);
  EXPECT_EQ(event(small, 9).start, 10u);
  EXPECT_EQ(event(small, 9).subcore, 1u);
  // 40000 B: more than half; item 2 waits for item 0 (done at 1030).
  SimResult large = run(threeItems(40000), config(machine()));
  EXPECT_EQ(event(large, 9).start, 1030u);
  // More than the whole buffer cannot run.
  EXPECT_EQ(failure(threeItems(70000), config(machine())),
            "work item 0 needs 70000 bytes of ub, more than the 65536 a core "
            "has");
}

// A buffer holds one version: rewriting it waits until the old version's
// readers are done, whatever the size. Double buffering is a second buffer:
// a load into it does not wait.
TEST(SimulatorTest, BufferHoldsOneVersion) {
  auto rewrite = [](uint64_t second) {
    Builder b;
    b.dma(DmaPath::GmToUb, 640, {1}, {10}, 1024);     // MTE2 0..10, done 20
    b.vector(4000, {10}, {20});                       // V 20..1030 reads 10
    b.dma(DmaPath::GmToUb, 640, {1}, {second}, 1024); // the next load
    return b.trace;
  };
  // The same buffer: the load waits for the reader (done at 1030).
  EXPECT_EQ(event(run(rewrite(10), config(machine())), 2).start, 1030u);
  // The other buffer of a double-buffered pair: MTE2 is free at 10.
  EXPECT_EQ(event(run(rewrite(11), config(machine())), 2).start, 10u);
  // Accumulation updates in place: no new version, so no wait for the
  // store reading the previous value.
  Builder acc;
  acc.dma(DmaPath::L1ToL0A, 640, {20}, {3});         // done at 20
  acc.matmul(16, 32, 16, {3}, {7}, false, 131072);   // M 20..28
  acc.dma(DmaPath::L0CToGm, 640, {7}, {30});         // FIX 28..48
  acc.matmul(16, 32, 16, {7, 3}, {7}, true, 131072); // M 28..36
  EXPECT_EQ(event(run(acc.trace, config(machine())), 3).start, 28u);
}

// With two weight slots, the third weight load waits for the first matmul.
TEST(SimulatorTest, WeightSlots) {
  Builder b;
  b.dma(DmaPath::L1ToL0B, 640, {1}, {10}); // MTE1 0..10, done 20
  b.dma(DmaPath::L1ToL0B, 640, {1}, {11}); // MTE1 10..20, done 30
  b.matmul(64, 64, 64, {10}, {30});        // M 20..90
  b.matmul(64, 64, 64, {11}, {31});        // M 90..160
  b.dma(DmaPath::L1ToL0B, 640, {1}, {12}); // slot of matmul 0
  SimResult result = run(b.trace, config(machine()));
  // 6 + 4 * 4 * 4 = 70 cycles per matmul; slot 0 frees at 90.
  EXPECT_EQ(event(result, 4).start, 90u);

  Builder ahead;
  for (uint64_t buffer = 10; buffer < 13; ++buffer)
    ahead.dma(DmaPath::L1ToL0B, 640, {1}, {buffer});
  EXPECT_EQ(failure(ahead.trace, config(machine())),
            "record 2 (dma, item 0): weight load 2 needs slot 0, which frees "
            "only after matmul 0, later in the trace: no progress is "
            "possible");
}

// A flag orders two pipes without a data dependency.
TEST(SimulatorTest, FlagsOrderPipes) {
  Builder b;
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}); // MTE2 0..110
  b.flag(RecordKind::SetFlag, Pipe::MTE2, Pipe::V);
  b.flag(RecordKind::WaitFlag, Pipe::MTE2, Pipe::V);
  b.vector(40, {}, {3});
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 3).start, 110u);

  Builder stuck;
  stuck.flag(RecordKind::WaitFlag, Pipe::MTE2, Pipe::V, 3);
  EXPECT_EQ(failure(stuck.trace, config(machine())),
            "record 0 (wait_flag, item 0): waits for flag mte2 -> v event 3, "
            "which no earlier set_flag raises: no progress is possible");
}

// With one DMA in flight at most, a DMA on another pipe still waits.
TEST(SimulatorTest, DmaThrottle) {
  Builder b;
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}); // MTE2 0..110
  b.dma(DmaPath::UbToGm, 640, {4}, {5});  // MTE3, throttled until 110
  SimResult result = run(b.trace, config(machine(1, /*outstanding=*/1)));
  EXPECT_EQ(event(result, 1).start, 110u);
  SimResult free = run(b.trace, config(machine(1, 8)));
  EXPECT_EQ(event(free, 1).start, 0u);
}

// Work items spread over the cores run in parallel: items of one vector
// core over every vector core (two per AI core), the others over the AI
// cores.
TEST(SimulatorTest, WorkItemsSpreadOverCores) {
  Builder b;
  for (uint32_t item = 0; item < 4; ++item) {
    b.item = item;
    b.dma(DmaPath::GmToUb, 6400, {1}, {10 + item});
  }
  // Four loads of 100 transfer + 10 latency cycles; on one vector core
  // they pipeline: n loads take 100 n + 10.
  SimResult two = run(b.trace, config(machine(2)));
  EXPECT_EQ(two.cycles, 110u);
  EXPECT_EQ(two.vectorCoresUsed, 4u);
  EXPECT_EQ(describePlacement(two), "4 of 4 vector cores");
  EXPECT_EQ(run(b.trace, config(machine(4))).cycles, 110u);
  SimResult one = run(b.trace, config(machine(4)), /*cores=*/1);
  EXPECT_EQ(one.cycles, 210u);
  EXPECT_EQ(describePlacement(one), "2 of 2 vector cores");

  // Items on the cube core take a whole AI core each.
  Builder cube;
  for (uint32_t item = 0; item < 4; ++item) {
    cube.item = item;
    cube.dma(DmaPath::GmToL1, 6400, {1}, {10 + item});
  }
  SimResult aic = run(cube.trace, config(machine(2)));
  EXPECT_EQ(aic.cycles, 210u);
  EXPECT_EQ(describePlacement(aic), "2 of 2 AI cores");
}

// A compiled kernel's block (WORK_BEGIN explicit) is ordered by its own
// flags: a reader of a buffer written on another pipe starts when the
// flag says, not when the data would be there, and no capacity gate or
// weight slot applies.
TEST(SimulatorTest, ExplicitlySynchronizedItemsFollowTheirFlags) {
  auto block = [](bool flagged) {
    Builder b;
    Record &begin = b.plain(RecordKind::WorkBegin);
    begin.flags = TILEKIT_TRACE_EXPLICIT_SYNC;
    b.dma(DmaPath::GmToUb, 6400, {1}, {2}); // MTE2 0..100, done at 110
    if (flagged) {
      b.flag(RecordKind::SetFlag, Pipe::MTE2, Pipe::V, 3);
      b.flag(RecordKind::WaitFlag, Pipe::MTE2, Pipe::V, 3);
    }
    b.vector(40, {2}, {3});
    b.plain(RecordKind::WorkEnd);
    return b.trace;
  };
  // Without its flag the vector op does not wait: what the chip would do
  // with the race.
  EXPECT_EQ(event(run(block(false), config(machine())), 2).start, 0u);
  SimResult flagged = run(block(true), config(machine()));
  EXPECT_EQ(event(flagged, 4).start, 110u);
  EXPECT_EQ(flagged.sync.count[static_cast<unsigned>(SyncKind::Flag)], 1u);
  EXPECT_EQ(flagged.sync.cycles[static_cast<unsigned>(SyncKind::Flag)], 110u);
  EXPECT_EQ(flagged.waits[static_cast<unsigned>(WaitReason::Flag)], 110u);
}

// A compiled block that says its launch's blocks is timed as its records
// come (no record held), and times as the same block held whole does; one
// that says it runs on one vector core takes one.
TEST(SimulatorTest, StreamedBlocksTimeAsHeldOnes) {
  auto blocks = [](uint64_t count, CoreKind where) {
    Builder b;
    for (uint32_t item = 0; item < 3; ++item) {
      b.item = item;
      Record &begin = b.plain(RecordKind::WorkBegin);
      begin.flags = TILEKIT_TRACE_EXPLICIT_SYNC;
      begin.amount = count;
      begin.setCore(where);
      b.dma(DmaPath::GmToUb, 6400, {1}, {2});
      b.flag(RecordKind::SetFlag, Pipe::MTE2, Pipe::V, 0);
      b.flag(RecordKind::WaitFlag, Pipe::MTE2, Pipe::V, 0);
      b.vector(400, {2}, {3});
      b.plain(RecordKind::WorkEnd);
    }
    return b.trace;
  };
  // Held, the items' records show they run on one vector core each.
  SimResult held = run(blocks(0, CoreKind::AiCore), config(machine(2)));
  SimResult streamed = run(blocks(3, CoreKind::Vector), config(machine(2)));
  EXPECT_EQ(describePlacement(held), "3 of 4 vector cores");
  EXPECT_EQ(describePlacement(streamed), "3 of 4 vector cores");
  EXPECT_EQ(streamed.cycles, held.cycles);
  EXPECT_EQ(streamed.coreCycles, held.coreCycles);
  EXPECT_EQ(streamed.sync.cycles, held.sync.cycles);
  // Streamed blocks of the whole AI core: one per AI core, the third
  // after the first.
  SimResult whole = run(blocks(3, CoreKind::AiCore), config(machine(2)));
  EXPECT_EQ(describePlacement(whole), "2 of 2 AI cores");
  EXPECT_GT(whole.cycles, streamed.cycles);
}

// Cross-core flags pair by flag id across the cores: the cube's set
// signals each vector lane it names; the cube's wait takes one set from
// each lane it names. A wait on the scalar pipe holds every pipe.
TEST(SimulatorTest, CrossCoreFlagsPairAcrossCores) {
  Builder b;
  Record &begin = b.plain(RecordKind::WorkBegin);
  begin.flags = TILEKIT_TRACE_EXPLICIT_SYNC;
  b.dma(DmaPath::GmToL1, 6400, {1}, {2}); // cube MTE2 0..100, done 110
  Record &set = b.flag(RecordKind::SetFlag, Pipe::MTE2, Pipe::MTE2, 5,
                       /*cube=*/true);
  set.flags = TILEKIT_TRACE_CROSS_CORE;
  set.tag_id = 3;
  for (unsigned lane = 0; lane < 2; ++lane) {
    b.lane = lane;
    Record &wait = b.flag(RecordKind::WaitFlag, Pipe::S, Pipe::S, 5);
    wait.flags = TILEKIT_TRACE_CROSS_CORE;
    wait.tag_id = 1u << lane;
    b.dma(DmaPath::GmToUb, 64 * (lane + 1), {7}, {8 + lane}); // 1 or 2
    Record &back = b.flag(RecordKind::SetFlag, Pipe::MTE2, Pipe::MTE2, 6);
    back.flags = TILEKIT_TRACE_CROSS_CORE;
    back.tag_id = 1u << lane;
  }
  Record &wait = b.flag(RecordKind::WaitFlag, Pipe::M, Pipe::M, 6,
                        /*cube=*/true);
  wait.flags = TILEKIT_TRACE_CROSS_CORE;
  wait.tag_id = 3;
  b.matmul(16, 16, 16, {2}, {9}); // 6 + 1 cycles
  b.plain(RecordKind::WorkEnd);
  SimResult result = run(b.trace, config(machine()));
  // Each lane's load starts when the cube's flag is up (110): the wait on
  // S holds MTE2 too.
  EXPECT_EQ(event(result, 4).start, 110u);
  EXPECT_EQ(event(result, 4).subcore, 1u);
  EXPECT_EQ(event(result, 7).start, 110u);
  EXPECT_EQ(event(result, 7).subcore, 2u);
  // The cube waits for both lanes' sets: lane 1's load is done last (110
  // + 2 + 10).
  EXPECT_EQ(event(result, 10).start, 122u);
  EXPECT_EQ(result.sync.count[static_cast<unsigned>(SyncKind::CrossCoreFlag)],
            3u);

  // A wait no set raises cannot make progress.
  Builder stuck;
  Record &lonely = stuck.flag(RecordKind::WaitFlag, Pipe::S, Pipe::S, 4);
  lonely.flags = TILEKIT_TRACE_CROSS_CORE;
  lonely.tag_id = 1;
  EXPECT_EQ(failure(stuck.trace, config(machine())),
            "record 0 (wait_flag, item 0): waits for cross-core flag 4 from "
            "the cube, which no earlier set raises: no progress is possible");
}

// In a compiled kernel's block each core's flags are its own: the cube's
// and a vector core's MTE2 -> S flags of one event do not pair.
TEST(SimulatorTest, CompiledFlagsStayOnTheirCore) {
  Builder b;
  Record &begin = b.plain(RecordKind::WorkBegin);
  begin.flags = TILEKIT_TRACE_EXPLICIT_SYNC;
  b.dma(DmaPath::GmToL1, 6400, {1}, {2}); // cube MTE2, done at 110
  b.flag(RecordKind::SetFlag, Pipe::MTE2, Pipe::S, 0, /*cube=*/true);
  b.flag(RecordKind::SetFlag, Pipe::MTE2, Pipe::S, 0); // vector, at 0
  b.flag(RecordKind::WaitFlag, Pipe::MTE2, Pipe::S, 0);
  b.vector(40, {5}, {6});
  b.flag(RecordKind::WaitFlag, Pipe::MTE2, Pipe::S, 0, /*cube=*/true);
  b.matmul(16, 16, 16, {2}, {9});
  b.plain(RecordKind::WorkEnd);
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 5).start, 0u);
  EXPECT_EQ(event(result, 7).start, 110u);
}

// Buffer ids (C310): acquiring one waits for its last release on another
// pipe; a first acquisition does not wait.
TEST(SimulatorTest, BufferIdsOrderPipes) {
  Builder b;
  Record &begin = b.plain(RecordKind::WorkBegin);
  begin.flags = TILEKIT_TRACE_EXPLICIT_SYNC;
  auto id = [&](RecordKind kind, Pipe pipe) {
    Record &record = b.flag(kind, pipe, pipe, 2);
    record.flags = TILEKIT_TRACE_BUFFER_ID;
  };
  id(RecordKind::WaitFlag, Pipe::MTE2);
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}); // 0..100, done 110
  id(RecordKind::SetFlag, Pipe::MTE2);
  id(RecordKind::WaitFlag, Pipe::V);
  b.vector(40, {2}, {3});
  id(RecordKind::SetFlag, Pipe::V);
  b.plain(RecordKind::WorkEnd);
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 2).start, 0u);
  EXPECT_EQ(event(result, 5).start, 110u);
  EXPECT_EQ(result.sync.count[static_cast<unsigned>(SyncKind::BufferId)], 2u);
  EXPECT_EQ(result.waits[static_cast<unsigned>(WaitReason::BufferId)], 110u);
}

// A wait is charged to the waiting line with what it waited on and the
// location of the op it waited for.
TEST(SimulatorTest, WaitsNameWhatTheyWaitedFor) {
  Builder b;
  uint32_t loadLoc = b.trace.tables.internLocation("k.mlir", 3, 5);
  uint32_t expLoc = b.trace.tables.internLocation("k.mlir", 4, 5);
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}).loc = loadLoc; // done at 110
  b.vector(40, {2}, {3}).loc = expLoc;
  SimResult result = run(b.trace, config(machine()));
  ASSERT_GT(result.lines.size(), expLoc);
  const LineCost &line = result.lines[expLoc];
  EXPECT_EQ(line.busyTotal(), 20u);
  EXPECT_EQ(line.stalledTotal(), 110u);
  EXPECT_EQ(line.waits[static_cast<unsigned>(WaitReason::Data)], 110u);
  ASSERT_EQ(rankWaitedFor(line, 3).size(), 1u);
  EXPECT_EQ(rankWaitedFor(line, 3)[0].first, loadLoc);
}

// The cube core and the two vector cores have pipes of their own: an MTE2
// load into L1 (cube) and one into UB (vector 0) overlap, and so do the V
// ops of the two vector cores; on one core they queue.
TEST(SimulatorTest, CubeAndVectorCoresHaveTheirOwnPipes) {
  Builder b;
  b.dma(DmaPath::GmToL1, 6400, {1}, {2}); // cube MTE2 0..100, done 110
  b.dma(DmaPath::GmToUb, 6400, {1}, {3}); // vector 0 MTE2 0..100
  b.lane = 1;
  b.vector(4000, {}, {4}); // vector 1 V 0..1010
  b.lane = 0;
  b.vector(4000, {}, {5}); // vector 0 V 0..1010
  b.vector(40, {}, {6});   // vector 0 V again: 1010..1030
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 1).start, 0u);
  EXPECT_EQ(event(result, 2).start, 0u);
  EXPECT_EQ(event(result, 3).start, 0u);
  EXPECT_EQ(event(result, 4).start, 1010u);
  EXPECT_EQ(event(result, 1).subcore, 1u);
  EXPECT_EQ(event(result, 2).subcore, 2u);
  // Busy per core: cube MTE2 100, vector 0 MTE2 100 + V 1030, vector 1 V
  // 1010.
  const CoreStats &core = result.cores[0];
  EXPECT_EQ(core.busy[0][static_cast<unsigned>(Pipe::MTE2)], 100u);
  EXPECT_EQ(core.busy[1][static_cast<unsigned>(Pipe::V)], 1030u);
  EXPECT_EQ(core.busy[2][static_cast<unsigned>(Pipe::V)], 1010u);
}

// A push moves its tile on the producer's path; a pop completes when the
// push has arrived. With one slot, the second push waits for the first
// pop.
TEST(SimulatorTest, PushesWaitForSlotsAndPopsForPushes) {
  auto stream = [](uint32_t slots) {
    Builder b;
    // The cube pushes two 640-byte tiles to vector 0 (FIX: 10 cycles
    // each, arriving 10 latency cycles later).
    // (In trace order, as the streams merge: a push follows the pop that
    // freed its slot.)
    b.push(true, 640, 1, /*lanes=*/1, slots); // FIX 0..10, arrives 20
    b.pop(true, 640, 2, 1);                   // at 20
    b.push(true, 640, 1, 1, slots);           // record 2
    b.vector(4000, {2}, {3});                 // V 20..1030
    b.pop(true, 640, 4, 1);                   // second arrival
    b.vector(40, {4}, {5});
    return b.trace;
  };
  // Unbounded: the second push runs right after the first (FIX 10..20,
  // arriving at 30); the V op reading it waits for the pipe (1030).
  SimResult free = run(stream(0), config(machine()));
  EXPECT_EQ(event(free, 2).start, 10u);
  EXPECT_EQ(event(free, 3).start, 20u);
  EXPECT_EQ(event(free, 5).start, 1030u);
  // One slot: the second push waits for the first pop (at 20): FIX 20..30,
  // arriving at 40.
  SimResult one = run(stream(1), config(machine()));
  EXPECT_EQ(event(one, 2).start, 20u);
  EXPECT_EQ(event(one, 2).end, 40u);
  // A push whose slot no later pop frees cannot progress.
  Builder stuck;
  stuck.push(true, 640, 1, 1, 1);
  stuck.push(true, 640, 1, 1, 1);
  EXPECT_EQ(failure(stuck.trace, config(machine())),
            "record 1 (push, item 0): pushes into pipe 0 lane 0 with all 1 "
            "slots full and no later pop in the trace: no progress is "
            "possible");
  Builder orphan;
  orphan.pop(false, 640, 2, 3);
  EXPECT_EQ(failure(orphan.trace, config(machine())),
            "record 0 (pop, item 0): pops from pipe 0 lane 0, which no "
            "earlier push filled: no progress is possible");
}

// Through a GM workspace (A2/A3), the push stores the tile and the pop
// loads it: the pop is a transfer on the consumer's MTE2 after the store
// has arrived, and the slot frees when the load is done.
TEST(SimulatorTest, CrossCoreThroughGm) {
  std::string json = machine();
  json.insert(json.rfind('}'), R"(, "cross_core": {"via": "gm"})");
  Builder b;
  b.push(true, 640, 1, 1, 1); // cube FIX l0c_gm 0..10, stored at 20
  b.pop(true, 640, 2, 1);     // vector MTE2 gm_ub 20..30, done 40
  b.push(true, 640, 1, 1, 1); // waits for the slot: 40..50, at 60
  b.vector(40, {2}, {3});     // V after the load: 40..60
  SimResult result = run(b.trace, config(json));
  EXPECT_EQ(event(result, 1).start, 20u);
  EXPECT_EQ(event(result, 1).end, 40u);
  EXPECT_EQ(event(result, 1).pipe, static_cast<unsigned>(Pipe::MTE2));
  EXPECT_EQ(event(result, 2).start, 40u);
  EXPECT_EQ(event(result, 3).start, 40u);
  EXPECT_EQ(result.pathBytes[static_cast<unsigned>(DmaPath::L0CToGm)], 1280u);
  EXPECT_EQ(result.pathBytes[static_cast<unsigned>(DmaPath::GmToUb)], 640u);
  // The workspace stays in L2: GM traffic, none from HBM.
  EXPECT_EQ(result.gmBytes, 1920u);
  EXPECT_EQ(result.hbmBytes, 0u);
}

// A split pop on the cube waits for both lanes' pushes.
TEST(SimulatorTest, SplitPopWaitsForBothLanes) {
  Builder b;
  b.push(false, 640, 1, /*lanes=*/1, 2); // vector 0 MTE3 0..10, at 20
  b.lane = 1;
  b.vector(4000, {}, {7});     // vector 1 V 0..1010
  b.push(false, 640, 7, 2, 2); // vector 1 MTE3 after V: 1010..1020
  b.pop(false, 1280, 8, 3);    // cube: when both arrived (1030)
  b.dma(DmaPath::L1ToL0A, 640, {8}, {9});
  SimResult result = run(b.trace, config(machine()));
  EXPECT_EQ(event(result, 2).start, 1010u);
  EXPECT_EQ(event(result, 4).start, 1030u);
}

// Work items depend on earlier ones through GM: a read of a region an
// earlier item wrote waits for the write; disjoint regions do not.
TEST(SimulatorTest, GmDependenciesBetweenWorkItems) {
  auto twoItems = [](uint64_t readOffset) {
    Builder b;
    b.item = 0;
    b.plain(RecordKind::WorkBegin);
    b.vector(4000, {}, {10});                               // V 0..1010
    Record &store = b.dma(DmaPath::UbToGm, 640, {10}, {1}); // MTE3 ..1030
    store.shape[0] = 4;
    store.shape[1] = 16;
    store.strides[0] = 64;
    b.plain(RecordKind::WorkEnd);
    b.item = 1;
    b.plain(RecordKind::WorkBegin);
    Record &load = b.dma(DmaPath::GmToUb, 640, {1}, {20});
    load.shape[0] = 4;
    load.shape[1] = 16;
    load.strides[0] = 64;
    load.gm_offset = readOffset;
    b.plain(RecordKind::WorkEnd);
    return b.trace;
  };
  // Two cores: item 1 runs on its own core. Reading rows 0..3, columns
  // 0..15 waits for item 0's store (done at 1030).
  SimResult dependent = run(twoItems(0), config(machine(2)));
  EXPECT_EQ(event(dependent, 5).start, 1030u);
  EXPECT_EQ(dependent.gmDependencies, 1u);
  // Columns 16..31 of the same rows: disjoint, no wait.
  SimResult disjoint = run(twoItems(16), config(machine(2)));
  EXPECT_EQ(event(disjoint, 5).start, 0u);
  EXPECT_EQ(disjoint.gmDependencies, 0u);
  // Row 3, column 15 (offset 3 * 64 + 15) overlaps the last element.
  SimResult corner = run(twoItems(3 * 64 + 15), config(machine(2)));
  EXPECT_EQ(event(corner, 5).start, 1030u);
}

// Cost per source line: busy cycles of each op, and the cycles its pipe sat
// idle before it because the op waited.
TEST(SimulatorTest, CostPerSourceLine) {
  Builder b;
  uint32_t load = b.trace.tables.internLocation("k.mlir", 3, 1);
  uint32_t exp = b.trace.tables.internLocation("k.mlir", 4, 1);
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}).loc = load; // MTE2 0..110
  b.vector(256, {2}, {3}).loc = exp;                 // V 110..184
  b.vector(256, {2}, {4}).loc = exp;                 // V 184..258
  SimResult result = run(b.trace, config(machine()));
  unsigned mte2 = static_cast<unsigned>(Pipe::MTE2);
  unsigned v = static_cast<unsigned>(Pipe::V);
  // The load: busy 100 transfer + 10 latency.
  EXPECT_EQ(result.lines[load].busy[mte2], 110u);
  EXPECT_EQ(result.lines[load].stalled[mte2], 0u);
  // The exps: 74 + 74 busy; the first stalled 110 cycles for the load.
  EXPECT_EQ(result.lines[exp].busy[v], 148u);
  EXPECT_EQ(result.lines[exp].stalled[v], 110u);
  EXPECT_EQ(result.lines[exp].total(), 258u);
}

// The launch is on the timeline and in the total, but not a pipe's work:
// a kernel whose time is mostly launch is launch-bound.
TEST(SimulatorTest, LaunchBound) {
  std::string json = machine();
  json.insert(json.find("\"cores\""), "\"launch_cycles\": 500, ");
  Builder b;
  b.dma(DmaPath::GmToUb, 6400, {1}, {2}); // 110 cycles of work
  SimResult result = run(b.trace, config(json));
  EXPECT_EQ(result.cycles, 610u);
  EXPECT_EQ(result.launchCycles, 500u);
  EXPECT_EQ(classifyBound(result), "launch-bound");
  // Without the launch the same trace is bound by its load.
  EXPECT_EQ(classifyBound(run(b.trace, config(machine()))),
            "memory-bound (MTE2)");
}

TEST(MachineConfigTest, RejectsUnknownAndMissingKeys) {
  std::string json = machine();
  json.insert(json.find("\"clock_ghz\""), "\"clock_mhz\": 1, ");
  auto parsed = parseMachineConfig(json, "bad.json");
  ASSERT_FALSE(static_cast<bool>(parsed));
  EXPECT_EQ(toString(parsed.takeError()), "bad.json: unknown key 'clock_mhz'");
  auto missing = parseMachineConfig(R"({"name": "x", "clock_ghz": 1})", "m");
  ASSERT_FALSE(static_cast<bool>(missing));
  EXPECT_EQ(toString(missing.takeError()), "m: missing 'cores'");
}

TEST(MachineConfigTest, ShippedConfigsParse) {
  for (const char *name : {"ascend910b.json", "ascend950.json"}) {
    auto config =
        loadMachineConfig(std::string(TILEKIT_CONFIGS_DIR) + "/" + name);
    ASSERT_TRUE(static_cast<bool>(config)) << toString(config.takeError());
  }
  auto a2 =
      loadMachineConfig(std::string(TILEKIT_CONFIGS_DIR) + "/ascend910b.json");
  EXPECT_EQ(a2->cubeCores, 24u);
  // 16x16x16 f16 steps: 128x256x64 is 8 * 4 * 16 = 512 steps + 6.
  EXPECT_EQ(a2->cubeCycles(128, 64, 256, "f16", 2), 518u);
}

// The 910B config's vector costs against the device measurements its
// source quotes (pto-isa's A2/A3 cost model: the 910B3 fits in the CCE
// instruction comments, and formula_params.csv's points): each within the
// error the config states, at 2048 elements. (The instruction fits and the
// formula fits, both device data, differ by up to 8 %: sub f32 takes
// TSUB's cols-128 fit, 84 cycles where vsub's comment measures 91.5.)
TEST(MachineConfigTest, VectorCostsMatchTheMeasurementsTheyCite) {
  auto a2 =
      loadMachineConfig(std::string(TILEKIT_CONFIGS_DIR) + "/ascend910b.json");
  ASSERT_TRUE(static_cast<bool>(a2)) << toString(a2.takeError());
  auto near = [](double predicted, double measured, double tolerance) {
    return std::abs(predicted - measured) <= tolerance * measured;
  };
  // f32: 2048 elements are 32 repeats of 256 bytes.
  struct Measured {
    const char *op;
    double perRepeat, fixed;
  } measured[] = {{"add", 2.11, 24},  {"sub", 2.11, 24},   {"div", 4.03, 31},
                  {"exp", 2.00, 31},  {"log", 2.00, 33},   {"max", 2.01, 23},
                  {"maxs", 1.00, 23}, {"rsqrt", 1.07, 24}, {"relu", 1.00, 23}};
  for (const Measured &m : measured)
    EXPECT_TRUE(near(a2->vectorCycles(m.op, "f32", 4, 2048),
                     m.perRepeat * 32 + m.fixed, 0.10))
        << m.op << ": " << a2->vectorCycles(m.op, "f32", 4, 2048);
  // f16 takes half the repeats of f32: add's 16 repeats.
  EXPECT_EQ(a2->vectorCycles("add", "f16", 2, 2048), 10u + 2 * 16 + 14);
  EXPECT_EQ(a2->vectorCycles("add", "i32", 4, 2048), 10u + 2 * 32 + 14);
  // Row and column ops by their per-row fits (16 x 128 and 32 x 64 f32),
  // within the fits' stated errors of the device points: TROWMAX cols 128
  // is 0.0625 per element + 48, TCOLSUM cols 64 0.3047 + 15.
  EXPECT_TRUE(near(a2->vectorCycles("row_max", "f32", 4, 2048, {16, 1}),
                   0.0625 * 2048 + 48, 0.25));
  EXPECT_TRUE(near(a2->vectorCycles("col_sum", "f32", 4, 2048, {1, 64}),
                   0.3047 * 2048 + 15, 0.09));
  // More rows of the same width cost more; the same rows, the same.
  EXPECT_GT(a2->vectorCycles("row_max", "f32", 4, 2048, {32, 1}),
            a2->vectorCycles("row_max", "f32", 4, 2048, {16, 1}));
  // A composed op is the sum of its parts.
  EXPECT_EQ(a2->vectorCycles("sigmoid", "f32", 4, 2048),
            a2->vectorCycles("muls", "f32", 4, 2048) +
                a2->vectorCycles("exp", "f32", 4, 2048) +
                a2->vectorCycles("adds", "f32", 4, 2048) +
                a2->vectorCycles("duplicate", "f32", 4, 2048) +
                a2->vectorCycles("div", "f32", 4, 2048));
  // An op the table lacks: the default (256 B per cycle + 30, f32).
  EXPECT_FALSE(a2->hasVectorCost("no_such_op", "f32"));
  EXPECT_EQ(a2->vectorCycles("no_such_op", "f32", 4, 2048), 62u);
}

// A table that names an op it lacks, or composes of a composition, is an
// error naming both; every op needs a source.
TEST(MachineConfigTest, VectorTableErrorsNameTheOp) {
  // The shipped config with its table replaced.
  auto text = llvm::MemoryBuffer::getFile(std::string(TILEKIT_CONFIGS_DIR) +
                                          "/ascend910b.json");
  ASSERT_TRUE(static_cast<bool>(text));
  auto config = [&](const std::string &ops) {
    llvm::Expected<llvm::json::Value> shipped =
        llvm::json::parse((*text)->getBuffer());
    EXPECT_TRUE(static_cast<bool>(shipped));
    llvm::Expected<llvm::json::Value> table =
        llvm::json::parse("{" + ops + "}");
    EXPECT_TRUE(static_cast<bool>(table));
    (*shipped->getAsObject()->getObject("vector"))["ops"] = std::move(*table);
    return parseMachineConfig(llvm::formatv("{0}", *shipped).str(), "t.json");
  };
  auto unknown = config(R"("a": {"source": "s", "of": ["b"]})");
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(toString(unknown.takeError()),
            "t.json.vector.ops: 'a' is composed of 'b', which the table "
            "does not have");
  auto nested = config(R"("a": {"source": "s", "of": ["b"]},
                          "b": {"source": "s", "of": ["c"]},
                          "c": {"source": "s", "head": 1, "per_repeat": 1, "tail": 0})");
  ASSERT_FALSE(static_cast<bool>(nested));
  EXPECT_NE(toString(nested.takeError()).find("itself composed"),
            std::string::npos);
  auto unsourced = config(R"("a": {"head": 1, "per_repeat": 1, "tail": 0})");
  ASSERT_FALSE(static_cast<bool>(unsourced));
  EXPECT_EQ(toString(unsourced.takeError()),
            "t.json.vector.ops.a: missing string 'source'");
}

// The 910B config states its buffer sizes for readers; they must be the
// machine description's defaults (Machine.def), which passes and the
// planner use, and a config that leaves one out gets the default.
TEST(MachineConfigTest, BufferSizesAgreeWithTheMachineDescription) {
  auto a2 =
      loadMachineConfig(std::string(TILEKIT_CONFIGS_DIR) + "/ascend910b.json");
  ASSERT_TRUE(static_cast<bool>(a2)) << toString(a2.takeError());
  for (unsigned b = 0; b < machine::kNumBuffers; ++b) {
    auto buffer = static_cast<machine::Buffer>(b);
    if (buffer != machine::Buffer::GM)
      EXPECT_EQ(a2->capacity[b], uint64_t(machine::getDefaultCapacity(buffer)))
          << machine::getName(buffer).str();
  }
  // The shipped config with UB changed and L1 left out.
  auto text = llvm::MemoryBuffer::getFile(std::string(TILEKIT_CONFIGS_DIR) +
                                          "/ascend910b.json");
  ASSERT_TRUE(static_cast<bool>(text));
  std::string json = (*text)->getBuffer().str();
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"\"ub\": 196608", "\"ub\": 4096"},
        {"\"l1\": 524288,", ""}}) {
    size_t at = json.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    json.replace(at, from.size(), to);
  }
  auto partial = parseMachineConfig(json, "partial");
  ASSERT_TRUE(static_cast<bool>(partial)) << toString(partial.takeError());
  EXPECT_EQ(partial->capacity[unsigned(machine::Buffer::UB)], 4096u);
  EXPECT_EQ(partial->capacity[unsigned(machine::Buffer::L1)],
            uint64_t(machine::getDefaultCapacity(machine::Buffer::L1)));
}

} // namespace
