//===- GroupLaunchTest.cpp - Group launches through the C++ API -----------===//
//
// After a group fails (here: a deadlock), the next launch in the same
// process starts clean: fresh queues, no leftover cancellation.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Interp/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;

namespace {

constexpr const char *kProgram = R"mlir(
  func.func @g_aic(%deadlock: i1) attributes {pto.kind = #pto.kind<aic>} {
    scf.if %deadlock {
    } else {
      %t = pto.tile.create : !pto.tile<2x4xf32, mat>
      pto.tile.tpush_to_aiv %t split 0 : !pto.tile<2x4xf32, mat>
    }
    return
  }
  func.func @g_aiv(%deadlock: i1) -> index attributes {pto.kind = #pto.kind<aiv>} {
    %t = pto.tile.tpop_from_aic split 0 : !pto.tile<2x4xf32, vec>
    %lane = pto.tile.get_subblock_idx
    return %lane : index
  }
  func.func private @g(i1) -> index attributes {pto.kind = #pto.kind<group>}
  func.func @main(%deadlock: i1) -> index attributes {pto.kind = #pto.kind<orchestration>} {
    %r = call @g(%deadlock) : (i1) -> index
    return %r : index
  }
)mlir";

TEST(GroupLaunchTest, NextLaunchStartsClean) {
  MLIRContext context;
  context.loadDialect<pto::PTODialect, arith::ArithDialect, func::FuncDialect,
                      scf::SCFDialect>();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  std::vector<std::string> errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    errors.push_back(diag.str());
    return success();
  });
  Interpreter interpreter(*module);
  FunctionOpInterface main = interpreter.lookupFunction("main");

  auto stuck = interpreter.call(main, {Scalar::ofInt(ElementKind::I1, 1)});
  EXPECT_TRUE(failed(stuck));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().find("deadlock"), std::string::npos)
      << errors.front();

  errors.clear();
  auto fine = interpreter.call(main, {Scalar::ofInt(ElementKind::I1, 0)});
  ASSERT_TRUE(succeeded(fine));
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(fine->size(), 1u);
  // The group returned vector lane 0's subblock index.
  EXPECT_EQ(std::get<Scalar>((*fine)[0]).i, 0);
}

} // namespace
