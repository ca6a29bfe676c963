//===- KernelMutatorTest.cpp - The fuzzers' kernel mutations --------------===//

#include "KernelMutator.h"

#include "tilekit/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace tilekit::fuzz;

namespace {

const std::vector<std::string> kOpNames = {"pto.tile.add", "pto.tile.mul",
                                           "pto.tile.load", "ascendc.add"};

TEST(KernelMutatorTest, NumbersAreShapesAndConstantsNotNames) {
  std::mt19937_64 rng(1);
  const std::string original =
      "%arg0 = pto.tile.create : !pto.tile<16x32xf32, vec>";
  for (int i = 0; i < 200; ++i) {
    std::string text = original;
    ASSERT_TRUE(mutateKernelText(text, KernelMutation::Number, rng, kOpNames));
    // Only the 16 or the 32 of the shape may change.
    EXPECT_TRUE(llvm::StringRef(text).starts_with(
        "%arg0 = pto.tile.create : !pto.tile<"))
        << text;
    EXPECT_TRUE(llvm::StringRef(text).ends_with("xf32, vec>")) << text;
  }
}

TEST(KernelMutatorTest, ElementTypesInsideShapesAreFound) {
  std::mt19937_64 rng(2);
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string text = "!pto.tile<16x32xf32, vec>";
    ASSERT_TRUE(
        mutateKernelText(text, KernelMutation::ElementType, rng, kOpNames));
    ASSERT_TRUE(llvm::StringRef(text).starts_with("!pto.tile<16x32x")) << text;
    seen.insert(text);
  }
  EXPECT_GT(seen.size(), 4u);
}

TEST(KernelMutatorTest, OpNamesStayInTheirDialect) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50; ++i) {
    std::string text = "%0 = pto.tile.add %a, %b";
    ASSERT_TRUE(mutateKernelText(text, KernelMutation::OpName, rng, kOpNames));
    EXPECT_EQ(text.find("ascendc"), std::string::npos) << text;
  }
  std::string none = "%0 = arith.addi %a, %b";
  EXPECT_FALSE(mutateKernelText(none, KernelMutation::OpName, rng, kOpNames));
  EXPECT_EQ(none, "%0 = arith.addi %a, %b");
}

TEST(KernelMutatorTest, OperandsAndLinesChange) {
  std::mt19937_64 rng(4);
  std::string text = "%x = f(%a)\n%y = g(%b)\n";
  int changed = 0;
  for (int i = 0; i < 20; ++i) {
    std::string copy = text;
    ASSERT_TRUE(mutateKernelText(copy, KernelMutation::Operand, rng, {}));
    changed += copy != text;
  }
  EXPECT_GT(changed, 0);
  std::string lines = text;
  ASSERT_TRUE(mutateKernelText(lines, KernelMutation::Line, rng, {}));
  EXPECT_NE(lines, text);
}

/// The point of the mutator: a useful share of its mutants of a real kernel
/// still parse, so the fuzzer reaches the verifiers and the executor.
TEST(KernelMutatorTest, MutantsOfAnExampleStillParse) {
  mlir::DialectRegistry registry;
  tilekit::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  std::vector<std::string> opNames;
  for (mlir::RegisteredOperationName name : context.getRegisteredOperations())
    opNames.push_back(name.getStringRef().str());

  auto file = llvm::MemoryBuffer::getFile(TILEKIT_EXAMPLES_DIR "/gemm.mlir");
  ASSERT_TRUE(bool(file));
  const std::string original = (*file)->getBuffer().str();
  auto parses = [&](const std::string &text) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text),
                                 llvm::SMLoc());
    mlir::Block block;
    mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
    return succeeded(mlir::parseAsmSourceFile(sourceMgr, &block, config));
  };
  ASSERT_TRUE(parses(original));

  std::mt19937_64 rng(5);
  int parsed = 0, total = 0;
  for (unsigned kind = 0; kind < kNumKernelMutations; ++kind)
    for (int i = 0; i < 40; ++i) {
      std::string text = original;
      ASSERT_TRUE(mutateKernelText(text, static_cast<KernelMutation>(kind), rng,
                                   opNames));
      ++total;
      parsed += parses(text);
    }
  // About a third parse (87 of 240 when written); op-name swaps and line
  // edits mostly do not, shape and type changes mostly do.
  EXPECT_GT(parsed * 100, total * 25) << parsed << " of " << total;
}

} // namespace
