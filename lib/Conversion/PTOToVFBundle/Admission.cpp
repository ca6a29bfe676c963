//===- Admission.cpp - The check a helper passes before it is compiled ----===//
//
// Independent of how the helper was made: it re-derives every pointer from
// the helper's own ops and checks the barriers it finds, inserting nothing.
// A helper is admitted when
//   * it calls only the runtime's vector-register subset (no control flow,
//     no other calls: a helper has no data and no external functions);
//   * every pointer is the common UB base (the first parameter) plus a
//     constant displacement, and every access a constant, 32-byte aligned
//     element offset from such a pointer;
//   * every two accesses whose 64 lanes overlap, one of them a write, have
//     a tk_vf_barrier() between them (masks are not used to prove that
//     lanes are disjoint).
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::vf;

namespace {

/// Calls that touch no memory.
const llvm::StringSet<> &registerCalls() {
  static const llvm::StringSet<> calls = {
      "tk_vf_add",         "tk_vf_sub",         "tk_vf_mul",
      "tk_vf_div",         "tk_vf_max",         "tk_vf_min",
      "tk_vf_broadcast",   "tk_vf_cmp_eq",      "tk_vf_cmp_ne",
      "tk_vf_cmp_lt",      "tk_vf_cmp_le",      "tk_vf_cmp_gt",
      "tk_vf_cmp_ge",      "tk_vf_select",      "tk_vf_prefix_mask",
      "tk_vf_suffix_mask", "tk_vf_runtime_mask"};
  return calls;
}

/// Constant argument `index` of `call` (an integer attribute in its args).
std::optional<int64_t> constantArg(emitc::CallOpaqueOp call, unsigned index) {
  ArrayAttr args = call.getArgsAttr();
  if (!args || index >= args.size())
    return std::nullopt;
  auto value = dyn_cast<IntegerAttr>(args[index]);
  if (!value || isa<IndexType>(value.getType()))
    return std::nullopt;
  return value.getInt();
}

/// The operand argument `index` of `call` names, when it names one.
Value operandArg(emitc::CallOpaqueOp call, unsigned index) {
  ArrayAttr args = call.getArgsAttr();
  if (!args)
    return index < call.getNumOperands() ? call.getOperand(index) : Value();
  if (index >= args.size())
    return {};
  auto value = dyn_cast<IntegerAttr>(args[index]);
  if (!value || !isa<IndexType>(value.getType()) ||
      value.getInt() >= call.getNumOperands())
    return {};
  return call.getOperand(value.getInt());
}

struct Access {
  emitc::CallOpaqueOp op;
  ByteRange range;
  bool write;
  unsigned barriersBefore;
};

} // namespace

LogicalResult vf::admitHelper(emitc::FuncOp helper) {
  if (helper.getBody().empty() || !helper.getBody().hasOneBlock())
    return helper.emitOpError("is not admitted: a helper is one block of "
                              "straight-line code");
  Block &body = helper.getBody().front();
  if (body.getNumArguments() == 0 ||
      body.getArgument(0).getType() != ubPointerType(helper.getContext()))
    return helper.emitOpError("is not admitted: its first parameter must be "
                              "the common UB base (uint8_t *)");
  Value base = body.getArgument(0);
  llvm::DenseMap<Value, int64_t> pointers;
  SmallVector<Access> accesses;
  unsigned barriers = 0;
  for (Operation &op : body) {
    if (isa<emitc::ReturnOp>(op))
      continue;
    auto call = dyn_cast<emitc::CallOpaqueOp>(op);
    if (!call)
      return op.emitOpError("is not admitted in a helper: only calls of the "
                            "vector-register runtime (tilekit_vf.h)");
    StringRef callee = call.getCallee();
    if (registerCalls().contains(callee))
      continue;
    if (callee == "tk_vf_barrier") {
      ++barriers;
      continue;
    }
    if (callee == "tk_vf_tile") {
      std::optional<int64_t> displacement = constantArg(call, 1);
      if (operandArg(call, 0) != base || !displacement)
        return call.emitOpError(
            "is not admitted: its pointer is not provably the common UB base "
            "plus a constant displacement");
      pointers[call.getResult(0)] = *displacement;
      continue;
    }
    bool load = callee == "tk_vf_load";
    if (!load && callee != "tk_vf_store" && callee != "tk_vf_store_masked")
      return call.emitOpError()
             << "is not admitted: '" << callee
             << "' is not in the helper subset (vector-register ops of "
                "tilekit_vf.h; a helper calls nothing else)";
    Value pointer = operandArg(call, 0);
    auto displacement = pointers.find(pointer);
    std::optional<int64_t> offset = constantArg(call, 1);
    if (!pointer || displacement == pointers.end())
      return call.emitOpError(
          "is not admitted: it accesses memory through a pointer that is not "
          "provably the common UB base plus a constant (tk_vf_tile)");
    if (!offset || *offset % 8 != 0)
      return call.emitOpError(
          "is not admitted: its element offset is not a constant multiple of "
          "8 (32 bytes)");
    accesses.push_back(
        {call, laneRange(displacement->second, *offset), !load, barriers});
  }
  for (unsigned j = 0; j < accesses.size(); ++j)
    for (unsigned i = 0; i < j; ++i) {
      Access a = accesses[i], b = accesses[j];
      if (!(a.write || b.write) || !a.range.overlaps(b.range) ||
          a.barriersBefore != b.barriersBefore)
        continue;
      InFlightDiagnostic diag =
          b.op.emitOpError()
          << "is not admitted: it " << (b.write ? "writes" : "reads")
          << " UB bytes [" << b.range.begin << ", " << b.range.end
          << ") that an earlier " << (a.write ? "write" : "read")
          << " touches at [" << a.range.begin << ", " << a.range.end
          << ") with no barrier between them";
      diag.attachNote(a.op.getLoc()) << "the earlier access";
      return diag;
    }
  return success();
}

namespace {
struct VFAdmitPass : PassWrapper<VFAdmitPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VFAdmitPass)
  StringRef getArgument() const override { return "tilekit-vf-admit"; }
  StringRef getDescription() const override {
    return "Check every vf-bundle helper (emitc.func with tilekit.vf_helper) "
           "for admission: supported calls, pointer provenance, barrier "
           "coverage (changes nothing)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<emitc::EmitCDialect>();
  }
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](emitc::FuncOp func) {
      if (func->hasAttr(kHelperAttr))
        ok &= succeeded(admitHelper(func));
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace

void vf::registerVFAdmitPass() { PassRegistration<VFAdmitPass>(); }
