//===- TestPlantBug.cpp - A pass that breaks kernels, for tests -----------===//
//
// `test-ascendc-plant-bug` exists so that tests can check that
// `tilekit compile --verify-each` names the pass that breaks a kernel:
// kind=value adds 1 to the scalar of the first vector op with one (adds,
// muls, maxs, mins), kind=race erases the first wait_flag, kind=undefined
// erases the first duplicate (a tensor's fill: zeros in a fresh buffer
// match until undefined data is tracked). Never part of a pipeline.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace tilekit::ascendc;

namespace {
struct TestPlantBugPass
    : PassWrapper<TestPlantBugPass, InterfacePass<FunctionOpInterface>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPlantBugPass)

  TestPlantBugPass() = default;
  TestPlantBugPass(const TestPlantBugPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-ascendc-plant-bug"; }
  StringRef getDescription() const final {
    return "Test only: breaks the kernel (kind=value: the first vector "
           "scalar + 1; kind=race: the first wait_flag erased; "
           "kind=undefined: the first duplicate erased)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect>();
  }

  void runOnOperation() override {
    Operation *victim = nullptr;
    getOperation().walk([&](Operation *op) {
      if (victim)
        return;
      if (kind == "race" ? isa<WaitFlagOp>(op)
          : kind == "undefined"
              ? isa<DuplicateL2Op, DuplicateL0Op>(op)
              : isa<AddsL2Op, MulsL2Op, MaxsL2Op, MinsL2Op, AddsL0Op, MulsL0Op,
                    MaxsL0Op, MinsL0Op>(op))
        victim = op;
    });
    if (!victim)
      return;
    if (kind != "value") {
      victim->erase();
      return;
    }
    OpOperand &scalar = victim->getOpOperand(2);
    auto type = dyn_cast<FloatType>(scalar.get().getType());
    if (!type)
      return;
    OpBuilder builder(victim);
    Value one = arith::ConstantOp::create(builder, victim->getLoc(),
                                          builder.getFloatAttr(type, 1.0));
    scalar.set(
        arith::AddFOp::create(builder, victim->getLoc(), scalar.get(), one));
  }

  Option<std::string> kind{*this, "kind",
                           llvm::cl::desc("value, race or undefined"),
                           llvm::cl::init("value")};
};
} // namespace

void tilekit::ascendc::registerAscendCTestPasses() {
  PassRegistration<TestPlantBugPass>();
}
