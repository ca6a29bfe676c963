//===- AscendCAttributes.cpp - The attributes passes hand on --------------===//
//
// Every `ascendc.*` attribute one pass leaves for another is declared in
// AscendCDialect.td and checked here: where it may sit and what it holds. A
// misspelled or misplaced one is a verifier error, not a silently ignored
// hint.
//
//===----------------------------------------------------------------------===//

#include "tilekit/Dialect/AscendC/IR/AscendCDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace tilekit::ascendc;

using D = AscendCDialect;

/// A string attribute with one of `values`.
static LogicalResult checkString(Operation *op, NamedAttribute attr,
                                 ArrayRef<StringRef> values) {
  auto text = dyn_cast<StringAttr>(attr.getValue());
  if (text && llvm::is_contained(values, text.getValue()))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "has " << attr.getName().getValue() << " = "
                            << attr.getValue() << "; expected ";
  llvm::interleave(
      values, diag, [&](StringRef value) { diag << "\"" << value << "\""; },
      " or ");
  return diag;
}

static LogicalResult expect(Operation *op, NamedAttribute attr, bool ok,
                            StringRef what) {
  if (ok)
    return success();
  return op->emitOpError() << "has " << attr.getName().getValue() << " = "
                           << attr.getValue() << "; expected " << what;
}

static LogicalResult requireOn(Operation *op, NamedAttribute attr, bool ok,
                               StringRef where) {
  if (ok)
    return success();
  return op->emitOpError() << "carries " << attr.getName().getValue()
                           << ", which belongs on " << where;
}

LogicalResult AscendCDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool isModule = isa<ModuleOp>(op);
  if (name == D::kKernelTypeAttrName)
    return failure(failed(requireOn(op, attr, isModule, "the module")) ||
                   failed(checkString(op, attr, {"cube", "vector", "mixed"})));
  if (name == D::kArchAttrName)
    return failure(failed(requireOn(op, attr, isModule, "the module")) ||
                   failed(checkString(op, attr, {"c220", "c310"})));
  if (name == D::kAllocStrategyAttrName)
    return failure(failed(requireOn(op, attr, isModule, "the module")) ||
                   failed(checkString(op, attr, {"static"})));
  if (name == D::kStaticAllocAttrName)
    return failure(failed(requireOn(op, attr, isModule, "the module")) ||
                   failed(expect(op, attr, isa<BoolAttr>(attr.getValue()),
                                 "true or false")));
  if (name == D::kMemoryConsumedAttrName) {
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    return failure(failed(requireOn(op, attr, isModule, "the module")) ||
                   failed(expect(op, attr,
                                 dict && llvm::all_of(dict,
                                                      [](NamedAttribute entry) {
                                                        return isa<IntegerAttr>(
                                                            entry.getValue());
                                                      }),
                                 "a dictionary of byte counts")));
  }
  if (name == D::kCrossCoreFlagIdAttrName)
    return failure(failed(requireOn(op, attr, isa<FunctionOpInterface>(op),
                                    "a function")) ||
                   failed(expect(op, attr, isa<IntegerAttr>(attr.getValue()),
                                 "an integer flag id")));
  if (name == D::kBufIdAttrName || name == D::kReuseGroupAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    return expect(op, attr, value && value.getInt() >= 0,
                  "a non-negative integer");
  }
  if (name == D::kLaneAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    return expect(op, attr,
                  value && (value.getInt() == 0 || value.getInt() == 1),
                  "a vector lane, 0 or 1");
  }
  if (name == D::kItemWorkspaceAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    return expect(op, attr, value && value.getInt() >= 0,
                  "a non-negative byte count");
  }
  if (name == D::kLaunchedByAttrName)
    return failure(
        failed(
            requireOn(op, attr, isa<FunctionOpInterface>(op), "a function")) ||
        failed(expect(op, attr, isa<FlatSymbolRefAttr>(attr.getValue()),
                      "a host function's symbol")));
  if (name == D::kLaunchArgsAttrName)
    return expect(op, attr, isa<DenseI64ArrayAttr>(attr.getValue()),
                  "an array of argument indices (array<i64: ...>)");
  if (name == D::kBufIdsAttrName)
    return expect(op, attr, isa<DenseI64ArrayAttr>(attr.getValue()),
                  "an array of buffer ids (array<i64: ...>)");
  if (name == D::kLifetimeAttrName) {
    auto span = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    return expect(op, attr,
                  span && span.size() == 2 && 0 <= span[0] &&
                      span[0] <= span[1],
                  "a span of the op order (array<i64: first, last>)");
  }
  if (name == D::kHostAttrName || name == D::kDeviceAttrName ||
      name == D::kOverlappedAttrName)
    return failure(failed(requireOn(op, attr, isa<FunctionOpInterface>(op),
                                    "a function")) ||
                   failed(expect(op, attr, isa<UnitAttr>(attr.getValue()),
                                 "a unit attribute")));
  if (name == D::kVecScopeLoopAttrName || name == D::kParallelAttrName)
    return failure(
        failed(requireOn(op, attr, isa<LoopLikeOpInterface>(op), "a loop")) ||
        failed(expect(op, attr, isa<UnitAttr>(attr.getValue()),
                      "a unit attribute")));
  return op->emitOpError()
         << "has unknown AscendC attribute '" << name
         << "' (expected ascendc.kernel_type, arch, static_alloc, "
            "alloc_strategy, memory_consumed, cross_core_flag_id, host, "
            "device, overlapped, launch_args, launched_by, item_workspace, "
            "buf_id, buf_ids, lane, reuse_group, lifetime, vec_scope_loop or "
            "parallel)";
}

LogicalResult AscendCDialect::verifyRegionArgAttribute(Operation *op,
                                                       unsigned region,
                                                       unsigned argument,
                                                       NamedAttribute attr) {
  if (attr.getName().getValue() == D::kKernelArgAttrName)
    return checkString(op, attr, {"DumpAddr"});
  return op->emitOpError() << "argument #" << argument
                           << " has unknown AscendC attribute '"
                           << attr.getName().getValue()
                           << "' (expected ascendc.kernel_arg)";
}

/// The unrolling attributes of the tile front end.
LogicalResult AsctileDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  using A = AsctileDialect;
  StringRef name = attr.getName().getValue();
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (name == A::kUnrollFactorAttrName)
    return expect(op, attr, value && value.getInt() > 0,
                  "a positive integer (the unroll factor)");
  if (name == A::kUnrollIterAttrName) {
    if (failed(expect(op, attr, value && value.getInt() >= 0,
                      "a non-negative integer (the iteration)")))
      return failure();
    auto factor = op->getAttrOfType<IntegerAttr>(A::kUnrollFactorAttrName);
    if (factor && value.getInt() > factor.getInt())
      return op->emitOpError() << "is unrolled iteration " << value.getInt()
                               << ", outside 0.." << factor.getInt() << " ("
                               << factor.getInt() << " is the epilogue)";
    return success();
  }
  return op->emitOpError() << "has the unknown attribute " << name
                           << " (asctile declares " << A::kUnrollFactorAttrName
                           << " and " << A::kUnrollIterAttrName << ")";
}
