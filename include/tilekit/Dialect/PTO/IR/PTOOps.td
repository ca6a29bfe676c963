//===- PTOOps.td - PTO operations ---------------------------*- tablegen -*-===//
//
// Operation names follow the tile IR they model (`tile.add` becomes
// `pto.tile.add`, `tensor.matmul` becomes `pto.tensor.matmul`), so engineers
// who know that IR recognize every op.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOOPS_TD
#define TILEKIT_DIALECT_PTO_IR_PTOOPS_TD

include "tilekit/Dialect/PTO/IR/PTOTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tilekit/Interfaces/PipeOpInterface.td"
include "tilekit/Dialect/PTO/IR/PTOInterfaces.td"

//===----------------------------------------------------------------------===//
// Placement traits: which function kinds may hold an op. Functions without a
// `pto.kind` accept every op, so small test kernels need no ceremony.
//===----------------------------------------------------------------------===//

class PTO_PlacementTrait<string name>
    : NativeOpTrait<name, [], [{}], [{}]> {
  let cppNamespace = "::tilekit::pto::OpTrait";
}
/// Runs on any core: incore, aic or aiv functions. Each such op names its
/// pipe (Tilekit_OnPipe, Tilekit_NoPipe, Tilekit_Transfer).
def PTO_InCoreOp : PTO_PlacementTrait<"InCoreOp">;
/// Runs on the cube unit (pipe M): incore or aic functions. Every cube op
/// is a matmul.
def PTO_CubeOp
    : TraitList<[PTO_PlacementTrait<"CubeOp">, Tilekit_OnPipe<"M">,
                 PTO_MatmulOpInterface]>;
/// Runs on the vector unit (pipe V): incore or aiv functions.
def PTO_VectorOp
    : TraitList<[PTO_PlacementTrait<"VectorOp">, Tilekit_OnPipe<"V">]>;
/// Runs in an orchestration function (works on GM tensors, outside the
/// cores: no pipe).
def PTO_OrchestrationOp
    : TraitList<[PTO_PlacementTrait<"OrchestrationOp">, Tilekit_NoPipe]>;


/// A transfer between the cube core and a vector core (tpush/tpop).
def PTO_CrossCoreTransfer : PTO_PlacementTrait<"CrossCoreTransfer">;

/// An op whose verifier is a shared C++ helper called with extra arguments.
class PTO_SharedVerifier<string call> {
  code verifierDef = [{
    ::mlir::LogicalResult $cppClass::verify() { return }] # call # [{; }
  }];
}

//===----------------------------------------------------------------------===//
// Tile data movement and construction
//===----------------------------------------------------------------------===//

def PTO_TileLoadOp : PTO_Op<"tile.load",
    [PTO_InCoreOp, Tilekit_Transfer, AttrSizedOperandSegments, MemoryEffects<[MemRead]>]> {
  let summary = "load a box of a GM tensor into a tile";
  let description = [{
    Copies the box of the result's shape at `offsets` of `src` into a new
    tile (GM to UB for `vec`, GM to L1 for `mat`). The tile maps to the
    trailing dimensions of the tensor. The optional valid shape (default: the
    whole box) is clamped to the data present in the tensor; elements outside
    it are zero.

    ```mlir
    %t = pto.tile.load %x[%i, %c0] valid [%rows, %c64]
        : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
    ```
  }];
  let arguments = (ins PTO_AnyTensor:$src, Variadic<Index>:$offsets,
                       Variadic<Index>:$valid_shape);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src `[` $offsets `]` (`valid` ` ` `[` $valid_shape^ `]`)? attr-dict
    `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileStoreOp : PTO_Op<"tile.store",
    [PTO_InCoreOp, Tilekit_Transfer, AllTypesMatch<["dst", "result"]>,
     MemoryEffects<[MemWrite]>]> {
  let summary = "store the valid region of a tile into a GM tensor";
  let description = [{
    Writes only the valid region of `tile` into `dst` at `offsets` (UB to GM
    for `vec`, L0C to GM through the fixpipe for `acc`, which may convert
    the element type). With `atomic_add` the values are added to what GM
    holds. The result is `dst` itself, returned so that data flow is explicit.

    ```mlir
    %o = pto.tile.store %t, %out[%i, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$tile, PTO_AnyTensor:$dst,
                       Variadic<Index>:$offsets, UnitAttr:$atomic_add);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $tile `,` $dst `[` $offsets `]` (`atomic_add` $atomic_add^)? attr-dict
    `:` type($tile) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def PTO_TileCreateOp : PTO_Op<"tile.create", [PTO_InCoreOp, Tilekit_NoPipe, Pure]> {
  let summary = "a tile whose contents are undefined";
  let arguments = (ins Variadic<Index>:$valid_shape);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    (`valid` ` ` `[` $valid_shape^ `]`)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileFullOp : PTO_Op<"tile.full", [PTO_InCoreOp, Tilekit_OnPipe<"V">, Pure]> {
  let summary = "a tile filled with one scalar";
  let arguments = (ins PTO_Scalar:$value, Variadic<Index>:$valid_shape);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $value (`valid` ` ` `[` $valid_shape^ `]`)? attr-dict
    `:` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileMoveOp : PTO_Op<"tile.move", [PTO_InCoreOp, Tilekit_Transfer, Pure]> {
  let summary = "copy a tile to another on-chip buffer";
  let description = [{
    Copies a tile along one of the machine's on-chip paths: L1 to L0A/L0B or
    the bias table (`mat` to `left`/`right`/`bias`, MTE1), L0C to L1 or UB
    (`acc` to `mat`/`vec`, fixpipe, which may convert the element type),
    and within a buffer (`vec` to `vec`, `mat` to `mat`). The valid shape is
    preserved.
  }];
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def PTO_TileSliceOp : PTO_Op<"tile.slice",
    [PTO_InCoreOp, Tilekit_OnPipe<"V">, Pure, AttrSizedOperandSegments]> {
  let summary = "a sub-box of a tile";
  let description = [{
    Takes the box of the result's shape at `offsets`. A slice that reaches
    past the source box still has the requested shape; the part outside
    holds `pad` (default: zero). The valid shape defaults to the part of the
    slice inside the source's valid region.
  }];
  let arguments = (ins PTO_AnyTile:$src, Variadic<Index>:$offsets,
                       Variadic<Index>:$valid_shape,
                       OptionalAttr<PTO_PadValue>:$pad);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src `[` $offsets `]` (`valid` ` ` `[` $valid_shape^ `]`)? (`pad` $pad^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileAssembleOp : PTO_Op<"tile.assemble",
    [PTO_InCoreOp, Tilekit_OnPipe<"V">, Pure, AllTypesMatch<["dst", "result"]>,
     DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>]> {
  let summary = "write the valid region of a tile into another at an offset";
  let arguments = (ins PTO_AnyTile:$src, PTO_AnyTile:$dst,
                       Variadic<Index>:$offsets);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src `into` $dst `[` $offsets `]` attr-dict `:` type($src) `into` type($dst)
  }];
  let hasVerifier = 1;
}

def PTO_TileFillPadOp : PTO_Op<"tile.fillpad", [PTO_VectorOp, Pure]> {
  let summary = "fill the box outside the valid region";
  let description = [{
    Returns the tile with every element outside its valid region set to
    zero, or the element type's finite minimum or maximum. The valid shape
    becomes the whole box.
  }];
  let arguments = (ins PTO_AnyTile:$src, PTO_PadValue:$pad);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src `,` $pad attr-dict `:` custom<OpTypes>(type($src), type($result))
  }];
  let hasVerifier = 1;
}

def PTO_TileSetValidShapeOp : PTO_Op<"tile.set_validshape",
    [PTO_InCoreOp, Tilekit_NoPipe, Pure, AllTypesMatch<["src", "result"]>,
     DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>]> {
  let summary = "change the valid shape of a tile (metadata only)";
  let arguments = (ins PTO_AnyTile:$src, Variadic<Index>:$valid_shape);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src `[` $valid_shape `]` attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def PTO_TileReshapeOp : PTO_Op<"tile.reshape",
    [PTO_InCoreOp, Tilekit_NoPipe, Pure, DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>]> {
  let summary = "view the elements of a tile with another shape";
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def PTO_TileTransposeOp : PTO_Op<"tile.transpose", [PTO_VectorOp, Pure]> {
  let summary = "transpose a 2-D tile";
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def PTO_TileReadOp : PTO_Op<"tile.read",
    [PTO_InCoreOp, Tilekit_OnPipe<"S">, Pure,
     TypesMatchWith<"result is the tile's element type", "src", "result",
                    "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">]> {
  let summary = "read one element of a tile";
  let arguments = (ins PTO_AnyTile:$src, Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def PTO_TileWriteOp : PTO_Op<"tile.write",
    [PTO_InCoreOp, Tilekit_OnPipe<"S">, Pure, AllTypesMatch<["dst", "result"]>,
     DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>,
     TypesMatchWith<"value is the tile's element type", "dst", "value",
                    "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">]> {
  let summary = "write one element of a tile";
  let arguments = (ins AnyType:$value, PTO_AnyTile:$dst,
                       Variadic<Index>:$indices);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $value `,` $dst `[` $indices `]` attr-dict `:` type($dst)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise tile and tensor ops
//===----------------------------------------------------------------------===//

class PTO_BinaryOp<string prefix, string name, string kind,
                   list<Trait> traits>
    : PTO_Op<prefix # "." # name, traits # [Pure, PTO_ElementwiseOpInterface]> {
  let extraClassDeclaration = PTO_Elementwise<"Binary", name>.elementwiseDeclaration;
  let summary = "elementwise " # name;
  let description = "Computes `" # name # "` of `lhs` and `rhs` element by "
      "element. Both operands and the result have the same shape and element "
      "type; the result takes the valid shape of `lhs`. The type list is `: T` "
      "when every type is the same and `: LHS, RHS -> RESULT` otherwise.";
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<OpTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyBinaryElementwise(*this, ElemKind::" # kind # ")">.verifierDef;
}

class PTO_ScalarOp<string prefix, string name, string kind,
                   list<Trait> traits>
    : PTO_Op<prefix # "." # name # "s", traits # [Pure, PTO_ElementwiseOpInterface]> {
  let extraClassDeclaration = PTO_Elementwise<"Scalar", name>.elementwiseDeclaration;
  let summary = "elementwise " # name # " with a scalar";
  let description = "Computes `" # name # "` of each element and `scalar`. "
      "A float scalar goes with float elements, an integer or index scalar "
      "with integer elements; it is converted to the element type first.";
  let assemblyFormat = [{
    $src `,` $scalar attr-dict `:` custom<OpTypes>(type($src), type($scalar), type($result))
  }];
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyScalarElementwise(*this, ElemKind::" # kind # ")">.verifierDef;
}

class PTO_UnaryOp<string prefix, string name, string kind,
                  list<Trait> traits>
    : PTO_Op<prefix # "." # name, traits # [Pure, PTO_ElementwiseOpInterface]> {
  let extraClassDeclaration = PTO_Elementwise<"Unary", name>.elementwiseDeclaration;
  let summary = "elementwise " # name;
  let description = "Computes `" # name # "` of each element; the result "
      "keeps the source's shape, element type and valid shape.";
  let assemblyFormat = [{
    $src attr-dict `:` custom<OpTypes>(type($src), type($result))
  }];
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyUnaryElementwise(*this, ElemKind::" # kind # ")">.verifierDef;
}

// Binary ops: name, element kind, C++ class stem.
defvar PTO_BinaryOps = [
  ["add", "Any", "Add"], ["sub", "Any", "Sub"],
  ["mul", "Any", "Mul"], ["div", "Any", "Div"],
  ["max", "Any", "Max"], ["min", "Any", "Min"],
  ["rem", "Any", "Rem"], ["and", "Integer", "And"],
  ["or", "Integer", "Or"], ["xor", "Integer", "Xor"],
  ["shl", "Integer", "Shl"], ["shr", "Integer", "Shr"]
];

defvar PTO_UnaryOps = [
  ["neg", "Any", "Neg"], ["exp", "Float", "Exp"],
  ["log", "Float", "Log"], ["sqrt", "Float", "Sqrt"],
  ["rsqrt", "Float", "Rsqrt"], ["recip", "Float", "Recip"],
  ["abs", "Any", "Abs"], ["relu", "Any", "Relu"],
  ["not", "Integer", "Not"], ["tanh", "Float", "Tanh"],
  ["sigmoid", "Float", "Sigmoid"], ["erf", "Float", "Erf"]
];

foreach op = PTO_BinaryOps in {
  def PTO_Tile # op[2] # Op
      : PTO_BinaryOp<"tile", op[0], op[1],
                     [PTO_VectorOp]> {
    let arguments = (ins PTO_AnyTile:$lhs, PTO_AnyTile:$rhs);
    let results = (outs PTO_AnyTile:$result);
  }
  def PTO_Tile # op[2] # SOp
      : PTO_ScalarOp<"tile", op[0], op[1],
                     [PTO_VectorOp]> {
    let arguments = (ins PTO_AnyTile:$src, PTO_Scalar:$scalar);
    let results = (outs PTO_AnyTile:$result);
  }
  def PTO_Tensor # op[2] # Op
      : PTO_BinaryOp<"tensor", op[0], op[1],
                     [PTO_OrchestrationOp]> {
    let arguments = (ins PTO_AnyTensor:$lhs, PTO_AnyTensor:$rhs);
    let results = (outs PTO_AnyTensor:$result);
  }
  def PTO_Tensor # op[2] # SOp
      : PTO_ScalarOp<"tensor", op[0], op[1],
                     [PTO_OrchestrationOp]> {
    let arguments = (ins PTO_AnyTensor:$src, PTO_Scalar:$scalar);
    let results = (outs PTO_AnyTensor:$result);
  }
}

foreach op = PTO_UnaryOps in {
  def PTO_Tile # op[2] # Op
      : PTO_UnaryOp<"tile", op[0], op[1],
                    [PTO_VectorOp]> {
    let arguments = (ins PTO_AnyTile:$src);
    let results = (outs PTO_AnyTile:$result);
  }
  def PTO_Tensor # op[2] # Op
      : PTO_UnaryOp<"tensor", op[0], op[1],
                    [PTO_OrchestrationOp]> {
    let arguments = (ins PTO_AnyTensor:$src);
    let results = (outs PTO_AnyTensor:$result);
  }
}

def PTO_TileCastOp : PTO_Op<"tile.cast", [PTO_VectorOp, Pure]> {
  let summary = "convert the element type of a tile";
  let description = [{
    Converts every element; `round` picks the rounding of float results and
    of float-to-integer conversions (default `none`: the target's rint).
  }];
  let arguments = (ins PTO_AnyTile:$src, OptionalAttr<PTO_RoundMode>:$round);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src (`round` $round^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TensorCastOp : PTO_Op<"tensor.cast", [PTO_OrchestrationOp, Pure]> {
  let summary = "convert the element type of a tensor";
  let arguments = (ins PTO_AnyTensor:$src, OptionalAttr<PTO_RoundMode>:$round);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $src (`round` $round^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileCmpOp : PTO_Op<"tile.cmp", [PTO_VectorOp, Pure]> {
  let summary = "elementwise comparison of two tiles into an i1 mask";
  let arguments = (ins PTO_CmpPredicate:$predicate, PTO_AnyTile:$lhs,
                       PTO_AnyTile:$rhs);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` custom<OpTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
}

def PTO_TileCmpSOp : PTO_Op<"tile.cmps", [PTO_VectorOp, Pure]> {
  let summary = "elementwise comparison of a tile with a scalar";
  let arguments = (ins PTO_CmpPredicate:$predicate, PTO_AnyTile:$src,
                       PTO_Scalar:$scalar);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $predicate `,` $src `,` $scalar attr-dict `:` custom<OpTypes>(type($src), type($scalar), type($result))
  }];
  let hasVerifier = 1;
}

def PTO_TileSelOp : PTO_Op<"tile.sel", [PTO_VectorOp, Pure]> {
  let summary = "pick `lhs` where the mask holds, `rhs` elsewhere";
  let arguments = (ins PTO_AnyTile:$mask, PTO_AnyTile:$lhs, PTO_AnyTile:$rhs);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $mask `,` $lhs `,` $rhs attr-dict `:` type($mask) `,`
    custom<OpTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
}

def PTO_TileSelSOp : PTO_Op<"tile.sels", [PTO_VectorOp, Pure]> {
  let summary = "pick the tile's element where the mask holds, the scalar elsewhere";
  let arguments = (ins PTO_AnyTile:$mask, PTO_AnyTile:$src, PTO_Scalar:$scalar);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $mask `,` $src `,` $scalar attr-dict `:` type($mask) `,`
    custom<OpTypes>(type($src), type($scalar), type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and broadcasts
//===----------------------------------------------------------------------===//

class PTO_ReduceOp<string prefix, string name, bit isRow, list<Trait> traits,
                   string function = "">
    : PTO_Op<prefix # "." # name, traits # [Pure, PTO_ElementwiseOpInterface]> {
  let extraClassDeclaration = PTO_Elementwise<
      !if(isRow, "RowReduce", "ColReduce"), function>.elementwiseDeclaration;
  let summary = !if(isRow, "reduce each row", "reduce each column") #
                " (" # name # ")";
  let description = !if(isRow,
      "Reduces the last dimension to extent 1 over the valid region.",
      "Reduces the second-to-last dimension to extent 1 over the valid region.");
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyReduction(*this, " # !if(isRow, "true", "false")
                         # ")">.verifierDef;
}

defvar PTO_Reductions = [["sum", "Sum"], ["max", "Max"], ["min", "Min"],
                         ["prod", "Prod"]];

foreach r = PTO_Reductions in {
  foreach axis = [["row", "Row", "1"], ["col", "Col", "0"]] in {
    def PTO_Tile # axis[1] # r[1] # Op
        : PTO_ReduceOp<"tile", axis[0] # "_" # r[0],
                       !eq(axis[2], "1"), [PTO_VectorOp], r[0]> {
      let arguments = (ins PTO_AnyTile:$src);
      let results = (outs PTO_AnyTile:$result);
    }
    def PTO_Tensor # axis[1] # r[1] # Op
        : PTO_ReduceOp<"tensor", axis[0] # "_" # r[0],
                       !eq(axis[2], "1"), [PTO_OrchestrationOp], r[0]> {
      let arguments = (ins PTO_AnyTensor:$src);
      let results = (outs PTO_AnyTensor:$result);
    }
  }
}

def PTO_TileRowExpandOp : PTO_Op<"tile.row_expand", [PTO_VectorOp, Pure]> {
  let summary = "broadcast an Mx1 tile along each row to MxN";
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyExpand(*this, true)">.verifierDef;
}

def PTO_TileColExpandOp : PTO_Op<"tile.col_expand", [PTO_VectorOp, Pure]> {
  let summary = "broadcast a 1xN tile along each column to MxN";
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyExpand(*this, false)">.verifierDef;
}

class PTO_ExpandBinaryOp<string name, bit isRow>
    : PTO_Op<"tile." # !if(isRow, "row", "col") # "_expand_" # name,
             [PTO_VectorOp, Pure, PTO_ElementwiseOpInterface]> {
  let extraClassDeclaration = PTO_Elementwise<!if(isRow, "RowExpand", "ColExpand"), name>.elementwiseDeclaration;
  let summary = !if(isRow, "combine each row with one value of an Mx1 tile",
                           "combine each column with one value of a 1xN tile")
                # " (" # name # ")";
  let description = !if(!eq(name, "expdif"),
      "Computes `exp(lhs - broadcast(rhs))`, the numerator of a softmax.",
      "Computes `lhs " # name # " broadcast(rhs)` elementwise.");
  let arguments = (ins PTO_AnyTile:$lhs, PTO_AnyTile:$rhs);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<OpTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let extraClassDefinition = PTO_SharedVerifier<"verifyExpandBinary(*this, " #
      !if(isRow, "true", "false") # ", " #
      !if(!eq(name, "expdif"), "ElemKind::Float", "ElemKind::Any") #
      ")">.verifierDef;
}

defvar PTO_ExpandBinaryOps = [["add", "Add"], ["sub", "Sub"], ["mul", "Mul"],
    ["div", "Div"], ["max", "Max"], ["min", "Min"], ["expdif", "ExpDif"]];

foreach op = PTO_ExpandBinaryOps in {
  def PTO_TileRowExpand # op[1] # Op : PTO_ExpandBinaryOp<op[0], 1>;
  def PTO_TileColExpand # op[1] # Op : PTO_ExpandBinaryOp<op[0], 0>;
}

//===----------------------------------------------------------------------===//
// Index sequences, scans, selection, sorting, gather and scatter
//===----------------------------------------------------------------------===//

def PTO_TileIotaOp : PTO_Op<"tile.iota", [PTO_VectorOp, Pure]> {
  let summary = "fill a tile with an index sequence (pto-isa TCI)";
  let description = [{
    Every row of the valid region gets `start + j` in column `j` (or
    `start - j` with `descending`), in the element type; the result's valid
    shape is the whole box. pto-isa's TCI writes this sequence along the
    valid columns of a row; every row receives it here. The element type is
    a 16- or 32-bit integer or float, and `start` has that type.

    ```mlir
    %i = pto.tile.iota %c0 : i32 -> !pto.tile<1x64xi32, vec>
    ```
  }];
  let arguments = (ins PTO_Scalar:$start, UnitAttr:$descending);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $start (`descending` $descending^)? attr-dict `:` type($start) `->` type($result)
  }];
  let hasVerifier = 1;
}

class PTO_ScanOp<string name, bit isRow>
    : PTO_Op<"tile." # name,
             [PTO_VectorOp, Pure, AllTypesMatch<["src", "result"]>,
              DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>]> {
  let summary = !if(isRow, "inclusive prefix sum along each row",
                           "inclusive prefix sum down each column");
  let description = "Element `[i, j]` of the result is the sum of " # !if(isRow, "`src[i, 0..j]`",
      "`src[0..i, j]`") # ", accumulated in order in f32 (int64 for "
      "integers, wrapped) and rounded once, over the valid region; the "
      "result keeps the source's type and valid shape, and its padding is "
      "zero.";
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyScan(*this)">.verifierDef;
}

def PTO_TileRowCumsumOp : PTO_ScanOp<"row_cumsum", 1>;
def PTO_TileColCumsumOp : PTO_ScanOp<"col_cumsum", 0>;

class PTO_ArgReduceOp<string name, string what>
    : PTO_Op<"tile." # name, [PTO_VectorOp, Pure]> {
  let summary = "the " # what # " of each row and its column index";
  let description = "For each valid row: the " # what # " over the valid "
      "columns (NaN ignored unless the whole row is NaN, as `pto.tile.max` "
      "and `min` do; +0 above -0) and, as an i32, the first column whose "
      "element equals it as floats compare (-0 equals +0, as NumPy's "
      "nanargmax finds it; a row of NaN gives column 0). Both results are Mx1 with valid shape [valid rows, 1]. "
      "pto-isa has no single instruction for this (its row reductions give "
      "only the value); kernels build it from a compare and a select.";
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$values, PTO_AnyTile:$indices);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($values) `,` type($indices)
  }];
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifyArgReduce(*this)">.verifierDef;
}

def PTO_TileRowArgmaxOp : PTO_ArgReduceOp<"row_argmax", "maximum">;
def PTO_TileRowArgminOp : PTO_ArgReduceOp<"row_argmin", "minimum">;

def PTO_TileSort32Op : PTO_Op<"tile.sort32", [PTO_VectorOp, Pure]> {
  let summary = "sort each 32-element block of every row (pto-isa TSORT32)";
  let description = [{
    Sorts each block of 32 consecutive valid columns of every valid row in
    descending order, as Ascend C's Sort32 does (larger scores first; of
    equal scores the lower index first; NaN ranks above every number), and
    returns the sorted values and their column indices (i32) in the row.
    The valid column count must be a multiple of 32 (a run-time error
    otherwise). Both results keep the source's valid shape. f16 and f32.

    ```mlir
    %v, %i = pto.tile.sort32 %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x64xf32, vec>, !pto.tile<8x64xi32, vec>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$src);
  let results = (outs PTO_AnyTile:$values, PTO_AnyTile:$indices);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($values) `,` type($indices)
  }];
  let hasVerifier = 1;
}

def PTO_TileMrgSortOp : PTO_Op<"tile.mrgsort",
    [PTO_VectorOp, Pure, AllTypesMatch<["values", "sorted_values"]>,
     AllTypesMatch<["indices", "sorted_indices"]>, DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>]> {
  let summary = "merge pairs of sorted runs of each row (after pto-isa TMRGSORT)";
  let description = [{
    Each valid row holds sorted runs of `block` columns (descending, as
    `pto.tile.sort32` leaves them); every two neighbouring runs are merged
    into one of 2 x `block`, carrying the indices along, with the order of
    `pto.tile.sort32` (a tie takes the left run's element first). A trailing
    run without a neighbour, or a shorter last run, is merged as it is; a
    run that is not sorted is a run-time error. pto-isa's TMRGSORT merges up
    to four sorted lists (its one-tile form, groups of four runs of
    `blockLen`); merging pairs composes the same way: with `block` 32, 64,
    128, ... whole rows end up sorted, so the first k columns are a top-k.
    Results keep the operands' valid shape.

    ```mlir
    %v2, %i2 = pto.tile.mrgsort %v, %i block 32 : !pto.tile<8x64xf32, vec>, !pto.tile<8x64xi32, vec>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$values, PTO_AnyTile:$indices,
                       I64Attr:$block);
  let results = (outs PTO_AnyTile:$sorted_values, PTO_AnyTile:$sorted_indices);
  let assemblyFormat = [{
    $values `,` $indices `block` $block attr-dict `:` type($values) `,` type($indices)
  }];
  let hasVerifier = 1;
}

def PTO_TileGatherOp : PTO_Op<"tile.gather", [PTO_VectorOp, Pure]> {
  let summary = "gather elements by an index tile (pto-isa TGATHER)";
  let description = [{
    `result[i, j] = src.flat[indices[i, j]]` over the valid region of
    `indices`, where `src.flat` numbers the source box row-major; an index
    outside the box gives 0, as pto-isa's reference implementation does.
    The result has the shape and valid shape of `indices` and the element
    type of `src`; indices are i32.

    ```mlir
    %g = pto.tile.gather %src, %idx : !pto.tile<16x16xf32, vec>, !pto.tile<1x16xi32, vec> -> !pto.tile<1x16xf32, vec>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$src, PTO_AnyTile:$indices);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src `,` $indices attr-dict `:` type($src) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileScatterOp : PTO_Op<"tile.scatter",
    [PTO_VectorOp, Pure, AllTypesMatch<["dst", "result"]>, DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>]> {
  let summary = "scatter rows of elements by an index tile (pto-isa TSCATTER)";
  let description = [{
    As pto-isa's TSCATTER, each index names a destination row: the result is
    `dst` with `result[indices[i, j], j] = src[i, j]` for each element of
    the valid region of `src`, in row-major order (of two writes to one
    place the later wins, as TSCATTER's implementation does). pto-isa does
    not check the indices; here an index outside the destination's rows
    writes nothing. `src` and `indices` have the same shape, `dst` the same
    number of columns; indices are i32. The result keeps `dst`'s valid
    shape.

    ```mlir
    %d = pto.tile.scatter %src, %idx into %dst : !pto.tile<4x16xf32, vec>, !pto.tile<4x16xi32, vec> into !pto.tile<8x16xf32, vec>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$src, PTO_AnyTile:$indices,
                       PTO_AnyTile:$dst);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $src `,` $indices `into` $dst attr-dict `:` type($src) `,` type($indices) `into` type($dst)
  }];
  let hasVerifier = 1;
}

def PTO_TileValidDimOp : PTO_Op<"tile.valid_dim", [PTO_InCoreOp, Tilekit_OnPipe<"S">, Pure]> {
  let summary = "the runtime valid extent of a tile along one dimension";
  let description = [{
    Reads the tile's valid shape (its runtime metadata, pto-isa's
    GetValidRow / GetValidCol) along `dim`.

    ```mlir
    %rows = pto.tile.valid_dim %t, 0 : !pto.tile<16x64xf32, vec>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$src, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$src `,` $dim attr-dict `:` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cube ops
//===----------------------------------------------------------------------===//

def PTO_TileMatmulOp : PTO_Op<"tile.matmul", [PTO_CubeOp, Pure]> {
  let summary = "C = A @ B on the cube unit";
  let description = [{
    `lhs` lives in `left` (L0A), `rhs` in `right` (L0B) and the result in
    `acc` (L0C). Products accumulate in f32 (i32 for i8 inputs).

    ```mlir
    %c = pto.tile.matmul %a, %b : !pto.tile<64x32xf16, left>, !pto.tile<32x128xf16, right> -> !pto.tile<64x128xf32, acc>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$lhs, PTO_AnyTile:$rhs);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileMatmulAccOp : PTO_Op<"tile.matmul_acc", [PTO_CubeOp, Pure]> {
  let summary = "C = acc + A @ B, or A @ B where `init_cond` holds";
  let description = [{
    Accumulates into `acc`. The optional `init_cond` is the MAD's
    accumulator-init bit: where it is true the op overwrites the accumulator
    instead (the first K step of a tiled GEMM). A constant `init_cond`
    canonicalizes to the arm it selects: `true` to `pto.tile.matmul`,
    `false` to an accumulation without the operand.

    ```mlir
    %c1 = pto.tile.matmul_acc %c0, %a, %b init %is_first
        : !pto.tile<64x128xf32, acc>, !pto.tile<64x32xf16, left>, !pto.tile<32x128xf16, right>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$acc, PTO_AnyTile:$lhs, PTO_AnyTile:$rhs,
                       Optional<I1>:$init_cond);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs (`init` $init_cond^)? attr-dict `:`
    custom<AccTypes>(type($acc), type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def PTO_TileMatmulBiasOp : PTO_Op<"tile.matmul_bias", [PTO_CubeOp, Pure]> {
  let summary = "C = A @ B + bias (bias is a 1xN tile in the bias table)";
  let arguments = (ins PTO_AnyTile:$lhs, PTO_AnyTile:$rhs, PTO_AnyTile:$bias);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $bias attr-dict `:` type($lhs) `,` type($rhs) `,`
    type($bias) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileBatchMatmulOp : PTO_Op<"tile.batch_matmul", [PTO_CubeOp, Pure]> {
  let summary = "a batch of matmuls over the leading dimension";
  let arguments = (ins PTO_AnyTile:$lhs, PTO_AnyTile:$rhs);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileBatchMatmulAccOp
    : PTO_Op<"tile.batch_matmul_acc", [PTO_CubeOp, Pure]> {
  let summary = "a batch of accumulating matmuls, with optional `init_cond`";
  let arguments = (ins PTO_AnyTile:$acc, PTO_AnyTile:$lhs, PTO_AnyTile:$rhs,
                       Optional<I1>:$init_cond);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs (`init` $init_cond^)? attr-dict `:`
    custom<AccTypes>(type($acc), type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def PTO_TileGemvOp : PTO_Op<"tile.gemv", [PTO_CubeOp, Pure]> {
  let summary = "a matmul whose left operand has one row (M = 1)";
  let arguments = (ins PTO_AnyTile:$lhs, PTO_AnyTile:$rhs);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TileGemvAccOp : PTO_Op<"tile.gemv_acc", [PTO_CubeOp, Pure]> {
  let summary = "an accumulating GEMV, with optional `init_cond`";
  let arguments = (ins PTO_AnyTile:$acc, PTO_AnyTile:$lhs, PTO_AnyTile:$rhs,
                       Optional<I1>:$init_cond);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs (`init` $init_cond^)? attr-dict `:`
    custom<AccTypes>(type($acc), type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Cross-core pipes
//===----------------------------------------------------------------------===//

/// A cross-core transfer: its pipe is the one its data path takes (the pop
/// records the transfer in the trace).
class PTO_CrossCoreOp<string name, string placement, bit allowOdd,
                      list<Trait> traits = []>
    : PTO_Op<"tile." # name, traits # [Tilekit_Transfer, PTO_CrossCoreTransfer]> {
  let hasVerifier = 1;
  let extraClassDefinition = PTO_SharedVerifier<"verifyCrossCore(*this, "
      # placement # ", " # !if(allowOdd, "true", "false") # ")">.verifierDef;
}

def PTO_TPushToAivOp
    : PTO_CrossCoreOp<"tpush_to_aiv", "FunctionKind::AIC", 1,
                      [MemoryEffects<[MemWrite]>]> {
  let summary = "send a tile from the cube core to the vector lanes";
  let description = [{
    Split codes: 0 none (one queue, or a copy to both lanes under dual
    dispatch), 1 up/down (dim 0), 2 left/right (dim 1), 3 and 4 the same
    axes over an odd valid extent. The box is cut at its half (the box
    extent must be even) and each lane keeps the part of the valid region
    that falls in its half, possibly none. For the odd codes `lane_stride`
    moves the cut to a rebalanced boundary, and lane 0 must end up with
    exactly one valid cell more than lane 1 (a run-time error otherwise).

    ```mlir
    pto.tile.tpush_to_aiv %t split 1 : !pto.tile<64x128xf32, vec>
    ```
  }];
  let arguments = (ins PTO_AnyTile:$tile, PTO_SplitCode:$split,
                       OptionalAttr<I64Attr>:$lane_stride,
                       DefaultValuedAttr<I32Attr, "0">:$pipe_id);
  let assemblyFormat = [{
    $tile `split` custom<SplitCode>($split) (`lane_stride` $lane_stride^)? (`pipe` $pipe_id^)?
    attr-dict `:` type($tile)
  }];
}

def PTO_TPushToAicOp
    : PTO_CrossCoreOp<"tpush_to_aic", "FunctionKind::AIV", 0,
                      [MemoryEffects<[MemWrite]>]> {
  let summary = "send a tile from a vector lane to the cube core";
  let description = [{
    Split codes 0–2 only: the machine has no odd vector-to-cube transport.
  }];
  let arguments = (ins PTO_AnyTile:$tile, PTO_SplitCode:$split,
                       DefaultValuedAttr<I32Attr, "0">:$pipe_id);
  let assemblyFormat = [{
    $tile `split` custom<SplitCode>($split) (`pipe` $pipe_id^)? attr-dict `:` type($tile)
  }];
}

def PTO_TPopFromAicOp
    : PTO_CrossCoreOp<"tpop_from_aic", "FunctionKind::AIV", 1,
                      [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "receive on a vector lane a tile the cube core sent";
  let arguments = (ins PTO_SplitCode:$split,
                       DefaultValuedAttr<I32Attr, "0">:$pipe_id);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    `split` custom<SplitCode>($split) (`pipe` $pipe_id^)? attr-dict `:` type($result)
  }];
}

def PTO_TPopFromAivOp
    : PTO_CrossCoreOp<"tpop_from_aiv", "FunctionKind::AIC", 0,
                      [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "receive on the cube core the tile(s) the vector lanes sent";
  let description = [{
    With split 1 or 2 it waits until both lanes have pushed and merges their
    halves, the exact inverse of a split: the boxes are concatenated and the
    valid extent is lane 0's plus lane 1's, which needs lane 0 to be full
    whenever lane 1 holds valid data (a run-time error otherwise). Split
    codes 0–2 only.
  }];
  let arguments = (ins PTO_SplitCode:$split,
                       DefaultValuedAttr<I32Attr, "0">:$pipe_id);
  let results = (outs PTO_AnyTile:$result);
  let assemblyFormat = [{
    `split` custom<SplitCode>($split) (`pipe` $pipe_id^)? attr-dict `:` type($result)
  }];
}

class PTO_IndexQueryOp<string name, string what>
    : PTO_Op<"tile." # name, [PTO_InCoreOp, Tilekit_OnPipe<"S">, Pure]> {
  let summary = what;
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def PTO_GetSubblockIdxOp : PTO_IndexQueryOp<"get_subblock_idx",
    "the vector lane running this code (0 on the cube core)">;
def PTO_GetBlockIdxOp : PTO_IndexQueryOp<"get_block_idx",
    "the index of this block of the launch">;
def PTO_GetBlockNumOp : PTO_IndexQueryOp<"get_block_num",
    "the number of blocks of the launch">;

//===----------------------------------------------------------------------===//
// Tensor ops (orchestration)
//===----------------------------------------------------------------------===//

def PTO_TensorCreateOp : PTO_Op<"tensor.create",
    [PTO_OrchestrationOp, MemoryEffects<[MemAlloc]>]> {
  let summary = "a new GM tensor; one size operand per dynamic dimension";
  let arguments = (ins Variadic<Index>:$sizes);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = "(`[` $sizes^ `]`)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def PTO_TensorFullOp : PTO_Op<"tensor.full",
    [PTO_OrchestrationOp, MemoryEffects<[MemAlloc]>]> {
  let summary = "a new GM tensor filled with one scalar";
  let arguments = (ins PTO_Scalar:$value, Variadic<Index>:$sizes);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $value (`[` $sizes^ `]`)? attr-dict `:` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TensorViewOp : PTO_Op<"tensor.view", [PTO_OrchestrationOp, Pure]> {
  let summary = "the same GM data seen with another shape";
  let description = [{
    The result holds the source's elements in the same row-major order with
    the result type's extents; `sizes` gives its dynamic extents (one per
    `?`, in order). The element counts must agree (checked here when both
    shapes are static, when the kernel runs otherwise). No data moves: a
    view is how an orchestration hands an in-core function a 2-d view of a
    3-d tensor, say. It compiles to `ascendc.global_tensor.reshape` (the same
    address; a work item's call passes the view's extents).

    ```mlir
    %rows = arith.muli %s, %c12 : index
    %flat = pto.tensor.view %x[%rows] : !pto.tensor<?x12x128xf32> -> !pto.tensor<?x128xf32>
    ```
  }];
  let arguments = (ins PTO_AnyTensor:$src, Variadic<Index>:$sizes);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $src (`[` $sizes^ `]`)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TensorSliceOp : PTO_Op<"tensor.slice",
    [PTO_OrchestrationOp, Pure, AttrSizedOperandSegments]> {
  let summary = "a box of a tensor, materialized even past the edge";
  let arguments = (ins PTO_AnyTensor:$src, Variadic<Index>:$offsets,
                       Variadic<Index>:$valid_shape);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $src `[` $offsets `]` (`valid` ` ` `[` $valid_shape^ `]`)? attr-dict
    `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TensorAssembleOp : PTO_Op<"tensor.assemble",
    [PTO_OrchestrationOp, AllTypesMatch<["dst", "result"]>,
     MemoryEffects<[MemWrite]>]> {
  let summary = "write a tensor into another at an offset";
  let arguments = (ins PTO_AnyTensor:$src, PTO_AnyTensor:$dst,
                       Variadic<Index>:$offsets);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $src `into` $dst `[` $offsets `]` attr-dict `:` type($src) `into` type($dst)
  }];
  let hasVerifier = 1;
}

def PTO_TensorDimOp : PTO_Op<"tensor.dim", [Tilekit_NoPipe, Pure]> {
  let summary = "the extent of one dimension of a GM tensor";
  let description = [{
    Works in any function, so that orchestration loops and in-core kernels
    can size themselves from dynamic tensors.

    ```mlir
    %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x128xf32>
    ```
  }];
  let arguments = (ins PTO_AnyTensor:$src, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$src `,` $dim attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def PTO_TensorReadOp : PTO_Op<"tensor.read",
    [PTO_OrchestrationOp, MemoryEffects<[MemRead]>,
     TypesMatchWith<"result is the tensor's element type", "src", "result",
                    "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">]> {
  let summary = "read one element of a tensor";
  let arguments = (ins PTO_AnyTensor:$src, Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def PTO_TensorWriteOp : PTO_Op<"tensor.write",
    [PTO_OrchestrationOp, AllTypesMatch<["dst", "result"]>,
     MemoryEffects<[MemWrite]>,
     TypesMatchWith<"value is the tensor's element type", "dst", "value",
                    "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">]> {
  let summary = "write one element of a tensor";
  let arguments = (ins AnyType:$value, PTO_AnyTensor:$dst,
                       Variadic<Index>:$indices);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $value `,` $dst `[` $indices `]` attr-dict `:` type($dst)
  }];
  let hasVerifier = 1;
}

def PTO_TensorMatmulOp : PTO_Op<"tensor.matmul", [PTO_OrchestrationOp, Pure]> {
  let summary = "matmul of GM tensors (optionally transposed operands)";
  let description = [{
    `a_trans` / `b_trans` transpose the last two dimensions of an operand;
    the result element type is the op's `out_dtype`. Leading (batch)
    dimensions must agree.
  }];
  let arguments = (ins PTO_AnyTensor:$lhs, PTO_AnyTensor:$rhs,
                       UnitAttr:$a_trans, UnitAttr:$b_trans);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def PTO_TensorMatmulAccOp
    : PTO_Op<"tensor.matmul_acc", [PTO_OrchestrationOp, Pure]> {
  let summary = "acc + lhs @ rhs, or lhs @ rhs where `init_cond` holds";
  let arguments = (ins PTO_AnyTensor:$acc, PTO_AnyTensor:$lhs,
                       PTO_AnyTensor:$rhs, Optional<I1>:$init_cond,
                       UnitAttr:$a_trans, UnitAttr:$b_trans);
  let results = (outs PTO_AnyTensor:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs (`init` $init_cond^)? attr-dict `:`
    custom<AccTypes>(type($acc), type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// System ops: pipe synchronization and pipe-buffer setup
//===----------------------------------------------------------------------===//

class PTO_SyncOp<string name, string what>
    : PTO_Op<"system." # name, [PTO_InCoreOp, Tilekit_NoPipe]> {
  let summary = what;
  let arguments = (ins PTO_Pipe:$set_pipe, PTO_Pipe:$wait_pipe,
                       I32Attr:$event_id);
  let assemblyFormat = [{
    $set_pipe `->` $wait_pipe `,` `event` $event_id attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDefinition =
      PTO_SharedVerifier<"verifySync(*this)">.verifierDef;
}

def PTO_SyncSrcOp : PTO_SyncOp<"sync_src",
    "set the flag `event_id` when `set_pipe` has finished its work so far">;
def PTO_SyncDstOp : PTO_SyncOp<"sync_dst",
    "stall `wait_pipe` until the flag `event_id` from `set_pipe` is set">;

class PTO_BarrierOp<string name, string what>
    : PTO_Op<"system." # name, [PTO_InCoreOp, Tilekit_NoPipe]> {
  let summary = what;
  let assemblyFormat = "attr-dict";
}

def PTO_BarVOp : PTO_BarrierOp<"bar_v", "barrier on the vector pipe">;
def PTO_BarMOp : PTO_BarrierOp<"bar_m", "barrier on the cube pipe">;
def PTO_BarAllOp : PTO_BarrierOp<"bar_all", "barrier on every pipe">;

class PTO_InitializePipeOp<string name, string core>
    : PTO_Op<"system." # name # "_initialize_pipe", [Tilekit_NoPipe]> {
  let summary = "set up the " # core # " end of cross-core pipe `pipe_id`";
  let description = [{
    Reserves `slot_num` slots of `slot_size` bytes for the pipe's queue in
    the directions `dir` names. Cross-core pushes block when every slot is
    full.
  }];
  let arguments = (ins I32Attr:$pipe_id, PTO_PipeDirection:$dir,
                       I64Attr:$slot_size, I64Attr:$slot_num);
  let assemblyFormat = [{
    $pipe_id $dir `slot_num` $slot_num `slot_size` $slot_size attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDefinition = PTO_SharedVerifier<
      "verifyInitializePipe(*this, FunctionKind::" # core # ")">.verifierDef;
}

def PTO_AicInitializePipeOp : PTO_InitializePipeOp<"aic", "AIC">;
def PTO_AivInitializePipeOp : PTO_InitializePipeOp<"aiv", "AIV">;

include "tilekit/Dialect/PTO/IR/PTORegScopeOps.td"

#endif // TILEKIT_DIALECT_PTO_IR_PTOOPS_TD
