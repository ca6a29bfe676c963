//===- BytePoolTest.cpp - Physical layouts and aliasing -------------------===//

#include "tilekit/Interp/BytePool.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using pto::MemorySpace;
using pto::TileType;

namespace {

class BytePoolTest : public ::testing::Test {
protected:
  BytePoolTest() { context.loadDialect<pto::PTODialect>(); }
  MLIRContext context;
  Builder b{&context};
};

TEST_F(BytePoolTest, RowMajorVecTiles) {
  TileType tile = TileType::get({4, 8}, b.getF32Type(), MemorySpace::Vec, 0);
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F32, {1, 2}), (8 + 2) * 4);
  EXPECT_EQ(getPhysicalExtent(tile, ElementKind::F32), 4 * 8 * 4);
}

// L0A f16: 16x16 fractals (512 B), row-major blocks, row-major inside.
TEST_F(BytePoolTest, LeftFractals) {
  TileType tile = TileType::get({32, 32}, b.getF16Type(), MemorySpace::Left, 0);
  // (0, 16) starts the second block of the first block row.
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F16, {0, 16}), 512);
  // (16, 0) starts the second block row: after two blocks.
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F16, {16, 0}), 1024);
  // Inside a block, rows of 16 elements.
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F16, {1, 3}), (16 + 3) * 2);
}

// L1 f16 (NZ): column-major blocks, row-major inside.
TEST_F(BytePoolTest, MatIsNZ) {
  TileType tile = TileType::get({32, 32}, b.getF16Type(), MemorySpace::Mat, 0);
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F16, {16, 0}), 512);
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F16, {0, 16}), 1024);
}

// L0B f16 (ZN): column-major inside a 16x16 block.
TEST_F(BytePoolTest, RightIsColumnMajorInside) {
  TileType tile =
      TileType::get({16, 16}, b.getF16Type(), MemorySpace::Right, 0);
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F16, {3, 1}), (16 + 3) * 2);
}

// L0C f32: 1024-byte fractals of 16x16.
TEST_F(BytePoolTest, AccFractals) {
  TileType tile = TileType::get({16, 32}, b.getF32Type(), MemorySpace::Acc, 0);
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F32, {0, 16}), 1024);
  EXPECT_EQ(getPhysicalOffset(tile, ElementKind::F32, {2, 1}), (32 + 1) * 4);
}

// A ragged box pads its grid to whole fractals.
TEST_F(BytePoolTest, RaggedGridsPad) {
  TileType tile = TileType::get({20, 20}, b.getF16Type(), MemorySpace::Left, 0);
  EXPECT_EQ(getPhysicalExtent(tile, ElementKind::F16), 2 * 2 * 512);
}

TEST_F(BytePoolTest, StoreThenLoadRoundTripsThroughLayouts) {
  TileType tile = TileType::get({32, 32}, b.getF16Type(), MemorySpace::Mat, 64);
  TileValue value = makeTile(tile, ElementKind::F16);
  for (size_t i = 0; i < value.data->size(); ++i)
    value.data->set(i, static_cast<double>(i % 97));
  BytePools pools(UndefinedData::Zero);
  pools.store(value);
  TileValue back = pools.load(tile, ElementKind::F16, {32, 32}, /*writeId=*/0);
  EXPECT_EQ(back.data->floats, value.data->floats);
}

} // namespace
