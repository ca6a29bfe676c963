//===- RegScopeOps.cpp - Register scopes in the executor ------------------===//
//
// A pto.reg_scope runs as the vector core runs it: its captured tiles are
// UB bytes (tiles whose planned addresses overlap share them), its
// registers hold 64 f32 lanes, and each op runs in program order. This is
// the reference the outlined helpers of `--emit=vf-bundle` are checked
// against. Under --undefined=check every lane carries a flag: loads take
// the tile's, arithmetic joins its operands', stores write theirs; the
// tile reads after the scope report undefined data where it ends up.
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "ScalarFunctions.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <array>

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

namespace {

constexpr int64_t kLanes = kVectorLanes;

struct Register {
  std::array<float, kLanes> lanes{};
  std::array<uint8_t, kLanes> undefined{};
};
using Mask = uint64_t;

/// The captured tiles' elements: addressed tiles at their UB element
/// offsets (so overlapping ones share elements), the others each in a
/// range of their own past the highest address.
class ScopeMemory {
public:
  /// Where capture `arg` starts.
  int64_t origin(BlockArgument arg) const { return origins.lookup(arg); }
  /// Adds the capture `arg` of the value `captured`, holding `tile`.
  void add(BlockArgument arg, Value captured, const TileValue &tile) {
    tiles.push_back({arg, tile});
    values.push_back(captured);
  }
  void layout() {
    int64_t end = 0;
    for (auto &[arg, tile] : tiles)
      if (std::optional<int64_t> addr = tile.type.getAddr())
        end = std::max(end, *addr / 4 + tile.type.getNumElements());
    // A value captured twice is one storage.
    llvm::DenseMap<Value, int64_t> byValue;
    for (auto [entry, captured] : llvm::zip(tiles, values)) {
      auto &[arg, tile] = entry;
      std::optional<int64_t> addr = tile.type.getAddr();
      if (addr) {
        origins[arg] = *addr / 4;
      } else if (auto known = byValue.find(captured); known != byValue.end()) {
        origins[arg] = known->second;
      } else {
        origins[arg] = byValue[captured] = end;
        end += tile.type.getNumElements();
      }
    }
    values.clear();
    elements.assign(end, 0.0f);
    undefined.assign(end, 1);
    // Overlapping addressed tiles hold the same bytes (the executor reads
    // them from one pool). An element is undefined only when every capture
    // that covers it says so: a view made by pto.tile.create over loaded
    // bytes calls them undefined, the load that wrote them does not.
    for (auto &[arg, tile] : tiles) {
      int64_t base = origins[arg];
      std::copy(tile.data->floats.begin(), tile.data->floats.end(),
                elements.begin() + base);
      for (int64_t i = 0, e = tile.type.getNumElements(); i < e; ++i)
        undefined[base + i] &= tile.undefined ? (*tile.undefined)[i] : 0;
    }
  }
  /// The tile `arg` as the scope left it.
  TileValue result(BlockArgument arg, bool tracking) const {
    for (const auto &[captured, tile] : tiles) {
      if (captured != arg)
        continue;
      TileValue out = tile;
      int64_t base = origins.lookup(arg), size = tile.type.getNumElements();
      out.data = std::make_shared<ArrayData>(tile.kind(), size);
      std::copy_n(elements.begin() + base, size, out.data->floats.begin());
      out.undefined.reset();
      if (tracking &&
          std::any_of(undefined.begin() + base, undefined.begin() + base + size,
                      [](uint8_t u) { return u != 0; }))
        out.undefined = std::make_shared<std::vector<uint8_t>>(
            undefined.begin() + base, undefined.begin() + base + size);
      return out;
    }
    llvm_unreachable("not a capture");
  }

  std::vector<float> elements;
  std::vector<uint8_t> undefined;

private:
  std::vector<std::pair<BlockArgument, TileValue>> tiles;
  /// The captured values, in the order of `tiles` (until layout()).
  std::vector<Value> values;
  llvm::DenseMap<Value, int64_t> origins;
};

/// Lane `l` of a mask.
bool active(Mask mask, int64_t lane) { return (mask >> lane) & 1; }

Mask firstLanes(int64_t count) {
  if (count <= 0)
    return 0;
  return count >= kLanes ? ~Mask(0) : (Mask(1) << count) - 1;
}

} // namespace

static LogicalResult runRegScope(ExecContext &context, Operation *raw) {
  auto scope = cast<RegScopeOp>(raw);
  Block &body = scope.getBody().front();
  bool tracking =
      context.getInterpreter().getOptions().undefined == UndefinedData::Check;
  ScopeMemory memory;
  llvm::DenseMap<Value, Scalar> scalars;
  for (auto [capture, arg] :
       llvm::zip(scope.getCaptures(), body.getArguments()))
    if (isa<TileType>(capture.getType()))
      memory.add(arg, capture, context.tile(capture));
    else
      scalars[arg] = context.scalar(capture);
  memory.layout();

  llvm::DenseMap<Value, Register> registers;
  llvm::DenseMap<Value, Mask> masks;
  auto binary = [&](Operation *op, auto fn) {
    const Register &a = registers[op->getOperand(0)];
    const Register &b = registers[op->getOperand(1)];
    Register out;
    for (int64_t l = 0; l < kLanes; ++l) {
      out.lanes[l] = fn(a.lanes[l], b.lanes[l]);
      out.undefined[l] = a.undefined[l] | b.undefined[l];
    }
    registers[op->getResult(0)] = out;
  };
  for (Operation &op : body.without_terminator()) {
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](VRegLoadOp load) {
          int64_t at = memory.origin(cast<BlockArgument>(load.getTile())) +
                       load.getOffset();
          Register out;
          for (int64_t l = 0; l < kLanes; ++l) {
            out.lanes[l] = memory.elements[at + l];
            out.undefined[l] = memory.undefined[at + l];
          }
          registers[load.getResult()] = out;
        })
        .Case([&](VRegStoreOp store) {
          int64_t at = memory.origin(cast<BlockArgument>(store.getTile())) +
                       store.getOffset();
          Mask mask = store.getMask() ? masks[store.getMask()] : ~Mask(0);
          const Register &value = registers[store.getValue()];
          for (int64_t l = 0; l < kLanes; ++l)
            if (active(mask, l)) {
              memory.elements[at + l] = value.lanes[l];
              memory.undefined[at + l] = value.undefined[l];
            }
        })
        .Case([&](VRegAddOp op) {
          binary(op, [](float a, float b) { return a + b; });
        })
        .Case([&](VRegSubOp op) {
          binary(op, [](float a, float b) { return a - b; });
        })
        .Case([&](VRegMulOp op) {
          binary(op, [](float a, float b) { return a * b; });
        })
        .Case([&](VRegDivOp op) {
          binary(op, [](float a, float b) { return a / b; });
        })
        .Case([&](VRegMaxOp op) {
          binary(op, [](float a, float b) { return a > b ? a : b; });
        })
        .Case([&](VRegMinOp op) {
          binary(op, [](float a, float b) { return a < b ? a : b; });
        })
        .Case([&](VRegBroadcastOp op) {
          Register out;
          out.lanes.fill(static_cast<float>(scalars[op.getScalar()].f));
          registers[op.getResult()] = out;
        })
        .Case([&](VRegCmpOp op) {
          const Register &a = registers[op.getLhs()];
          const Register &b = registers[op.getRhs()];
          Mask mask = 0;
          for (int64_t l = 0; l < kLanes; ++l)
            if (comparePredicate(op.getPredicate(), a.lanes[l], b.lanes[l]))
              mask |= Mask(1) << l;
          masks[op.getResult()] = mask;
        })
        .Case([&](VRegSelectOp op) {
          Mask mask = masks[op.getMask()];
          const Register &a = registers[op.getLhs()];
          const Register &b = registers[op.getRhs()];
          Register out;
          for (int64_t l = 0; l < kLanes; ++l) {
            const Register &from = active(mask, l) ? a : b;
            out.lanes[l] = from.lanes[l];
            out.undefined[l] = from.undefined[l];
          }
          registers[op.getResult()] = out;
        })
        .Case([&](VRegPrefixMaskOp op) {
          masks[op.getResult()] = firstLanes(op.getCount());
        })
        .Case([&](VRegSuffixMaskOp op) {
          masks[op.getResult()] = ~firstLanes(kLanes - op.getCount());
        })
        .Case([&](VRegRuntimeMaskOp op) {
          masks[op.getResult()] =
              firstLanes(scalars[op.getCount()].i - op.getBase());
        });
  }
  SmallVector<std::pair<Value, TileValue>> results;
  for (auto [index, result] : llvm::enumerate(scope.getResults()))
    results.push_back(
        {result, memory.result(scope.getYieldedCapture(index), tracking)});
  context.setWrittenTogether(results);
  return success();
}

void interp::registerRegScopeHandlers(HandlerMap &map) {
  addHandler<RegScopeOp>(map, runRegScope);
}
