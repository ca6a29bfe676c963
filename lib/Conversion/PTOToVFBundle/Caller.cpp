//===- Caller.cpp - kernel_entry: transfers, helper calls and their flags -===//
//
// The kernel's own code: straight-line index arithmetic, GM<->UB transfers
// (MTE2 loads, MTE3 stores) and one call per register scope (pipe V), each
// a call of runtime/vf/tilekit_vf.h. The calls keep their captured tiles
// visible, with each capture's effect (read; readwrite if stored into), so
// the caller is synchronized like any vector op: a flag from the pipe of
// the latest earlier op that conflicts with an op on another pipe (UB
// bytes overlap, or the same GM tensor, and one of the two writes), unless
// a flag already waited for covers it. There is no barrier around a call.
//
//===----------------------------------------------------------------------===//

#include "Bundle.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::pto;
using namespace tilekit::vf;

namespace {

enum class CallerPipe { None, MTE2, V, MTE3 };
constexpr std::array<CallerPipe, 3> kPipes = {CallerPipe::MTE2, CallerPipe::V,
                                              CallerPipe::MTE3};
StringRef pipeName(CallerPipe pipe) {
  switch (pipe) {
  case CallerPipe::MTE2:
    return "mte2";
  case CallerPipe::V:
    return "v";
  case CallerPipe::MTE3:
    return "mte3";
  case CallerPipe::None:
    break;
  }
  return "none";
}
StringRef pipeConstant(CallerPipe pipe) {
  switch (pipe) {
  case CallerPipe::MTE2:
    return "TK_PIPE_MTE2";
  case CallerPipe::V:
    return "TK_PIPE_V";
  default:
    return "TK_PIPE_MTE3";
  }
}

/// UB bytes, or a whole GM tensor (by the kernel argument it comes from).
struct Resource {
  int tensor = -1;
  ByteRange range{0, 0};
  bool conflicts(const Resource &other) const {
    if (tensor >= 0 || other.tensor >= 0)
      return tensor == other.tensor;
    return range.overlaps(other.range);
  }
};

struct PipeAccess {
  CallerPipe pipe = CallerPipe::None;
  SmallVector<Resource> reads, writes;
  bool conflicts(const PipeAccess &other) const {
    auto any = [](ArrayRef<Resource> a, ArrayRef<Resource> b) {
      return llvm::any_of(a, [&](const Resource &x) {
        return llvm::any_of(b,
                            [&](const Resource &y) { return x.conflicts(y); });
      });
    };
    return any(writes, other.reads) || any(writes, other.writes) ||
           any(reads, other.writes);
  }
};

ByteRange tileBytes(Value tile) {
  auto type = cast<TileType>(tile.getType());
  int64_t begin = type.getAddr().value_or(0);
  return {begin,
          begin + type.getNumElements() * type.getElementTypeBitWidth() / 8};
}

/// The kernel argument a GM tensor value comes from (stores return the
/// tensor they update).
int tensorRoot(Value tensor) {
  while (auto store = tensor.getDefiningOp<TileStoreOp>())
    tensor = store.getDst();
  auto arg = dyn_cast<BlockArgument>(tensor);
  return arg ? static_cast<int>(arg.getArgNumber()) : -1;
}

PipeAccess accessOf(Operation *op) {
  PipeAccess access;
  if (auto load = dyn_cast<TileLoadOp>(op)) {
    access.pipe = CallerPipe::MTE2;
    access.reads.push_back({tensorRoot(load.getSrc())});
    access.writes.push_back({-1, tileBytes(load.getResult())});
  } else if (auto store = dyn_cast<TileStoreOp>(op)) {
    access.pipe = CallerPipe::MTE3;
    access.reads.push_back({-1, tileBytes(store.getTile())});
    access.writes.push_back({tensorRoot(store.getDst())});
  } else if (auto scope = dyn_cast<RegScopeOp>(op)) {
    access.pipe = CallerPipe::V;
    Block &body = scope.getBody().front();
    for (auto [capture, arg] :
         llvm::zip(scope.getCaptures(), body.getArguments())) {
      if (!isa<TileType>(capture.getType()))
        continue;
      access.reads.push_back({-1, tileBytes(capture)});
      if (scope.isStoredInto(arg))
        access.writes.push_back({-1, tileBytes(capture)});
    }
  }
  return access;
}

struct Flag {
  CallerPipe set, wait;
  int event;
};

/// The flags of the ops in `ops`: those set after op i and waited for
/// before op j, by index.
struct FlagPlan {
  llvm::DenseMap<unsigned, SmallVector<Flag>> setAfter, waitBefore;
  SmallVector<Flag> all;
};

FlagPlan planFlags(ArrayRef<Operation *> ops) {
  SmallVector<PipeAccess> accesses;
  for (Operation *op : ops)
    accesses.push_back(accessOf(op));
  FlagPlan plan;
  // covered[p][q]: the last op of pipe p after which a flag was set and
  // then waited for on pipe q.
  std::array<std::array<int, 4>, 4> covered;
  std::array<std::array<int, 4>, 4> nextEvent{};
  for (auto &row : covered)
    row.fill(-1);
  for (unsigned j = 0; j < accesses.size(); ++j) {
    CallerPipe q = accesses[j].pipe;
    if (q == CallerPipe::None)
      continue;
    for (CallerPipe p : kPipes) {
      if (p == q)
        continue;
      int latest = -1;
      for (int i = j - 1; i >= 0; --i)
        if (accesses[i].pipe == p && accesses[i].conflicts(accesses[j])) {
          latest = i;
          break;
        }
      int &cover = covered[unsigned(p)][unsigned(q)];
      if (latest < 0 || cover >= latest)
        continue;
      cover = latest;
      int &event = nextEvent[unsigned(p)][unsigned(q)];
      Flag flag{p, q, event};
      event = (event + 1) % 8;
      plan.setAfter[latest].push_back(flag);
      plan.waitBefore[j].push_back(flag);
      plan.all.push_back(flag);
    }
  }
  return plan;
}

struct TileState {
  int64_t addr, rows, cols;
  Value validRows, validCols;
};

class CallerBuilder {
public:
  CallerBuilder(func::FuncOp entry, OpBuilder &builder,
                ArrayRef<Helper> helpers)
      : entry(entry), builder(builder), context(builder.getContext()),
        helpers(helpers) {}

  FailureOr<emitc::FuncOp> build(Bundle &bundle);

private:
  Value call(Location loc, StringRef callee, Type result, ValueRange operands,
             ArrayRef<Attribute> args = {}) {
    return callRuntime(builder, loc, callee, result, operands, args);
  }
  Type i64() { return builder.getI64Type(); }
  Value constant(Location loc, int64_t value) {
    return emitc::ConstantOp::create(builder, loc, i64(),
                                     builder.getI64IntegerAttr(value));
  }
  void emitFlags(Location loc, ArrayRef<Flag> flags, StringRef callee) {
    for (const Flag &flag : flags)
      call(loc, callee, Type(), {},
           {emitc::OpaqueAttr::get(context, pipeConstant(flag.set)),
            emitc::OpaqueAttr::get(context, pipeConstant(flag.wait)),
            builder.getI32IntegerAttr(flag.event)});
  }
  LogicalResult lower(Operation *op);
  /// The two valid extents of a 2-D box: `given` or the box.
  std::pair<Value, Value> validOf(Location loc, ValueRange given,
                                  ArrayRef<int64_t> box) {
    if (given.empty())
      return {constant(loc, box[0]), constant(loc, box[1])};
    return {values[given[0]], values[given[1]]};
  }
  LogicalResult checkBox(Operation *op, Value tile, Value tensor) {
    auto tileType = cast<TileType>(tile.getType());
    if (tileType.getRank() != 2 || !tileType.getElementType().isF32() ||
        cast<ShapedType>(tensor.getType()).getRank() != 2)
      return op->emitOpError()
             << "moves " << tileType
             << ": the vf-bundle caller moves 2-D f32 tiles of 2-D tensors";
    return success();
  }

  func::FuncOp entry;
  OpBuilder &builder;
  MLIRContext *context;
  ArrayRef<Helper> helpers;
  unsigned nextHelper = 0;
  Value args, ub;
  llvm::DenseMap<Value, Value> values;
  llvm::DenseMap<Value, TileState> tiles;
};

} // namespace

LogicalResult CallerBuilder::lower(Operation *op) {
  Location loc = op->getLoc();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp constantOp) -> LogicalResult {
        auto value = dyn_cast<IntegerAttr>(constantOp.getValue());
        if (!value)
          return op->emitOpError()
                 << "is not an integer: a vf-bundle image holds no data "
                    "(.rodata), so pass float values as arguments";
        values[constantOp.getResult()] = constant(loc, value.getInt());
        return success();
      })
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
          [&](auto arithOp) -> LogicalResult {
            Value lhs = values[arithOp.getLhs()],
                  rhs = values[arithOp.getRhs()];
            Value result;
            if (isa<arith::AddIOp>(op))
              result = emitc::AddOp::create(builder, loc, i64(), lhs, rhs);
            else if (isa<arith::SubIOp>(op))
              result = emitc::SubOp::create(builder, loc, i64(), lhs, rhs);
            else
              result = emitc::MulOp::create(builder, loc, i64(), lhs, rhs);
            values[arithOp.getResult()] = result;
            return success();
          })
      .Case<arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp>(
          [&](auto arithOp) -> LogicalResult {
            StringRef callee = isa<arith::MinSIOp>(op)   ? "tk_vf_min"
                               : isa<arith::MinUIOp>(op) ? "tk_vf_minu"
                                                         : "tk_vf_max";
            values[arithOp.getResult()] =
                call(loc, callee, i64(),
                     {values[arithOp.getLhs()], values[arithOp.getRhs()]});
            return success();
          })
      .Case([&](TensorDimOp dim) -> LogicalResult {
        values[dim.getResult()] = call(
            loc, "tk_vf_dim", i64(), values[dim.getSrc()],
            {builder.getIndexAttr(0), builder.getI64IntegerAttr(dim.getDim())});
        return success();
      })
      .Case([&](TileLoadOp load) -> LogicalResult {
        if (failed(checkBox(op, load.getResult(), load.getSrc())))
          return failure();
        auto type = cast<TileType>(load.getResult().getType());
        ArrayRef<int64_t> box = type.getShape();
        auto [rows, cols] = validOf(loc, load.getValidShape(), box);
        Value tensor = values[load.getSrc()];
        Value offsets[2] = {values[load.getOffsets()[0]],
                            values[load.getOffsets()[1]]};
        TileState state{*type.getAddr(), box[0], box[1]};
        state.validRows =
            call(loc, "tk_vf_clamp", i64(),
                 {rows,
                  call(loc, "tk_vf_dim", i64(), tensor,
                       {builder.getIndexAttr(0), builder.getI64IntegerAttr(0)}),
                  offsets[0]});
        state.validCols =
            call(loc, "tk_vf_clamp", i64(),
                 {cols,
                  call(loc, "tk_vf_dim", i64(), tensor,
                       {builder.getIndexAttr(0), builder.getI64IntegerAttr(1)}),
                  offsets[1]});
        call(loc, "tk_vf_copy_in", Type(),
             {ub, tensor, offsets[0], offsets[1], state.validRows,
              state.validCols},
             {builder.getIndexAttr(0), builder.getI64IntegerAttr(state.addr),
              builder.getIndexAttr(1), builder.getIndexAttr(2),
              builder.getIndexAttr(3), builder.getI64IntegerAttr(box[0]),
              builder.getI64IntegerAttr(box[1]), builder.getIndexAttr(4),
              builder.getIndexAttr(5)});
        tiles[load.getResult()] = state;
        return success();
      })
      .Case([&](TileCreateOp create) -> LogicalResult {
        auto type = cast<TileType>(create.getResult().getType());
        if (type.getRank() != 2)
          return op->emitOpError("creates a tile that is not 2-D; the "
                                 "vf-bundle caller handles 2-D tiles");
        auto [rows, cols] =
            validOf(loc, create.getValidShape(), type.getShape());
        tiles[create.getResult()] = {*type.getAddr(), type.getDimSize(0),
                                     type.getDimSize(1), rows, cols};
        return success();
      })
      .Case([&](TileSetValidShapeOp set) -> LogicalResult {
        TileState state = tiles.lookup(set.getSrc());
        state.validRows = values[set.getValidShape()[0]];
        state.validCols = values[set.getValidShape()[1]];
        tiles[set.getResult()] = state;
        return success();
      })
      .Case([&](RegScopeOp scope) -> LogicalResult {
        const Helper &helper = helpers[nextHelper++];
        SmallVector<Value> operands{ub};
        for (Value capture : scope.getCaptures())
          if (!isa<TileType>(capture.getType()))
            operands.push_back(values[capture]);
        call(loc, helper.symbol, Type(), operands);
        for (auto [index, result] : llvm::enumerate(scope.getResults()))
          tiles[result] =
              tiles.lookup(scope.getCaptures()[scope.getYieldedCapture(index)
                                                   .getArgNumber()]);
        return success();
      })
      .Case([&](TileStoreOp store) -> LogicalResult {
        if (failed(checkBox(op, store.getTile(), store.getDst())))
          return failure();
        TileState state = tiles.lookup(store.getTile());
        Value tensor = values[store.getDst()];
        call(loc, "tk_vf_copy_out", Type(),
             {tensor, values[store.getOffsets()[0]],
              values[store.getOffsets()[1]], ub, state.validRows,
              state.validCols},
             {builder.getIndexAttr(0), builder.getIndexAttr(1),
              builder.getIndexAttr(2), builder.getIndexAttr(3),
              builder.getI64IntegerAttr(state.addr),
              builder.getI64IntegerAttr(state.cols), builder.getIndexAttr(4),
              builder.getIndexAttr(5)});
        values[store.getResult()] = tensor;
        return success();
      })
      .Case([&](func::ReturnOp) -> LogicalResult {
        call(loc, "tk_vf_kernel_tail", Type(), {});
        emitc::ReturnOp::create(builder, loc, Value());
        return success();
      })
      .Default([&](Operation *) -> LogicalResult {
        InFlightDiagnostic diag =
            op->emitOpError() << "is not supported in the caller of a "
                                 "vf-bundle, which is straight-line: index "
                                 "arithmetic, 2-D f32 tile loads and stores, "
                                 "tile.create, tile.set_validshape and "
                                 "register scopes";
        return diag;
      });
}

FailureOr<emitc::FuncOp> CallerBuilder::build(Bundle &bundle) {
  Location loc = entry.getLoc();
  Type argsType = emitc::PointerType::get(
      emitc::OpaqueType::get(context, "const tk_vf_args"));
  auto func = emitc::FuncOp::create(builder, loc, "kernel_entry",
                                    builder.getFunctionType({argsType}, {}));
  func.setSpecifiersAttr(builder.getStrArrayAttr({"extern \"C\""}));
  Block *block = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(block);
  args = block->getArgument(0);
  ub = call(loc, "tk_vf_ub", ubPointerType(context), args);
  // Arguments by kind, each numbered within its kind.
  unsigned counts[3] = {0, 0, 0};
  Type tensorType =
      emitc::PointerType::get(emitc::OpaqueType::get(context, "tk_vf_tensor"));
  for (auto [index, arg] : llvm::enumerate(entry.getArguments())) {
    Type type = arg.getType();
    Argument argument;
    llvm::raw_string_ostream(argument.type) << type;
    Location at = arg.getLoc();
    StringRef callee;
    Type cType;
    if (isa<pto::GMTensorType>(type)) {
      argument.kind = "tensor";
      callee = "tk_vf_tensor_arg";
      cType = tensorType;
      argument.slot = counts[0]++;
    } else if (type.isIntOrIndex()) {
      argument.kind = "int";
      callee = "tk_vf_int_arg";
      cType = i64();
      argument.slot = counts[1]++;
    } else if (type.isF32()) {
      argument.kind = "float";
      callee = "tk_vf_float_arg";
      cType = type;
      argument.slot = counts[2]++;
    } else {
      return entry.emitError()
             << "argument #" << index << " is " << type
             << ": a vf-bundle kernel takes f32 GM tensors, integer and f32 "
                "scalars (tiles are its own, planned in UB)";
    }
    if (auto tensor = dyn_cast<pto::GMTensorType>(type);
        tensor && !tensor.getElementType().isF32())
      return entry.emitError() << "argument #" << index << " is " << type
                               << ": vf-bundle tensors hold f32";
    values[arg] = call(
        at, callee, cType, args,
        {builder.getIndexAttr(0), builder.getI64IntegerAttr(argument.slot)});
    bundle.arguments.push_back(std::move(argument));
  }
  SmallVector<Operation *> ops;
  for (Operation &op : entry.getBody().front())
    ops.push_back(&op);
  FlagPlan flags = planFlags(ops);
  for (auto [index, op] : llvm::enumerate(ops)) {
    emitFlags(op->getLoc(), flags.waitBefore.lookup(index), "tk_vf_wait_flag");
    if (failed(lower(op)))
      return failure();
    emitFlags(op->getLoc(), flags.setAfter.lookup(index), "tk_vf_set_flag");
  }
  for (const Flag &flag : flags.all)
    bundle.events.push_back(
        {pipeName(flag.set).str(), pipeName(flag.wait).str(), flag.event});
  return func;
}

FailureOr<emitc::FuncOp> vf::buildCaller(func::FuncOp entry, OpBuilder &builder,
                                         ArrayRef<Helper> helpers,
                                         Bundle &bundle) {
  return CallerBuilder(entry, builder, helpers).build(bundle);
}
