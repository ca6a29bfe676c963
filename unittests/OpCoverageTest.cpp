//===- OpCoverageTest.cpp - Every op is handled by every layer ------------===//
//
// Adding an op means teaching each layer about it: the executor (a handler;
// the cross-core pipe ops run under the group scheduler), the trace (the
// pipe it occupies, PipeOpInterface), the torch emitter (a rule or an
// elementwise family it maps), the compiled path (a lowering to AscendC or
// a hint, a C++ form, a trace-producer rule), for AscendC, the sync
// passes (the pipe), and for a vector op the timing model (a sourced cost
// in every machine config). A new op that misses one fails here, naming
// the op and the layer.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Conversion/AscendCToEmitC.h"
#include "tilekit/Conversion/AscendCToTraceProducer.h"
#include "tilekit/Conversion/PTOToAscendC.h"
#include "tilekit/Conversion/PTOToTraceProducer.h"
#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"
#include "tilekit/Dialect/AscendC/Transforms/InstructionRecords.h"
#include "tilekit/Dialect/AscendC/Transforms/Passes.h"
#include "tilekit/Dialect/PTO/IR/PTOOps.h"
#include "tilekit/Interp/Interpreter.h"
#include "tilekit/Target/TorchEmitter.h"
#include "tilekit/Timing/MachineConfig.h"

#include "mlir/AsmParser/AsmParser.h"
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

  /// A detached instance of `name` with `results` results of `type` (none
  /// by default), for the predicates that take an op.
  OwningOpRef<Operation *> instanceOf(RegisteredOperationName name,
                                      unsigned results = 0,
                                      Type type = Type()) {
    SmallVector<Type> types(results, type ? type : NoneType::get(&context));
    return Operation::create(UnknownLoc::get(&context), name, types,
                             ValueRange(), NamedAttrList(), nullptr,
                             BlockRange(), /*numRegions=*/0);
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

// What the lowering produces, the C++ emission and the compiled trace
// producer take: every AscendC op has a C++ form and a producer rule.
// Placeholders that ascendc-dispatch-alloc plans into local_tensor before
// either runs, and launches, which the host translation (Host.cpp) and the
// producer's structure take, are not asked; nor is a GM read on the host,
// which keeps its host a loop of launches that has no host code.
TEST_F(OpCoverageTest, EveryAscendCOpEmitsAndIsTraced) {
  for (RegisteredOperationName name : opsOf("ascendc")) {
    std::string op = name.getStringRef().str();
    if (name.getTypeID() == TypeID::get<ascendc::LocalTensorAutoOp>() ||
        name.getTypeID() == TypeID::get<ascendc::TBufGetTensorOp>())
      continue;
    if (name.getTypeID() != TypeID::get<ascendc::LaunchOp>() &&
        name.getTypeID() != TypeID::get<ascendc::GlobalReadOp>())
      EXPECT_TRUE(hasCppForm(name)) << op << ": no C++ form (AscendCToEmitC)";
    OwningOpRef<Operation *> instance = instanceOf(name);
    EXPECT_TRUE(hasAscendCTraceRule(instance.get()))
        << op << ": no rule in the AscendC trace producer";
  }
}

// The PTO trace producer (sim --producer=compiled on a PTO kernel) has a
// rule for every op the executor runs, but the ones it replaces itself: a
// scalar read of tile data (dropped: a producer has no data), the ops of a
// register scope, and the orchestration's compute on whole tensors: what
// pto-outline-tensor-compute takes reaches the producer as the kernels it
// writes, the rest does not compile either (timed by --producer=interp).
TEST_F(OpCoverageTest, EveryPTOOpIsTraced) {
  Type tile = parseType("!pto.tile<16x16xf32, vec>", &context);
  ASSERT_TRUE(tile);
  for (RegisteredOperationName name : opsOf("pto")) {
    if (name.hasTrait<mlir::OpTrait::HasParent<pto::RegScopeOp>::Impl>() ||
        name.getTypeID() == TypeID::get<pto::RegScopeOp>() ||
        name.getTypeID() == TypeID::get<pto::TileReadOp>() ||
        name.getTypeID() == TypeID::get<pto::TensorReadOp>())
      continue;
    if (name.getStringRef().starts_with("pto.tensor.") &&
        !isLoweredToAscendC(name))
      continue;
    // A rule may ask for its op's number of results, which ODS fixes, and
    // for a tile result.
    bool traced = llvm::any_of(llvm::seq(0u, 3u), [&](unsigned results) {
      OwningOpRef<Operation *> instance = instanceOf(name, results, tile);
      return hasPTOTraceRule(instance.get());
    });
    EXPECT_TRUE(traced) << name.getStringRef().str()
                        << ": no rule in the PTO trace producer";
  }
}

// Every op a vector record names (a PTO tile op on V by its name without
// "tile.", an AscendC vector instruction by getRecordOpName) has a cost in
// both machine configs for every element type, each figure with its
// source: none is timed on the config's default.
TEST_F(OpCoverageTest, EveryVectorOpHasASourcedCost) {
  std::vector<std::pair<std::string, std::string>> named;
  for (StringRef dialect : {"pto", "ascendc"})
    for (RegisteredOperationName name : opsOf(dialect)) {
      if (!name.hasTrait<tilekit::OpTrait::OnPipe<machine::Pipe::V>::Impl>() ||
          name.hasTrait<mlir::OpTrait::HasParent<pto::RegScopeOp>::Impl>())
        continue;
      StringRef record = name.stripDialect();
      if (dialect == "pto") {
        record.consume_front("tile.");
        named.emplace_back(record.str(), name.getStringRef().str());
        continue;
      }
      // An op along an axis is recorded by its axis: each is named.
      OwningOpRef<Operation *> instance = instanceOf(name);
      bool alongAxis = llvm::is_contained(name.getAttributeNames(),
                                          StringAttr::get(&context, "axis"));
      SmallVector<int64_t, 2> axes = alongAxis ? SmallVector<int64_t, 2>{0, 1}
                                               : SmallVector<int64_t, 2>{-1};
      for (int64_t axis : axes) {
        if (axis >= 0)
          instance.get()->setAttr(
              "axis", IntegerAttr::get(IntegerType::get(&context, 64), axis));
        named.emplace_back(ascendc::getRecordOpName(instance.get()).str(),
                           name.getStringRef().str());
      }
    }
  ASSERT_GT(named.size(), 80u);
  for (const char *file : {"ascend910b.json", "ascend950.json"}) {
    auto config = timing::loadMachineConfig(std::string(TILEKIT_CONFIGS_DIR) +
                                            "/" + file);
    ASSERT_TRUE(static_cast<bool>(config)) << toString(config.takeError());
    for (const auto &[record, op] : named)
      for (StringRef dtype : {"f16", "f32", "bf16", "i32", "i16", "i8"})
        EXPECT_TRUE(config->hasVectorCost(record, dtype))
            << file << ": " << op << " (recorded as '" << record
            << "') has no cost for " << dtype.str();
    for (const auto &[name, cost] : config->vectorOps)
      EXPECT_FALSE(cost.source.empty()) << file << ": " << name.str();
  }
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
