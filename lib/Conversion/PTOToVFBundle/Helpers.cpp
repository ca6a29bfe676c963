//===- Helpers.cpp - A register scope outlined into a helper --------------===//
//
// Each pto.reg_scope becomes an emitc.func `<kernel>_vf<N>(uint8_t *ub,
// scalars...)`: every captured tile a pointer `tk_vf_tile(ub, D)` with D
// its planned address, so that captures which overlap in UB still overlap
// in the helper; every vector-register op a call of runtime/vf/tilekit_vf.h.
// Between two accesses whose 64 lanes overlap and of which one writes, the
// helper gets a `tk_vf_barrier()` (masks do not count: a masked store is
// treated as writing all its lanes).
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;
using namespace tilekit::vf;

StringRef vf::stringifyEffect(Effect effect) {
  switch (effect) {
  case Effect::None:
    return "none";
  case Effect::Read:
    return "read";
  case Effect::ReadWrite:
    return "readwrite";
  }
  llvm_unreachable("unknown effect");
}

Type vf::registerType(MLIRContext *context) {
  return emitc::OpaqueType::get(context, "tk_vreg");
}
Type vf::maskType(MLIRContext *context) {
  return IntegerType::get(context, 64, IntegerType::Unsigned);
}
Type vf::ubPointerType(MLIRContext *context) {
  return emitc::PointerType::get(
      IntegerType::get(context, 8, IntegerType::Unsigned));
}
Type vf::scalarType(Type type) {
  if (type.isF32())
    return type;
  return IntegerType::get(type.getContext(), 64);
}

Value vf::callRuntime(OpBuilder &builder, Location loc, StringRef callee,
                      Type result, ValueRange operands,
                      ArrayRef<Attribute> args) {
  auto op = emitc::CallOpaqueOp::create(
      builder, loc, result ? TypeRange(result) : TypeRange(), callee, operands,
      args.empty() ? ArrayAttr() : builder.getArrayAttr(args));
  return result ? op.getResult(0) : Value();
}

ByteRange vf::laneRange(int64_t displacement, int64_t offset) {
  int64_t begin = displacement + offset * 4;
  return {begin, begin + kVectorLanes * 4};
}

namespace {

/// Accesses since the last barrier, for barrier insertion.
struct PendingAccess {
  ByteRange range;
  bool write;
};

class HelperBuilder {
public:
  HelperBuilder(RegScopeOp scope, OpBuilder &builder, const Twine &symbol,
                bool insertBarriers)
      : scope(scope), builder(builder), context(builder.getContext()),
        symbol(symbol.str()), insertBarriers(insertBarriers) {}

  FailureOr<emitc::FuncOp> build(Helper &helper);

private:
  Value call(Location loc, StringRef callee, Type result, ValueRange operands,
             ArrayRef<Attribute> args = {}) {
    return callRuntime(builder, loc, callee, result, operands, args);
  }
  Attribute operand(unsigned index) { return builder.getIndexAttr(index); }
  Attribute constant(int64_t value) { return builder.getI64IntegerAttr(value); }
  /// Inserts a barrier before an access to `range` when an access since
  /// the last one conflicts with it.
  void order(Location loc, ByteRange range, bool write) {
    bool conflict = llvm::any_of(pending, [&](const PendingAccess &earlier) {
      return (earlier.write || write) && earlier.range.overlaps(range);
    });
    if (conflict && insertBarriers) {
      call(loc, "tk_vf_barrier", Type(), {});
      ++barriers;
      pending.clear();
    }
    pending.push_back({range, write});
  }

  RegScopeOp scope;
  OpBuilder &builder;
  MLIRContext *context;
  std::string symbol;
  bool insertBarriers;
  llvm::DenseMap<Value, Value> values;
  llvm::DenseMap<Value, int64_t> displacements;
  SmallVector<PendingAccess> pending;
  unsigned barriers = 0;
};

} // namespace

FailureOr<emitc::FuncOp> HelperBuilder::build(Helper &helper) {
  Block &body = scope.getBody().front();
  Location loc = scope.getLoc();
  // The signature: the common UB base, then each scalar capture.
  SmallVector<Type> parameters{ubPointerType(context)};
  helper.symbol = symbol;
  helper.parameterTypes.push_back("uint8_t *");
  for (auto [index, capture] : llvm::enumerate(scope.getCaptures())) {
    Capture entry;
    entry.index = index;
    llvm::raw_string_ostream(entry.type) << capture.getType();
    BlockArgument arg = body.getArgument(index);
    if (auto tile = dyn_cast<TileType>(capture.getType())) {
      entry.effect = scope.isStoredInto(arg) ? Effect::ReadWrite : Effect::Read;
      entry.displacement = *tile.getAddr();
      entry.bytes = tile.getNumElements() * 4;
    } else {
      entry.effect = Effect::None;
      entry.parameter = parameters.size();
      parameters.push_back(scalarType(capture.getType()));
      helper.parameterTypes.push_back(capture.getType().isF32() ? "float"
                                                                : "int64_t");
    }
    helper.captures.push_back(std::move(entry));
  }
  auto func = emitc::FuncOp::create(builder, loc, symbol,
                                    builder.getFunctionType(parameters, {}));
  func.setSpecifiersAttr(builder.getStrArrayAttr({"extern \"C\""}));
  func->setAttr(kHelperAttr, builder.getUnitAttr());
  Block *entry = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  Value ub = entry->getArgument(0);
  for (const Capture &capture : helper.captures) {
    BlockArgument arg = body.getArgument(capture.index);
    if (capture.parameter >= 0) {
      values[arg] = entry->getArgument(capture.parameter);
      continue;
    }
    values[arg] = call(arg.getLoc(), "tk_vf_tile",
                       emitc::PointerType::get(builder.getF32Type()), ub,
                       {operand(0), constant(capture.displacement)});
    displacements[arg] = capture.displacement;
  }
  Type vreg = registerType(context), mask = maskType(context);
  auto binary = [&](Operation *op, StringRef callee) {
    values[op->getResult(0)] =
        call(op->getLoc(), callee, vreg,
             {values[op->getOperand(0)], values[op->getOperand(1)]});
  };
  for (Operation &op : body.without_terminator()) {
    Location at = op.getLoc();
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](VRegLoadOp load) {
          order(at, laneRange(displacements[load.getTile()], load.getOffset()),
                /*write=*/false);
          values[load.getResult()] =
              call(at, "tk_vf_load", vreg, values[load.getTile()],
                   {operand(0), constant(load.getOffset())});
        })
        .Case([&](VRegStoreOp store) {
          order(at,
                laneRange(displacements[store.getTile()], store.getOffset()),
                /*write=*/true);
          if (Value m = store.getMask())
            call(at, "tk_vf_store_masked", Type(),
                 {values[store.getTile()], values[store.getValue()], values[m]},
                 {operand(0), constant(store.getOffset()), operand(1),
                  operand(2)});
          else
            call(at, "tk_vf_store", Type(),
                 {values[store.getTile()], values[store.getValue()]},
                 {operand(0), constant(store.getOffset()), operand(1)});
        })
        .Case([&](VRegAddOp op) { binary(op, "tk_vf_add"); })
        .Case([&](VRegSubOp op) { binary(op, "tk_vf_sub"); })
        .Case([&](VRegMulOp op) { binary(op, "tk_vf_mul"); })
        .Case([&](VRegDivOp op) { binary(op, "tk_vf_div"); })
        .Case([&](VRegMaxOp op) { binary(op, "tk_vf_max"); })
        .Case([&](VRegMinOp op) { binary(op, "tk_vf_min"); })
        .Case([&](VRegBroadcastOp op) {
          values[op.getResult()] =
              call(at, "tk_vf_broadcast", vreg, values[op.getScalar()]);
        })
        .Case([&](VRegCmpOp op) {
          values[op.getResult()] = call(
              at,
              ("tk_vf_cmp_" + stringifyCmpPredicate(op.getPredicate())).str(),
              mask, {values[op.getLhs()], values[op.getRhs()]});
        })
        .Case([&](VRegSelectOp op) {
          values[op.getResult()] = call(
              at, "tk_vf_select", vreg,
              {values[op.getMask()], values[op.getLhs()], values[op.getRhs()]});
        })
        .Case([&](VRegPrefixMaskOp op) {
          values[op.getResult()] = call(at, "tk_vf_prefix_mask", mask, {},
                                        {constant(op.getCount())});
        })
        .Case([&](VRegSuffixMaskOp op) {
          values[op.getResult()] = call(at, "tk_vf_suffix_mask", mask, {},
                                        {constant(op.getCount())});
        })
        .Case([&](VRegRuntimeMaskOp op) {
          values[op.getResult()] =
              call(at, "tk_vf_runtime_mask", mask, values[op.getCount()],
                   {operand(0), constant(op.getBase())});
        });
  }
  emitc::ReturnOp::create(builder, loc, Value());
  helper.barriers = barriers;
  return func;
}

FailureOr<emitc::FuncOp> vf::outlineScope(RegScopeOp scope, OpBuilder &builder,
                                          const Twine &symbol,
                                          bool insertBarriers, Helper &helper) {
  return HelperBuilder(scope, builder, symbol, insertBarriers).build(helper);
}
