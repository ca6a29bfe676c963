//===- InsertInitDump.cpp - Dump set-up for kernels that print ------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_INSERTINITDUMP
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit::ascendc;

/// Bytes of dump area each core gets.
static constexpr int64_t kDumpBytes = 1024 * 1024;

namespace {
struct InsertInitDumpPass
    : tilekit::ascendc::impl::InsertInitDumpBase<InsertInitDumpPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto type =
        module->getAttrOfType<StringAttr>(AscendCDialect::kKernelTypeAttrName);
    bool mixed = type && type.getValue() == "mixed";
    module.walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      bool prints = false, initialized = false;
      func.walk([&](Operation *op) {
        prints |= isa<PrintfOp, DumpTensorOp>(op);
        initialized |= isa<InitDumpOp>(op);
      });
      if (!prints || initialized)
        return;
      MLIRContext *context = func.getContext();
      auto dumpType = GlobalTensorType::get(
          context, {ShapedType::kDynamic},
          IntegerType::get(context, 8, IntegerType::Unsigned));
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(
              index, dumpType,
              DictionaryAttr::get(
                  context, {NamedAttribute(
                               StringAttr::get(
                                   context, AscendCDialect::kKernelArgAttrName),
                               StringAttr::get(context, "DumpAddr"))}),
              func.getLoc()))) {
        func.emitOpError("cannot take the dump_addr argument");
        return signalPassFailure();
      }
      OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
      // A guard must stay first: it returns before the dump is set up.
      if (isa<SubBlockGuardOp>(func.getBody().front().front()))
        builder.setInsertionPointAfter(&func.getBody().front().front());
      InitDumpOp::create(builder, func.getLoc(), func.getArgument(index), mixed,
                         kDumpBytes);
    });
  }
};
} // namespace
