//===- PTORegScopeOps.td - Register scopes and vector-register ops -*- tablegen -*-===//
//
// A register scope is straight-line vector-core code over 64-lane f32
// registers, reading and writing the UB bytes of the tiles it captures.
// `tilekit compile --emit=vf-bundle` outlines each scope into a separately
// compiled helper (docs/vector-functions.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_DIALECT_PTO_IR_PTOREGSCOPEOPS_TD
#define TILEKIT_DIALECT_PTO_IR_PTOREGSCOPEOPS_TD

/// A vector register: 64 f32 lanes.
def PTO_VReg : Type<CPred<"::tilekit::pto::isVectorRegister($_self)">,
                    "a 64-lane f32 vector register", "::mlir::VectorType">,
               BuildableType<"::mlir::VectorType::get({64}, $_builder.getF32Type())">;
/// A lane mask: one bit per lane of a vector register.
def PTO_VMask : Type<CPred<"::tilekit::pto::isLaneMask($_self)">,
                     "a 64-lane mask", "::mlir::VectorType">,
                BuildableType<"::mlir::VectorType::get({64}, $_builder.getI1Type())">;

def PTO_RegScopeOp : PTO_Op<"reg_scope",
    [PTO_VectorOp, Pure, IsolatedFromAbove, SingleBlock,
     DeclareOpInterfaceMethods<PTO_SharedStorageOpInterface>]> {
  let summary = "straight-line vector-register code over captured tiles";
  let description = [{
    The body runs once, on the vector core, over 64-lane f32 registers. Its
    block arguments are the captures: tiles (f32, in UB) that its loads and
    stores address, and scalars (index, integers, f32) that masks and
    broadcasts use. Loads and stores address a tile's elements at a static
    offset from the tile's origin; tiles whose planned addresses overlap
    alias, inside the scope as outside.

    Every tile the body stores into is yielded, in the order of the
    results: a result lives in the storage of the capture it yields (memory
    planning ties the two) and holds the tile as the scope left it. Masked
    stores leave inactive lanes unchanged.

    ```mlir
    %z1 = pto.reg_scope (%x, %z, %n)
        : (!pto.tile<1x128xf32, vec>, !pto.tile<1x128xf32, vec>, index)
        -> !pto.tile<1x128xf32, vec> {
    ^bb0(%xs: !pto.tile<1x128xf32, vec>, %zs: !pto.tile<1x128xf32, vec>,
         %ns: index):
      %a = pto.vreg.load %xs[0] : !pto.tile<1x128xf32, vec>
      %m = pto.vreg.runtime_mask %ns from 0 : index
      pto.vreg.store %a, %zs[0] mask %m : !pto.tile<1x128xf32, vec>
      pto.reg_scope.yield %zs : !pto.tile<1x128xf32, vec>
    }
    ```

    The body is straight-line: only `pto.vreg.*` ops and the yield. Unroll
    static loops and compute scalars outside, then capture them.
  }];
  let arguments = (ins Variadic<AnyType>:$captures);
  let results = (outs Variadic<PTO_AnyTile>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $captures `)` attr-dict `:` functional-type($captures, $results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The capture (block argument) each result yields.
    ::mlir::BlockArgument getYieldedCapture(unsigned result);
    /// Whether a store in the body writes block argument `capture`.
    bool isStoredInto(::mlir::BlockArgument capture);
  }];
}

def PTO_RegScopeYieldOp : PTO_Op<"reg_scope.yield",
    [Pure, Terminator, HasParent<"RegScopeOp">, Tilekit_NoPipe]> {
  let summary = "the tiles a register scope wrote, as its results";
  let arguments = (ins Variadic<PTO_AnyTile>:$tiles);
  let assemblyFormat = "($tiles^ `:` type($tiles))? attr-dict";
}

class PTO_VRegOp<string name, list<Trait> traits = []>
    : PTO_Op<"vreg." # name,
             !listconcat([HasParent<"RegScopeOp">, Tilekit_NoPipe], traits)>;

def PTO_VRegLoadOp : PTO_VRegOp<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "load 64 consecutive f32 elements of a captured tile";
  let description = [{
    Reads elements `offset` to `offset + 63` of the tile (row-major, from its
    origin). The offset is static and a multiple of 8 (32 bytes).
  }];
  let arguments = (ins PTO_AnyTile:$tile, I64Attr:$offset);
  let results = (outs PTO_VReg:$result);
  let assemblyFormat = "$tile `[` $offset `]` attr-dict `:` type($tile)";
  let hasVerifier = 1;
}

def PTO_VRegStoreOp : PTO_VRegOp<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a register into 64 consecutive elements of a tile";
  let description = [{
    Writes the register's lanes to elements `offset` to `offset + 63`; with
    a mask, only active lanes are written and the others keep their value.
  }];
  let arguments = (ins PTO_VReg:$value, PTO_AnyTile:$tile, I64Attr:$offset,
                       Optional<PTO_VMask>:$mask);
  let assemblyFormat = [{
    $value `,` $tile `[` $offset `]` (`mask` $mask^)? attr-dict `:` type($tile)
  }];
  let hasVerifier = 1;
}

class PTO_VRegBinaryOp<string name, string what>
    : PTO_VRegOp<name, [Pure]> {
  let summary = "lanewise " # what;
  let arguments = (ins PTO_VReg:$lhs, PTO_VReg:$rhs);
  let results = (outs PTO_VReg:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict";
}
def PTO_VRegAddOp : PTO_VRegBinaryOp<"add", "sum">;
def PTO_VRegSubOp : PTO_VRegBinaryOp<"sub", "difference">;
def PTO_VRegMulOp : PTO_VRegBinaryOp<"mul", "product">;
def PTO_VRegDivOp : PTO_VRegBinaryOp<"div", "quotient">;
def PTO_VRegMaxOp
    : PTO_VRegBinaryOp<"max", "maximum (`lhs > rhs ? lhs : rhs`)">;
def PTO_VRegMinOp
    : PTO_VRegBinaryOp<"min", "minimum (`lhs < rhs ? lhs : rhs`)">;

def PTO_VRegBroadcastOp : PTO_VRegOp<"broadcast", [Pure]> {
  let summary = "a captured f32 scalar in every lane";
  let arguments = (ins F32:$scalar);
  let results = (outs PTO_VReg:$result);
  let assemblyFormat = "$scalar attr-dict `:` type($scalar)";
}

def PTO_VRegCmpOp : PTO_VRegOp<"cmp", [Pure]> {
  let summary = "lanewise comparison into a mask";
  let arguments = (ins PTO_CmpPredicate:$predicate, PTO_VReg:$lhs,
                       PTO_VReg:$rhs);
  let results = (outs PTO_VMask:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict";
}

def PTO_VRegSelectOp : PTO_VRegOp<"select", [Pure]> {
  let summary = "`lhs` in the mask's active lanes, `rhs` in the others";
  let arguments = (ins PTO_VMask:$mask, PTO_VReg:$lhs, PTO_VReg:$rhs);
  let results = (outs PTO_VReg:$result);
  let assemblyFormat = "$mask `,` $lhs `,` $rhs attr-dict";
}

def PTO_VRegPrefixMaskOp : PTO_VRegOp<"prefix_mask", [Pure]> {
  let summary = "the first `count` lanes active (0 to 64)";
  let arguments = (ins I64Attr:$count);
  let results = (outs PTO_VMask:$result);
  let assemblyFormat = "$count attr-dict";
  let hasVerifier = 1;
}

def PTO_VRegSuffixMaskOp : PTO_VRegOp<"suffix_mask", [Pure]> {
  let summary = "the last `count` lanes active (0 to 64)";
  let arguments = (ins I64Attr:$count);
  let results = (outs PTO_VMask:$result);
  let assemblyFormat = "$count attr-dict";
  let hasVerifier = 1;
}

def PTO_VRegRuntimeMaskOp : PTO_VRegOp<"runtime_mask", [Pure]> {
  let summary = "the lanes below a runtime element count";
  let description = [{
    Lane `l` is active when `base + l < count`: with `count` a captured
    element count and `base` the first element the register covers, the
    mask selects the lanes that hold data (none when `count <= base`, all
    when `count >= base + 64`).
  }];
  let arguments = (ins AnySignlessIntegerOrIndex:$count, I64Attr:$base);
  let results = (outs PTO_VMask:$result);
  let assemblyFormat = "$count `from` $base attr-dict `:` type($count)";
}

#endif // TILEKIT_DIALECT_PTO_IR_PTOREGSCOPEOPS_TD
