//===- SetTargetArch.cpp - One architecture per pipeline run --------------===//

#include "tilekit/Dialect/AscendC/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilekit::ascendc {
#define GEN_PASS_DEF_SETTARGETARCH
#include "tilekit/Dialect/AscendC/Transforms/Passes.h.inc"
} // namespace tilekit::ascendc

using namespace mlir;
using namespace tilekit;
using namespace tilekit::ascendc;

/// Whether `arch`'s AI core has `path`. Machine.def lists the union of
/// both machines' paths; each lacks some of the other's. A2/A3 (C220) has
/// no direct path between its cores (L0C -> UB, UB -> L1, L1 -> UB); 950
/// (C310) has no L1 -> GM copy (asc_copy_l12gm is A2/A3 only).
static bool hasPath(StringRef arch, machine::DataPath path) {
  using machine::DataPath;
  if (arch == "c220")
    return path != DataPath::L0CToUb && path != DataPath::UbToL1 &&
           path != DataPath::L1ToUb;
  return path != DataPath::L1ToGm;
}

/// Every transfer of `module` takes a path `arch` has.
static LogicalResult checkPaths(ModuleOp module, StringRef arch) {
  WalkResult result = module.walk([&](PipeOpInterface op) {
    std::optional<machine::DataPath> path = op.getDataPath();
    if (!path || hasPath(arch, *path))
      return WalkResult::advance();
    op->emitOpError() << "moves data "
                      << getBufferName(machine::getSource(*path)) << " -> "
                      << getBufferName(machine::getDestination(*path))
                      << ", a path the " << arch << " AI core does not have";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Local tensors live in one function: the memory passes give each
/// function's own their buffers (and, on C310, buffer ids) and the sync
/// passes order them within it, following none across a call. So every
/// function that takes or returns one, and every call that passes one, is
/// an error (tilekit inlines the PTO helpers that take tiles before it
/// lowers them).
static LogicalResult checkLocalTensorsStayHome(ModuleOp module) {
  auto isLocal = llvm::IsaPred<LocalTensorType>;
  bool ok = true;
  module.walk(
      [&](Operation *op) {
        if (auto func = dyn_cast<FunctionOpInterface>(op)) {
          if (llvm::any_of(func.getArgumentTypes(), isLocal) ||
              llvm::any_of(func.getResultTypes(), isLocal)) {
            ok = false;
            op->emitOpError()
                << "takes or returns a local tensor, which the AscendC passes "
                   "do not follow into or out of a function (each function's "
                   "local tensors get their buffers and synchronization in "
                   "it); inline the function into its caller";
          }
        } else if (isa<CallOpInterface>(op) &&
                   (llvm::any_of(op->getOperandTypes(), isLocal) ||
                    llvm::any_of(op->getResultTypes(), isLocal))) {
          ok = false;
          op->emitOpError()
              << "passes a local tensor across a call, which the "
                 "AscendC passes do not follow; inline the callee";
        }
      });
  return success(ok);
}

namespace {
struct SetTargetArchPass
    : tilekit::ascendc::impl::SetTargetArchBase<SetTargetArchPass> {
  using SetTargetArchBase::SetTargetArchBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (arch != "c220" && arch != "c310") {
      module.emitError() << "ascendc-set-target-arch: unknown architecture '"
                         << arch << "' (expected c220 or c310)";
      return signalPassFailure();
    }
    auto marked =
        module->getAttrOfType<StringAttr>(AscendCDialect::kArchAttrName);
    if (failed(checkPaths(module, arch)) ||
        failed(checkLocalTensorsStayHome(module)))
      return signalPassFailure();
    if (!marked) {
      module->setAttr(AscendCDialect::kArchAttrName,
                      StringAttr::get(module.getContext(), arch));
      return;
    }
    if (marked.getValue() != arch) {
      module.emitError() << "is marked " << AscendCDialect::kArchAttrName
                         << " = \"" << marked.getValue()
                         << "\" but the pipeline targets " << arch
                         << "; run the ascendc-" << marked.getValue()
                         << "-pipeline, or change the mark";
      return signalPassFailure();
    }
    markAllAnalysesPreserved(); // unchanged: no verification again
  }
};
} // namespace
