//===- OpCoverageTest.cpp - Every op is handled by every layer ------------===//
//
// Adding an op means teaching each layer about it: the executor (a handler;
// the cross-core pipe ops run under the group scheduler), the trace (the
// pipe it occupies, PipeOpInterface), the torch emitter (a rule or an
// elementwise family it maps) and, for AscendC, the sync passes (the pipe).
// A new op that misses one fails here, naming the op and the layer.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Target/TorchEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tilekit;

namespace {

class OpCoverageTest : public ::testing::Test {
protected:
  OpCoverageTest() {
    context
        .loadDialect<pto::PTODialect, ascendc::AscendCDialect,
                     arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  }

  SmallVector<RegisteredOperationName> opsOf(StringRef dialect) {
    SmallVector<RegisteredOperationName> ops;
    for (RegisteredOperationName name : context.getRegisteredOperations())
      if (name.getDialectNamespace() == dialect)
        ops.push_back(name);
    return ops;
  }

  MLIRContext context;
};

TEST_F(OpCoverageTest, EveryPTOOpRunsIsTimedAndEmits) {
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  interp::Interpreter interpreter(*module);
  SmallVector<RegisteredOperationName> ops = opsOf("pto");
  ASSERT_GT(ops.size(), 150u);
  for (RegisteredOperationName name : ops) {
    std::string op = name.getStringRef().str();
    EXPECT_TRUE(name.hasInterface<PipeOpInterface>())
        << op << ": no pipe for the trace (PipeOpInterface)";
    // The ops of a register scope run and are emitted as part of it.
    if (name.hasTrait<mlir::OpTrait::HasParent<pto::RegScopeOp>::Impl>())
      continue;
    if (!name.hasTrait<pto::OpTrait::CrossCoreTransfer>())
      EXPECT_TRUE(interpreter.supports(name)) << op << ": no executor handler";
    EXPECT_TRUE(canEmitTorch(name)) << op << ": no torch emitter rule";
    if (name.hasTrait<pto::OpTrait::CubeOp>())
      EXPECT_TRUE(name.hasInterface<pto::MatmulOpInterface>())
          << op << ": a cube op without its operand roles";
  }
}

// Every PTO op compiles to AscendC or, where it does not, the error says
// what to write instead. A group's pipe set-up is consumed by the group
// merge, register scopes compile through --emit=vf-bundle.
TEST_F(OpCoverageTest, EveryPTOOpLowersOrSaysHow) {
  unsigned lowered = 0;
  for (RegisteredOperationName name : opsOf("pto")) {
    if (name.hasTrait<mlir::OpTrait::HasParent<pto::RegScopeOp>::Impl>() ||
        name.getTypeID() == TypeID::get<pto::RegScopeOp>() ||
        name.getTypeID() == TypeID::get<pto::AicInitializePipeOp>() ||
        name.getTypeID() == TypeID::get<pto::AivInitializePipeOp>())
      continue;
    if (isLoweredToAscendC(name)) {
      ++lowered;
      continue;
    }
    EXPECT_FALSE(ascendCInsteadOf(name).empty())
        << name.getStringRef().str()
        << ": neither lowered to AscendC nor a 'write it as' hint";
  }
  EXPECT_GT(lowered, 60u);
}

TEST_F(OpCoverageTest, EveryAscendCOpNamesItsPipe) {
  SmallVector<RegisteredOperationName> ops = opsOf("ascendc");
  ASSERT_GT(ops.size(), 50u);
  for (RegisteredOperationName name : ops)
    EXPECT_TRUE(name.hasInterface<PipeOpInterface>())
        << name.getStringRef().str() << ": no pipe for the sync passes";
}

TEST_F(OpCoverageTest, EverySimpleLevelVectorOpLowersToL0) {
  RewritePatternSet patterns(&context);
  ascendc::populateLowerToL0Patterns(patterns);
  llvm::DenseSet<OperationName> roots;
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      roots.insert(*root);
  unsigned l2 = 0;
  for (RegisteredOperationName name : opsOf("ascendc"))
    if (auto *vector = name.getInterface<ascendc::VectorL2OpInterface>();
        vector && vector->lowersToL0()) {
      ++l2;
      EXPECT_TRUE(roots.contains(name))
          << name.getStringRef().str() << ": no -ascendc-lower-to-l0 pattern";
    }
  EXPECT_GT(l2, 20u);
}

TEST_F(OpCoverageTest, UpstreamControlFlowRuns) {
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  interp::Interpreter interpreter(*module);
  for (StringRef upstream : {"scf.for", "scf.while", "scf.if", "func.call",
                             "arith.addi", "arith.cmpf", "arith.select"})
    EXPECT_TRUE(interpreter.supports(
        *RegisteredOperationName::lookup(upstream, &context)))
        << upstream.str();
}

} // namespace
