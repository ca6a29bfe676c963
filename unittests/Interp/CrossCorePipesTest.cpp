//===- CrossCorePipesTest.cpp - The cross-core pipes' shared rules --------===//
//
// The rules the executor and the compiled trace producers both run
// (tilekit/Machine/CrossCorePipes.h): cuts and merges on every split code
// and ragged valid extents, the queues a transfer uses, slot agreement, and
// the waiting and deadlock rules with real threads.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Machine/CrossCorePipes.h"

#include "gtest/gtest.h"

#include <thread>

using namespace tilekit::pipes;

namespace {

Extents extents(int64_t rows, int64_t cols, int64_t validRows,
                int64_t validCols) {
  Extents e;
  e.box[0] = rows;
  e.box[1] = cols;
  e.valid[0] = validRows;
  e.valid[1] = validCols;
  return e;
}

// Every cut of every non-odd code merges back to the tile it came from, for
// each valid extent along the cut (empty, ragged, full lane 0, full).
TEST(CrossCorePipesTest, CutThenMergeRestoresEveryRaggedTile) {
  for (int64_t code : {1, 2})
    for (int64_t valid = 0; valid <= 8; ++valid) {
      int axis = getSplitRule(code)->axis;
      Extents tile =
          axis == 0 ? extents(8, 5, valid, 3) : extents(5, 8, 3, valid);
      LaneCut cut;
      ASSERT_EQ(cutForLanes(tile, code, std::nullopt, cut), "");
      EXPECT_EQ(cut.at, 4);
      EXPECT_EQ(cut.lanes[0].valid[axis] + cut.lanes[1].valid[axis], valid);
      Extents merged;
      std::string error = mergeLanes(cut.lanes[0], cut.lanes[1], code, merged);
      // A cut lane 0 does not fill leaves lane 1 empty: still one rectangle.
      ASSERT_EQ(error, "") << "code " << code << " valid " << valid;
      for (int d = 0; d < 2; ++d) {
        EXPECT_EQ(merged.box[d], tile.box[d]);
        EXPECT_EQ(merged.valid[d], tile.valid[d]);
      }
    }
}

// The odd codes need lane 0 one valid cell ahead: 7 of 8 cut at 4 is 4 + 3,
// 5 of 8 is 4 + 1 (refused), and lane_stride moves the cut (5 at 3: 3 + 2).
TEST(CrossCorePipesTest, OddCodesNeedLaneZeroOneAhead) {
  LaneCut cut;
  EXPECT_EQ(cutForLanes(extents(8, 4, 7, 4), 3, std::nullopt, cut), "");
  EXPECT_EQ(cut.lanes[0].valid[0], 4);
  EXPECT_EQ(cut.lanes[1].valid[0], 3);
  EXPECT_EQ(cutForLanes(extents(8, 4, 5, 4), 3, std::nullopt, cut),
            "split code 3 (up/down odd) needs lane 0 to hold exactly one "
            "valid cell more than lane 1 along dim 0, but the valid extent 5 "
            "cut at 4 (the box half) gives lane 0 4 and lane 1 1");
  EXPECT_EQ(cutForLanes(extents(4, 8, 4, 5), 4, int64_t(3), cut), "");
  EXPECT_EQ(cut.lanes[0].box[1], 3);
  EXPECT_EQ(cut.lanes[1].box[1], 5);
  EXPECT_EQ(cut.lanes[1].valid[1], 2);
  EXPECT_NE(cutForLanes(extents(4, 8, 4, 5), 0, std::nullopt, cut), "");
}

// Merges that would not make one rectangle are refused, each with its
// reason.
TEST(CrossCorePipesTest, MergeRefusesTornAndRaggedLanes) {
  Extents merged;
  EXPECT_NE(mergeLanes(extents(2, 4, 1, 4), extents(2, 4, 2, 4), 1, merged)
                .find("lane 0 is not full (box 2)"),
            std::string::npos);
  EXPECT_NE(mergeLanes(extents(2, 4, 2, 4), extents(2, 4, 2, 3), 1, merged)
                .find("would not be a rectangle"),
            std::string::npos);
  EXPECT_NE(mergeLanes(extents(2, 4, 2, 4), extents(2, 5, 2, 4), 1, merged)
                .find("do not line up"),
            std::string::npos);
}

// One shared queue for an unsplit transfer, one per lane for a split or
// under dual dispatch; the lane masks the records carry follow.
TEST(CrossCorePipesTest, TopologyPicksTheQueues) {
  Topology single(false), dual(true);
  EXPECT_EQ(single.cubeQueues(true, 2, 0).size(), 1u);
  EXPECT_EQ(single.cubeQueues(true, 2, 0)[0].lane, -1);
  EXPECT_EQ(single.laneQueue(true, 2, 0, 1).lane, -1);
  EXPECT_EQ(single.cubeQueues(true, 2, 1).size(), 2u);
  EXPECT_EQ(single.laneQueue(false, 2, 1, 1).lane, 1);
  EXPECT_EQ(dual.cubeQueues(false, 0, 0).size(), 2u);
  EXPECT_EQ(single.laneMask(true, 0, 0), 1u);
  EXPECT_EQ(dual.laneMask(true, 0, 0), 3u);
  EXPECT_EQ(dual.laneMask(false, 0, 1), 2u);
  EXPECT_EQ(single.cubeQueues(true, 2, 1)[1].describe(),
            "to_aiv[pipe 2, split 1, lane 1]");
}

// The ends must agree on each direction they both declare; a push names the
// pushing end's count, and its bytes must fit a slot.
TEST(CrossCorePipesTest, SlotsAgreeAndBound) {
  SlotTable table;
  EXPECT_FALSE(table.declare(true, 0, 3, Slots{2, 512}));
  EXPECT_FALSE(table.declare(false, 0, 1, Slots{2, 512}));
  std::optional<bool> toAiv = table.declare(false, 0, 2, Slots{4, 512});
  ASSERT_TRUE(toAiv);
  EXPECT_FALSE(*toAiv);
  EXPECT_EQ(table.describeDisagreement(false, 0),
            "sets up pipe 0 (to_aic) with slots the other end does not agree "
            "on: the aic end declares 2 x 512 bytes, the aiv end 4 x 512");
  EXPECT_EQ(table.pushingEnd(true, 0)->count, 2);
  EXPECT_FALSE(table.pushingEnd(true, 1));
  EXPECT_EQ(checkSlotBytes(512, 0, Slots{2, 512}), "");
  EXPECT_NE(checkSlotBytes(513, 0, Slots{2, 512}), "");
}

// Five pushes through two slots: the pusher waits for free slots, the tiles
// arrive in order, and nothing is reported.
TEST(CrossCorePipesTest, PushWaitsForAFreeSlot) {
  PipeQueues<int, std::string> queues(Topology(false), /*unbounded=*/false);
  int cube = 0, lane = 0;
  queues.started(&cube, "cube");
  queues.started(&lane, "lane");
  queues.declareSlots(true, 0, 1, Slots{2, 64});
  std::vector<QueueKey> keys{QueueKey{true, 0, -1, -1}};
  std::vector<int> popped;
  std::thread consumer([&] {
    std::vector<int> part;
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(queues.pop(&lane, "pop", keys, part));
      popped.push_back(part[0]);
    }
    queues.finished(&lane);
  });
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(queues.push(&cube, "push", true, 0, keys, {i}));
  queues.finished(&cube);
  consumer.join();
  EXPECT_EQ(popped, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(queues.getReport());
}

// A pop nothing will feed, once the only other core ends, is a deadlock
// that names the waiter and the queue.
TEST(CrossCorePipesTest, PopWithNoLiveSenderIsADeadlock) {
  PipeQueues<int, std::string> queues(Topology(false), /*unbounded=*/false);
  int cube = 0, lane = 0;
  queues.started(&cube, "cube");
  queues.started(&lane, "lane 0");
  std::thread consumer([&] {
    std::vector<int> part;
    EXPECT_FALSE(
        queues.pop(&lane, "site.mlir:3", {QueueKey{true, 0, -1, -1}}, part));
    queues.finished(&lane);
  });
  queues.finished(&cube);
  consumer.join();
  std::optional<PipeQueues<int, std::string>::Report> report =
      queues.getReport();
  ASSERT_TRUE(report);
  EXPECT_EQ(report->reason, (PipeQueues<int, std::string>::kDeadlock));
  ASSERT_EQ(report->waiters.size(), 1u);
  EXPECT_EQ(report->waiters[0].who, "lane 0");
  EXPECT_EQ(report->waiters[0].site, "site.mlir:3");
  ASSERT_EQ(report->queueDepths.size(), 1u);
  EXPECT_EQ(report->queueDepths[0].first, "to_aiv[pipe 0]");
}

} // namespace
