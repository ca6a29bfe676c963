//===- InlineTileCalls.cpp - Calls that pass tiles, inlined ---------------===//
//
// An Ascend C kernel's local tensors live in one function: the memory and
// synchronization passes plan and order each function's instructions on
// their own, so a tile handed to another function would get no buffer and
// no flags. Before lowering, every call that passes or returns a tile is
// replaced by the callee's body (helpers of one block, as PTO functions
// are: their control flow is scf), innermost calls first; a helper no call
// then reaches is dropped, since no kernel takes tiles.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "tilekit/Dialect/PTO/IR/PTOTraits.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilekit;

static bool passesTiles(func::CallOp call) {
  return llvm::any_of(call.getOperandTypes(), llvm::IsaPred<pto::TileType>) ||
         llvm::any_of(call.getResultTypes(), llvm::IsaPred<pto::TileType>);
}

static bool takesTiles(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  return llvm::any_of(type.getInputs(), llvm::IsaPred<pto::TileType>) ||
         llvm::any_of(type.getResults(), llvm::IsaPred<pto::TileType>);
}

LogicalResult tilekit::inlineTileCalls(ModuleOp module) {
  SymbolTable symbols(module);
  // Each round inlines the calls of the callers' own bodies; a chain of
  // helpers unfolds in as many rounds as it is deep.
  for (unsigned round = 0;; ++round) {
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (passesTiles(call))
        calls.push_back(call);
    });
    if (calls.empty())
      break;
    if (round == 64)
      return calls.front().emitOpError()
             << "passes tiles through calls nested more than 64 deep (a "
                "recursion?); an Ascend C kernel's tiles live in one function";
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal() ||
          !llvm::hasSingleElement(callee.getBody()))
        return call.emitOpError()
               << "passes tiles to '@" << call.getCallee()
               << "', whose body is not one block to inline; an Ascend C "
                  "kernel's tiles live in one function";
      WalkResult transfers = callee.walk([](Operation *op) {
        return op->hasTrait<pto::OpTrait::CrossCoreTransfer>()
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (transfers.wasInterrupted())
        return call.emitOpError()
               << "passes tiles to '@" << call.getCallee()
               << "', which pushes or pops across the cores; write the "
                  "transfers in the aic / aiv function itself";
      IRMapping mapping;
      mapping.map(callee.getArguments(), call.getOperands());
      OpBuilder builder(call);
      Block &body = callee.getBody().front();
      for (Operation &op : body.without_terminator())
        builder.clone(op, mapping);
      for (auto [result, returned] : llvm::zip_equal(
               call.getResults(), body.getTerminator()->getOperands()))
        result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
      call.erase();
    }
  }
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (takesTiles(func) && SymbolTable::symbolKnownUseEmpty(func, module))
      func.erase();
  return success();
}
