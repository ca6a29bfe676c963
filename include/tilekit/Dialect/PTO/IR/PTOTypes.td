//===- PTOTypes.td - PTO tile and tensor types --------------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOTYPES_TD
#define TILEKIT_DIALECT_PTO_IR_PTOTYPES_TD

include "tilekit/Dialect/PTO/IR/PTOAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class PTO_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<PTO_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def PTO_TileType : PTO_Type<"Tile", "tile", [ShapedTypeInterface]> {
  let summary = "an on-chip tile with a static box and a memory space";
  let description = [{
    A tile is a statically shaped box of elements in one on-chip buffer:

    ```mlir
    !pto.tile<64x128xf32, vec>
    !pto.tile<16x32xf16, left>
    !pto.tile<128x128xf32, acc, addr = 0>
    !pto.tile<32x32xf16, mat, blayout = row_major, slayout = none_box, pad = zero>
    ```

    The memory space is one of `vec` (UB), `mat` (L1), `left` (L0A),
    `right` (L0B), `acc` (L0C) and `bias` (bias table). The layout parameters
    describe how the box is stored: `blayout` orders the fractal blocks,
    `slayout` orders elements inside a block (`none_box` means no fractals),
    `fractal` is the block size in bytes, and `pad` is the value that fills
    the box outside the valid region. Each memory space has a canonical
    layout; parameters equal to it are not printed:

    | space | blayout | slayout | fractal |
    |-------|---------|---------|---------|
    | vec, bias | row_major | none_box | 512 |
    | mat | col_major | row_major | 512 |
    | left | row_major | row_major | 512 |
    | right | row_major | col_major | 512 |
    | acc | col_major | row_major | 1024 |

    `addr` is the byte offset of the tile in its buffer, as memory planning
    assigns it. Tiles whose address ranges overlap in the same memory space
    alias; tiles without an address never alias anything.

    The valid shape (the region holding data) is runtime metadata, not part
    of the type.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "mlir::Type":$elementType,
    "MemorySpace":$memorySpace,
    "BLayout":$blayout,
    "SLayout":$slayout,
    "int64_t":$fractal,
    "PadValue":$pad,
    "std::optional<int64_t>":$addr
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "llvm::ArrayRef<int64_t>":$shape, "mlir::Type":$elementType,
        "MemorySpace":$memorySpace,
        CArg<"std::optional<int64_t>", "std::nullopt">:$addr), [{
      TileLayout layout = TileType::getCanonicalLayout(memorySpace);
      return $_get(elementType.getContext(), shape, elementType, memorySpace,
                   layout.blayout, layout.slayout, layout.fractal,
                   PadValue::Null, addr);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 0;
  let extraClassDeclaration = [{
    /// The layout a tile in `space` has unless its type says otherwise.
    static TileLayout getCanonicalLayout(MemorySpace space);

    // ShapedTypeInterface.
    bool hasRank() const { return true; }
    mlir::ShapedType cloneWith(std::optional<llvm::ArrayRef<int64_t>> shape,
                               mlir::Type elementType) const;

    /// Bits one element occupies in a buffer (i1 masks take a byte).
    unsigned getElementStorageBits() const;
    /// Bytes the whole box occupies in its buffer.
    int64_t getSizeInBytes() const;
    /// True when this tile and `other` share at least one byte of the same
    /// buffer (both need an address).
    bool overlaps(TileType other) const;
    /// The same tile in another memory space with that space's layout.
    TileType withMemorySpace(MemorySpace space) const;
    /// The same tile with a different address (or none).
    TileType withAddr(std::optional<int64_t> addr) const;
    /// True when shape and element type agree (layout/address may differ).
    bool hasSameBox(TileType other) const {
      return getShape() == other.getShape() &&
             getElementType() == other.getElementType();
    }
  }];
}

def PTO_TensorType : PTO_Type<"GMTensor", "tensor", [ShapedTypeInterface]> {
  let summary = "a tensor in global memory (GM/HBM)";
  let description = [{
    A tensor in global memory, with static or dynamic (`?`) dimensions:

    ```mlir
    !pto.tensor<?x128xf16>
    !pto.tensor<4x256x256xf32>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "mlir::Type":$elementType
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "llvm::ArrayRef<int64_t>":$shape, "mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    mlir::ShapedType cloneWith(std::optional<llvm::ArrayRef<int64_t>> shape,
                               mlir::Type elementType) const;
  }];
}

// The constraints keep the generic `mlir::Type` C++ type on purpose: ops
// then print their types in full (`!pto.tile<...>`), not stripped (`<...>`).
def PTO_AnyTile : Type<CPred<"::llvm::isa<::tilekit::pto::TileType>($_self)">,
                       "PTO tile">;
def PTO_AnyTensor
    : Type<CPred<"::llvm::isa<::tilekit::pto::GMTensorType>($_self)">,
           "PTO GM tensor">;

/// A scalar a tile or tensor op can take: a float, a signless integer or an
/// index.
def PTO_Scalar : AnyTypeOf<[AnyFloat, AnySignlessInteger, Index]>;

#endif // TILEKIT_DIALECT_PTO_IR_PTOTYPES_TD
