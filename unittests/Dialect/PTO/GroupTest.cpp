//===- GroupTest.cpp - Resolving group functions --------------------------===//
//
// The group scheduler asks resolveGroup which functions to run and on how
// many lanes; these tests pin the pairing and lane rules.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/PTO/IR/PTODialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tilekit::pto;

namespace {

class GroupTest : public ::testing::Test {
protected:
  GroupTest() { context.loadDialect<PTODialect, func::FuncDialect>(); }

  /// Parses `source` and resolves its function `@name`.
  std::optional<GroupInfo> resolve(StringRef source, StringRef name) {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return std::nullopt;
    return resolveGroup(module->lookupSymbol(name));
  }

  static std::string nameOf(Operation *func) {
    return cast<func::FuncOp>(func).getSymName().str();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(GroupTest, PairsByName) {
  std::optional<GroupInfo> info = resolve(R"mlir(
    func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} { return }
    func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>} { return }
    func.func @g() attributes {pto.kind = #pto.kind<group>, pto.split = 2 : i32} { return }
  )mlir",
                                          "g");
  ASSERT_TRUE(info);
  EXPECT_EQ(nameOf(info->aic), "g_aic");
  EXPECT_EQ(nameOf(info->aiv), "g_aiv");
  EXPECT_EQ(info->split, 2);
  EXPECT_EQ(info->numLanes(), 2u);
}

TEST_F(GroupTest, ExplicitPairingWinsOverNames) {
  std::optional<GroupInfo> info = resolve(R"mlir(
    func.func @cube() attributes {pto.kind = #pto.kind<aic>} { return }
    func.func @vector() attributes {pto.kind = #pto.kind<aiv>} { return }
    func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} { return }
    func.func @g() attributes {pto.kind = #pto.kind<group>, pto.aic = @cube, pto.aiv = @vector} { return }
  )mlir",
                                          "g");
  ASSERT_TRUE(info);
  EXPECT_EQ(nameOf(info->aic), "cube");
  EXPECT_EQ(nameOf(info->aiv), "vector");
}

TEST_F(GroupTest, SplitFallsBackToTheVectorFunction) {
  std::optional<GroupInfo> info = resolve(R"mlir(
    func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} { return }
    func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32} { return }
    func.func @g() attributes {pto.kind = #pto.kind<group>, pto.split = 0 : i32} { return }
  )mlir",
                                          "g");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->split, 1);
  EXPECT_EQ(info->numLanes(), 2u);
}

TEST_F(GroupTest, NoSplitRunsOneLaneUnlessDualDispatch) {
  std::optional<GroupInfo> single = resolve(R"mlir(
    func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} { return }
    func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>} { return }
    func.func @g() attributes {pto.kind = #pto.kind<group>} { return }
  )mlir",
                                            "g");
  ASSERT_TRUE(single);
  EXPECT_EQ(single->numLanes(), 1u);
  EXPECT_FALSE(single->dualAivDispatch);

  std::optional<GroupInfo> dual = resolve(R"mlir(
    func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} { return }
    func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} { return }
    func.func @g() attributes {pto.kind = #pto.kind<group>} { return }
  )mlir",
                                          "g");
  ASSERT_TRUE(dual);
  EXPECT_EQ(dual->split, 0);
  EXPECT_TRUE(dual->dualAivDispatch);
  EXPECT_EQ(dual->numLanes(), 2u);
}

TEST_F(GroupTest, OnlyGroupsResolve) {
  std::optional<GroupInfo> info = resolve(R"mlir(
    func.func @k() attributes {pto.kind = #pto.kind<incore>} { return }
  )mlir",
                                          "k");
  EXPECT_FALSE(info);
}

} // namespace
