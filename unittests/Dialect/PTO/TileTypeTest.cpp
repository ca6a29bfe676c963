//===- TileTypeTest.cpp - Tile type queries -------------------------------===//
//
// The byte sizes and overlaps memory planning and the interpreter's byte
// pools rely on, and the canonical layouts the printer elides.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tilekit::pto;

namespace {

class TileTypeTest : public ::testing::Test {
protected:
  TileTypeTest() { context.loadDialect<PTODialect>(); }

  TileType tile(ArrayRef<int64_t> shape, Type element, MemorySpace space,
                std::optional<int64_t> addr = std::nullopt) {
    return TileType::get(shape, element, space, addr);
  }

  MLIRContext context;
  Builder b{&context};
};

TEST_F(TileTypeTest, SizeCountsElementBytes) {
  EXPECT_EQ(tile({16, 64}, b.getF32Type(), MemorySpace::Vec).getSizeInBytes(),
            16 * 64 * 4);
  EXPECT_EQ(tile({16, 64}, b.getBF16Type(), MemorySpace::Vec).getSizeInBytes(),
            16 * 64 * 2);
  EXPECT_EQ(
      tile({2, 16, 32}, b.getI8Type(), MemorySpace::Left).getSizeInBytes(),
      2 * 16 * 32);
}

TEST_F(TileTypeTest, MaskElementsTakeAByte) {
  TileType mask = tile({16, 64}, b.getI1Type(), MemorySpace::Vec);
  EXPECT_EQ(mask.getElementStorageBits(), 8u);
  EXPECT_EQ(mask.getSizeInBytes(), 16 * 64);
}

TEST_F(TileTypeTest, OverlapNeedsSharedBytesInOneSpace) {
  // 16x16xf32 is 1024 bytes: [0, 1024) and [992, 2016) share 32 bytes.
  TileType a = tile({16, 16}, b.getF32Type(), MemorySpace::Vec, 0);
  TileType b992 = tile({16, 16}, b.getF32Type(), MemorySpace::Vec, 992);
  TileType b1024 = tile({16, 16}, b.getF32Type(), MemorySpace::Vec, 1024);
  EXPECT_TRUE(a.overlaps(b992));
  EXPECT_TRUE(b992.overlaps(a));
  // Adjacent ranges do not overlap.
  EXPECT_FALSE(a.overlaps(b1024));
  // The same address in another buffer is another byte.
  TileType mat = tile({16, 16}, b.getF16Type(), MemorySpace::Mat, 0);
  EXPECT_FALSE(a.overlaps(mat));
  // Tiles without an address never alias.
  TileType free = tile({16, 16}, b.getF32Type(), MemorySpace::Vec);
  EXPECT_FALSE(a.overlaps(free));
  EXPECT_FALSE(free.overlaps(free));
}

TEST_F(TileTypeTest, CanonicalLayoutsFollowTheBuffer) {
  TileLayout acc = TileType::getCanonicalLayout(MemorySpace::Acc);
  EXPECT_EQ(acc.blayout, BLayout::ColMajor);
  EXPECT_EQ(acc.slayout, SLayout::RowMajor);
  EXPECT_EQ(acc.fractal, 1024);
  TileLayout right = TileType::getCanonicalLayout(MemorySpace::Right);
  EXPECT_EQ(right.slayout, SLayout::ColMajor);
  TileLayout vec = TileType::getCanonicalLayout(MemorySpace::Vec);
  EXPECT_EQ(vec.slayout, SLayout::NoneBox);
}

TEST_F(TileTypeTest, MovingToAnotherSpaceTakesItsLayout) {
  TileType vec = tile({16, 16}, b.getF16Type(), MemorySpace::Mat, 64);
  TileType left = vec.withMemorySpace(MemorySpace::Left);
  EXPECT_EQ(left.getMemorySpace(), MemorySpace::Left);
  EXPECT_EQ(left.getSlayout(), SLayout::RowMajor);
  EXPECT_EQ(left.getBlayout(), BLayout::RowMajor);
  EXPECT_EQ(left.getAddr(), std::optional<int64_t>(64));
  EXPECT_EQ(left.withAddr(std::nullopt).getAddr(), std::nullopt);
  EXPECT_TRUE(left.hasSameBox(vec));
}

TEST_F(TileTypeTest, ShapedTypeInterfaceClones) {
  auto shaped = cast<ShapedType>(
      Type(tile({16, 64}, b.getF32Type(), MemorySpace::Vec, 128)));
  auto cloned = cast<TileType>(shaped.clone({8, 8}, b.getF16Type()));
  EXPECT_EQ(cloned.getShape(), ArrayRef<int64_t>({8, 8}));
  EXPECT_TRUE(cloned.getElementType().isF16());
  EXPECT_EQ(cloned.getAddr(), std::optional<int64_t>(128));
  EXPECT_EQ(shaped.getNumElements(), 1024);
}

TEST_F(TileTypeTest, CheckedConstructionReportsTheRule) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto loc = UnknownLoc::get(&context);
  TileType bad = TileType::getChecked([&] { return emitError(loc); },
                                      ArrayRef<int64_t>{16, 16}, b.getF16Type(),
                                      MemorySpace::Acc);
  EXPECT_FALSE(bad);
  EXPECT_EQ(message, "'acc' tiles accumulate in f32 or i32, not 'f16'");

  TileType misaligned = TileType::getChecked(
      [&] { return emitError(loc); }, ArrayRef<int64_t>{16, 16}, b.getF32Type(),
      MemorySpace::Vec, 16);
  EXPECT_FALSE(misaligned);
  EXPECT_EQ(message,
            "tile address must be a non-negative multiple of 32 bytes, got 16");
}

TEST_F(TileTypeTest, SplitCodes) {
  auto loc = UnknownLoc::get(&context);
  int errors = 0;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &) {
    ++errors;
    return success();
  });
  auto emit = [&] { return emitError(loc); };
  for (int64_t code = 0; code <= 4; ++code)
    EXPECT_TRUE(succeeded(verifySplitCode(emit, code, /*allowOdd=*/true)));
  for (int64_t code = 0; code <= 2; ++code)
    EXPECT_TRUE(succeeded(verifySplitCode(emit, code, /*allowOdd=*/false)));
  EXPECT_EQ(errors, 0);
  EXPECT_TRUE(failed(verifySplitCode(emit, 3, /*allowOdd=*/false)));
  EXPECT_TRUE(failed(verifySplitCode(emit, 4, /*allowOdd=*/false)));
  EXPECT_TRUE(failed(verifySplitCode(emit, 5, /*allowOdd=*/true)));
  EXPECT_TRUE(failed(verifySplitCode(emit, -1, /*allowOdd=*/true)));
  EXPECT_EQ(errors, 4);
}

} // namespace
