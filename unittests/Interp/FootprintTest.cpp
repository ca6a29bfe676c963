//===- FootprintTest.cpp - GM footprints and their conflicts -------------===//

#include "Footprint.h"

#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

namespace {

GMAccess box(const TensorStorage *storage, SmallVector<int64_t, 4> shape,
             SmallVector<int64_t, 4> lower, SmallVector<int64_t, 4> upper,
             bool writes) {
  return {storage, shape, lower, upper, writes};
}

TEST(FootprintTest, ConflictsNeedAWriteToOverlappingElements) {
  TensorStorage y(ElementKind::F32, 64), z(ElementKind::F32, 64);
  GMAccess rows01 = box(&y, {8, 8}, {0, 0}, {2, 8}, true);
  GMAccess rows23 = box(&y, {8, 8}, {2, 0}, {4, 8}, true);
  GMAccess rows12 = box(&y, {8, 8}, {1, 0}, {3, 8}, false);
  GMAccess rightHalf = box(&y, {8, 8}, {0, 4}, {8, 8}, true);
  GMAccess leftHalf = box(&y, {8, 8}, {0, 0}, {8, 4}, false);
  EXPECT_FALSE(conflict(rows01, rows23));
  EXPECT_TRUE(conflict(rows01, rows12));
  EXPECT_TRUE(conflict(rows12, rows23));
  EXPECT_FALSE(conflict(rightHalf, leftHalf)); // columns apart
  GMAccess read01 = rows01;
  read01.writes = false;
  EXPECT_FALSE(conflict(read01, rows12)); // two reads
  EXPECT_FALSE(conflict(rows01, box(&z, {8, 8}, {0, 0}, {2, 8}, true)));
  EXPECT_FALSE(conflict(rows01, box(&y, {8, 8}, {1, 0}, {1, 8}, true)))
      << "an empty box touches nothing";
  // Through a 4x16 view: row 1 of the view is rows 2 and 3 of the 8x8 shape.
  GMAccess viewRow1 = box(&y, {4, 16}, {1, 0}, {2, 16}, true);
  EXPECT_TRUE(conflict(viewRow1, rows23));
  EXPECT_FALSE(conflict(viewRow1, rows01));
  // A column band of the view spans rows 0..7 of the 8x8 shape: its hull
  // meets every row (conservative).
  GMAccess viewColumn = box(&y, {4, 16}, {0, 0}, {4, 1}, false);
  EXPECT_TRUE(conflict(viewColumn, rows23));
}

constexpr const char *kKernel = R"mlir(
  func.func @tile(%x: !pto.tensor<64x8xf32>, %y: !pto.tensor<64x8xf32>,
                  %row: index) -> !pto.tensor<64x8xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %acc0 = pto.tile.create : !pto.tile<4x8xf32, vec>
    %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%a = %acc0)
        -> (!pto.tile<4x8xf32, vec>) {
      %t = pto.tile.load %x[%k, %c0] : !pto.tensor<64x8xf32> -> !pto.tile<4x8xf32, vec>
      %s = pto.tile.add %a, %t : !pto.tile<4x8xf32, vec>
      scf.yield %s : !pto.tile<4x8xf32, vec>
    }
    %last = arith.addi %row, %c16 : index
    %o = pto.tile.store %acc, %y[%last, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<64x8xf32>
    return %o : !pto.tensor<64x8xf32>
  }
  func.func @from_data(%x: !pto.tensor<64x8xf32>, %i: !pto.tensor<1x8xi32>)
      -> !pto.tensor<64x8xf32> attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %it = pto.tile.load %i[%c0, %c0] : !pto.tensor<1x8xi32> -> !pto.tile<1x8xi32, vec>
    %k = pto.tile.read %it[%c0, %c0] : !pto.tile<1x8xi32, vec>
    %row = arith.index_cast %k : i32 to index
    %t = pto.tile.load %x[%row, %c0] : !pto.tensor<64x8xf32> -> !pto.tile<4x8xf32, vec>
    %o = pto.tile.store %t, %x[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<64x8xf32>
    return %o : !pto.tensor<64x8xf32>
  }
  func.func @data_result(%x: !pto.tensor<64x8xf32>) -> f32
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<64x8xf32> -> !pto.tile<4x8xf32, vec>
    %v = pto.tile.read %t[%c0, %c0] : !pto.tile<4x8xf32, vec>
    return %v : f32
  }
)mlir";

class FootprintEvaluation : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<pto::PTODialect, arith::ArithDialect, func::FuncDialect,
                        scf::SCFDialect>();
    module = parseSourceString<ModuleOp>(kKernel, &context);
    ASSERT_TRUE(module);
    interpreter = std::make_unique<Interpreter>(*module);
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<Interpreter> interpreter;
  TensorValue x = makeTensor(ElementKind::F32, {64, 8});
  TensorValue y = makeTensor(ElementKind::F32, {64, 8});
};

TEST_F(FootprintEvaluation, FollowsLoopsAndIndexArithmetic) {
  std::optional<CallFootprint> footprint =
      evaluateFootprint(*interpreter, interpreter->lookupFunction("tile"),
                        {x, y, Scalar::ofInt(ElementKind::Index, 40)}, {});
  ASSERT_TRUE(footprint);
  ASSERT_EQ(footprint->accesses.size(), 5u);
  for (int i = 0; i < 4; ++i) {
    const GMAccess &load = footprint->accesses[i];
    EXPECT_EQ(load.storage, x.storage.get());
    EXPECT_FALSE(load.writes);
    EXPECT_EQ(load.lower, (SmallVector<int64_t, 4>{16 * i, 0}));
    EXPECT_EQ(load.upper, (SmallVector<int64_t, 4>{16 * i + 4, 8}));
  }
  const GMAccess &store = footprint->accesses[4];
  EXPECT_TRUE(store.writes);
  EXPECT_EQ(store.storage, y.storage.get());
  EXPECT_EQ(store.lower, (SmallVector<int64_t, 4>{56, 0}));
  EXPECT_EQ(store.upper, (SmallVector<int64_t, 4>{60, 8}));
  ASSERT_EQ(footprint->results.size(), 1u);
  EXPECT_EQ(std::get<TensorValue>(footprint->results[0]).storage, y.storage);
}

TEST_F(FootprintEvaluation, UnknownWhenPositionsOrResultsComeFromData) {
  TensorValue index = makeTensor(ElementKind::I32, {1, 8});
  EXPECT_FALSE(evaluateFootprint(
      *interpreter, interpreter->lookupFunction("from_data"), {x, index}, {}));
  EXPECT_FALSE(evaluateFootprint(
      *interpreter, interpreter->lookupFunction("data_result"), {x}, {}));
}

} // namespace

namespace {

TEST(FootprintTest, AddedBoxesMergeOnlyIntoBoxes) {
  TensorStorage y(ElementKind::F32, 64);
  SmallVector<GMAccess> boxes;
  addAccess(boxes, box(&y, {8, 8}, {0, 0}, {2, 8}, true));
  addAccess(boxes, box(&y, {8, 8}, {2, 0}, {4, 8}, true)); // touches below
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].lower, (SmallVector<int64_t, 4>{0, 0}));
  EXPECT_EQ(boxes[0].upper, (SmallVector<int64_t, 4>{4, 8}));
  addAccess(boxes, box(&y, {8, 8}, {4, 0}, {6, 4}, true));  // narrower
  addAccess(boxes, box(&y, {8, 8}, {0, 0}, {4, 8}, false)); // a read
  addAccess(boxes, box(&y, {8, 8}, {6, 0}, {8, 8}, true));  // a gap above
  EXPECT_EQ(boxes.size(), 4u);
  // Merged boxes cover what was added and nothing else.
  EXPECT_FALSE(conflict(boxes[0], box(&y, {8, 8}, {4, 4}, {6, 8}, false)));
  EXPECT_TRUE(conflict(boxes[1], box(&y, {8, 8}, {5, 0}, {6, 1}, false)));
}

} // namespace
