//===- UndefinedData.cpp - Data the machine leaves undefined -------------===//
//
// The contents of pto.tile.create and the padding of loaded and popped
// tiles are undefined on the machine. Under --undefined=nan the executor fills
// them with NaN (integers with a marked pattern) so that a kernel depending on
// them shows it in its numbers; under --undefined=check it tracks which
// elements are defined and stops at the first pto op that reads an
// undefined element into its result's valid region.
//
// Which elements an op reads: a tile operand with the shape of the op's
// first tile operand is read over that operand's valid region (the
// elementwise rule: results take the first operand's valid shape); any
// other tile operand over its own valid region. Exceptions: the
// destination of tile.write and tile.assemble and the source of
// tile.set_validshape are not read, tile.read reads one element, and the
// matmuls read as the MMAD does (MatmulOpInterface).
//
//===----------------------------------------------------------------------===//

#include "ExecContext.h"
#include "Indexing.h"

#include "tilekit/Dialect/PTO/IR/PTOOps.h"

using namespace mlir;
using namespace tilekit;
using namespace tilekit::interp;
using namespace tilekit::pto;

/// The marked integer pattern: 0x5A in every byte of the element's width.
static int64_t markedPattern(ElementKind kind) {
  uint64_t bytes = 0x5A5A5A5A5A5A5A5Aull;
  return wrapInt(kind, static_cast<int64_t>(bytes));
}

void interp::fillUndefined(TileValue &tile, ArrayRef<int64_t> defined) {
  ArrayData &data = *tile.data;
  ArrayRef<int64_t> shape = tile.shape();
  bool none = defined.size() != shape.size();
  int64_t linear = 0;
  forEachIndex(shape, [&](ArrayRef<int64_t> index) {
    bool inside =
        !none && llvm::all_of(llvm::zip(index, defined), [](auto pair) {
          return std::get<0>(pair) < std::get<1>(pair);
        });
    if (!inside) {
      if (isFloatKind(data.kind))
        data.floats[linear] = NAN;
      else
        data.ints[linear] = markedPattern(data.kind);
    }
    ++linear;
  });
}

void interp::fillUndefined(ArrayData &data) {
  if (isFloatKind(data.kind))
    std::fill(data.floats.begin(), data.floats.end(), NAN);
  else
    std::fill(data.ints.begin(), data.ints.end(), markedPattern(data.kind));
}

std::shared_ptr<std::vector<uint8_t>>
interp::undefinedOutside(ArrayRef<int64_t> shape, ArrayRef<int64_t> defined) {
  auto mask = std::make_shared<std::vector<uint8_t>>(product(shape), 1);
  if (defined.size() != shape.size())
    return mask;
  forEachIndex(defined, [&](ArrayRef<int64_t> index) {
    (*mask)[linearIndex(shape, index)] = 0;
  });
  return mask;
}

static const TileValue &
operandTile(Operation *op, ArrayRef<TileOperand> operands, Value value) {
  for (const TileOperand &operand : operands)
    if (op->getOperand(operand.index) == value)
      return operand.tile;
  llvm_unreachable("not a tile operand of the op");
}

/// The region of operand `index` that `op` reads, or none.
static std::optional<SmallVector<int64_t, 4>>
readRegion(ExecContext &context, Operation *op, unsigned index,
           const TileValue &tile, ArrayRef<TileOperand> operands) {
  Value value = op->getOperand(index);
  auto write = dyn_cast<TileWriteOp>(op);
  auto assemble = dyn_cast<TileAssembleOp>(op);
  // A register scope tracks undefined lanes itself (RegScopeOps.cpp).
  if ((write && value == write.getDst()) ||
      (assemble && value == assemble.getDst()) ||
      isa<TileSetValidShapeOp, RegScopeOp>(op))
    return std::nullopt;
  // The cube's matmuls read A over its valid region, B over A's valid K by
  // B's valid N (the MMAD's k comes from A), and the accumulator over the
  // result's valid region unless the init bit overwrites it.
  if (auto mm = dyn_cast<MatmulOpInterface>(op)) {
    const TileValue &lhs = operandTile(op, operands, mm.getLeftOperand());
    const TileValue &rhs = operandTile(op, operands, mm.getRightOperand());
    SmallVector<int64_t, 4> region(tile.valid.begin(), tile.valid.end());
    size_t rank = region.size();
    if (value == mm.getRightOperand()) {
      region[rank - 2] = lhs.valid.back();
    } else if (value == mm.getAccumulator()) {
      Value init = mm.getInitCondition();
      if (init && context.scalar(init).i != 0)
        return std::nullopt;
      region.assign(lhs.valid.begin(), lhs.valid.end());
      region.back() = rhs.valid.back();
    }
    return region;
  }
  const TileValue &first = operands.front().tile;
  ArrayRef<int64_t> valid =
      tile.shape() == first.shape() ? first.valid : tile.valid;
  return SmallVector<int64_t, 4>(valid.begin(), valid.end());
}

LogicalResult interp::checkUndefinedReads(ExecContext &context, Operation *op,
                                          ArrayRef<TileOperand> operands) {
  for (const TileOperand &operand : operands) {
    const TileValue &tile = operand.tile;
    if (!tile.undefined)
      continue;
    // tile.read reads the one element it names.
    std::optional<SmallVector<int64_t, 4>> region;
    SmallVector<int64_t, 4> element;
    if (auto read = dyn_cast<TileReadOp>(op)) {
      element = context.indices(read.getIndices());
      if ((*tile.undefined)[linearIndex(tile.shape(), element)] == 0)
        continue;
    } else {
      region = readRegion(context, op, operand.index, tile, operands);
      if (!region)
        continue;
      forEachIndex(*region, [&](ArrayRef<int64_t> index) {
        if (element.empty() &&
            (*tile.undefined)[linearIndex(tile.shape(), index)] != 0)
          element.assign(index.begin(), index.end());
      });
      if (element.empty())
        continue;
    }
    Value value = op->getOperand(operand.index);
    InFlightDiagnostic diag =
        op->emitOpError() << "reads the undefined element "
                          << formatShape(element) << " of operand #"
                          << operand.index << " (" << value.getType() << ")";
    if (region)
      diag << ", inside the region " << formatShape(*region) << " it reads";
    diag << "; undefined data is the contents of pto.tile.create, the "
            "padding of a load or a pop, or bytes another tile at the same "
            "address "
            "overwrote";
    diag.attachNote(value.getLoc()) << "the tile is defined here";
    return failure();
  }
  return success();
}

void interp::mergeUndefined(std::shared_ptr<std::vector<uint8_t>> &into,
                            const std::shared_ptr<std::vector<uint8_t>> &from) {
  if (!from)
    return;
  if (!into) {
    into = std::make_shared<std::vector<uint8_t>>(*from);
    return;
  }
  for (size_t i = 0; i < into->size(); ++i)
    (*into)[i] |= (*from)[i];
}

void interp::propagateUndefined(ExecContext &context, Operation *op,
                                ArrayRef<TileOperand> operands) {
  for (Value result : op->getResults()) {
    auto type = dyn_cast<TileType>(result.getType());
    if (!type)
      continue;
    TileValue &tile = context.storedTile(result);
    std::shared_ptr<std::vector<uint8_t>> mask;
    if (isa<TileCreateOp>(op)) {
      mask = undefinedOutside(type.getShape(), {});
    } else if (isa<RegScopeOp>(op)) {
      mask = tile.undefined; // the scope's own lane tracking
    } else if (isa<TileLoadOp, TPopFromAicOp, TPopFromAivOp>(op)) {
      // A load's padding, and a popped tile's: the slot held anything.
      if (!tile.isFullyValid())
        mask = undefinedOutside(type.getShape(), tile.valid);
    } else if (auto write = dyn_cast<TileWriteOp>(op)) {
      mergeUndefined(mask, operands[0].tile.undefined);
      if (mask)
        (*mask)[linearIndex(type.getShape(),
                            context.indices(write.getIndices()))] = 0;
    } else if (auto assemble = dyn_cast<TileAssembleOp>(op)) {
      mergeUndefined(mask, operands[1].tile.undefined);
      SmallVector<int64_t, 4> offsets = context.indices(assemble.getOffsets());
      if (mask)
        forEachIndex(operands[0].tile.valid, [&](ArrayRef<int64_t> index) {
          SmallVector<int64_t, 4> at(index.begin(), index.end());
          for (auto [a, o] : llvm::zip(at, offsets))
            a += o;
          if (llvm::all_of(llvm::zip(at, type.getShape()), [](auto pair) {
                return std::get<0>(pair) < std::get<1>(pair);
              }))
            (*mask)[linearIndex(type.getShape(), at)] = 0;
        });
    } else if (isa<TileSetValidShapeOp>(op)) {
      mask = operands[0].tile.undefined;
    } else if (isa<TileTransposeOp>(op)) {
      // Element [r, c] comes from [c, r] (a square tile is not
      // elementwise).
      if (const auto &from = operands[0].tile.undefined) {
        int64_t rows = type.getShape()[0], cols = type.getShape()[1];
        mask = std::make_shared<std::vector<uint8_t>>(from->size());
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            (*mask)[r * cols + c] = (*from)[c * rows + r];
      }
    } else if (isa<TileFillPadOp>(op)) {
      // The padding is filled; the valid region was read, so defined.
    } else if (llvm::any_of(operands, [](const TileOperand &operand) {
                 return operand.tile.undefined != nullptr;
               })) {
      // Elementwise-like results inherit the undefined elements of their
      // same-shape operands; others are defined where they are valid.
      bool elementwise = !isa<MatmulOpInterface>(op) &&
                         llvm::any_of(operands, [&](const TileOperand &o) {
                           return o.tile.shape() == type.getShape();
                         });
      if (elementwise) {
        for (const TileOperand &operand : operands)
          if (operand.tile.shape() == type.getShape())
            mergeUndefined(mask, operand.tile.undefined);
      } else if (!tile.isFullyValid()) {
        mask = undefinedOutside(type.getShape(), tile.valid);
      }
    }
    tile.undefined = std::move(mask);
  }
}
