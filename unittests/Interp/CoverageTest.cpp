//===- CoverageTest.cpp - Every PTO op has an executor handler ------------===//
//
// The executor runs every op of the dialect except the cross-core pipe ops,
// which need the group scheduler. A new op without a handler fails here.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Interp/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tilekit;

namespace {

TEST(CoverageTest, EveryNonCrossCoreOpRuns) {
  MLIRContext context;
  context.loadDialect<pto::PTODialect, arith::ArithDialect, func::FuncDialect,
                      scf::SCFDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  interp::Interpreter interpreter(*module);
  const llvm::StringSet<> crossCore = {
      "pto.tile.tpush_to_aiv", "pto.tile.tpush_to_aic",
      "pto.tile.tpop_from_aic", "pto.tile.tpop_from_aiv"};
  int checked = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "pto" ||
        crossCore.contains(name.getStringRef()))
      continue;
    EXPECT_TRUE(interpreter.supports(name)) << name.getStringRef().str();
    ++checked;
  }
  EXPECT_EQ(checked, 164 - 4);
  for (StringRef upstream : {"scf.for", "scf.while", "scf.if", "func.call",
                             "arith.addi", "arith.cmpf", "arith.select"})
    EXPECT_TRUE(interpreter.supports(
        *RegisteredOperationName::lookup(upstream, &context)))
        << upstream.str();
}

} // namespace
