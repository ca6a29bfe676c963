//===- AscendCOps.td - AscendC operations -------------------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_ASCENDC_IR_ASCENDCOPS_TD
#define TILEKIT_DIALECT_ASCENDC_IR_ASCENDCOPS_TD

include "tilekit/Dialect/AscendC/IR/AscendCTypes.td"
include "tilekit/Dialect/AscendC/IR/AscendCInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "tilekit/Interfaces/PipeOpInterface.td"

def AscendC_LocalTensor : Type<CPred<"::llvm::isa<::tilekit::ascendc::LocalTensorType>($_self)">,
                               "local tensor", "::tilekit::ascendc::LocalTensorType">;
def AscendC_GlobalTensor : Type<CPred<"::llvm::isa<::tilekit::ascendc::GlobalTensorType>($_self)">,
                                "global tensor", "::tilekit::ascendc::GlobalTensorType">;
def AscendC_AnyTensor : AnyTypeOf<[AscendC_LocalTensor, AscendC_GlobalTensor]>;
// The scalar operand of a vector instruction: a number in a register.
def AscendC_VectorScalar : AnyTypeOf<[AnyInteger, AnyFloat, Index],
    "an integer, float or index scalar">;

// Operands an instruction reads or writes (its memory effects).
def AscendC_ReadLocal : Arg<AscendC_LocalTensor, "read", [MemRead]>;
def AscendC_WrittenLocal : Arg<AscendC_LocalTensor, "written", [MemWrite]>;
def AscendC_UpdatedLocal
    : Arg<AscendC_LocalTensor, "read and written", [MemRead, MemWrite]>;
// The scratch an advanced-API call writes (`sharedTmpBuffer`), once planned.
def AscendC_Scratch
    : Arg<Optional<AscendC_LocalTensor>, "scratch", [MemWrite]>;
def AscendC_ReadAny : Arg<AscendC_AnyTensor, "read", [MemRead]>;
def AscendC_WrittenAny : Arg<AscendC_AnyTensor, "written", [MemWrite]>;


//===----------------------------------------------------------------------===//
// Local and global tensors
//===----------------------------------------------------------------------===//

def AscendC_LocalTensorAutoOp : AscendC_Op<"local_tensor_auto", [Tilekit_NoPipe]> {
  let summary = "a local tensor awaiting an address";
  let description = [{
    A placeholder for a local tensor at `position`; memory planning
    (`ascendc-allocate-tensor`) gives it an address. `input` / `output` mark
    tensors that hold data loaded from or stored to GM, which lifetime-based
    reuse treats specially.

    ```mlir
    %x = ascendc.local_tensor_auto veccalc input : !ascendc.local_tensor<64x128xf32>
    ```
  }];
  let arguments = (ins AscendC_Position:$position, UnitAttr:$input,
                       UnitAttr:$output);
  let results = (outs AscendC_LocalTensor:$result);
  let assemblyFormat = [{
    $position (`input` $input^)? (`output` $output^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def AscendC_LocalTensorOp : AscendC_Op<"local_tensor", [Tilekit_NoPipe, Pure]> {
  let summary = "a local tensor at a planned address";
  let description = [{
    A local tensor at `position`, `addr` bytes into its buffer, occupying
    `size` bytes (the tensor's bytes rounded as its buffer requires).

    ```mlir
    %x = ascendc.local_tensor veccalc addr 0 size 32768 : !ascendc.local_tensor<64x128xf32>
    ```
  }];
  let arguments = (ins AscendC_Position:$position,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$addr,
                       ConfinedAttr<I64Attr, [IntPositive]>:$size,
                       UnitAttr:$input, UnitAttr:$output);
  let results = (outs AscendC_LocalTensor:$result);
  let assemblyFormat = [{
    $position `addr` $addr `size` $size (`input` $input^)? (`output` $output^)?
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def AscendC_TBufGetTensorOp : AscendC_Op<"tbuf_get_tensor", [Tilekit_NoPipe]> {
  let summary = "a local tensor backed by a TPipe-managed TBuf";
  let description = [{
    A local tensor whose storage the Ascend C runtime's TPipe manages (the
    buffer-backed allocation strategy); memory planning leaves it alone.
  }];
  let arguments = (ins AscendC_Position:$position);
  let results = (outs AscendC_LocalTensor:$result);
  let assemblyFormat = "$position attr-dict `:` type($result)";
}

def AscendC_ReinterpretCastOp : AscendC_Op<"reinterpret_cast", [Tilekit_NoPipe, Pure]> {
  let summary = "views a local tensor's storage as another local tensor";
  let description = [{
    The result shares the source's position and address, or starts an
    element `offset` (of the source's element type) into it, as Ascend C's
    `tensor[offset]`; it may not reach past the source's end (checked here
    for a constant offset, when the kernel runs otherwise).

    ```mlir
    %part = ascendc.reinterpret_cast %box[%c32] : !ascendc.local_tensor<8x8xf32> to !ascendc.local_tensor<32xf32>
    ```
  }];
  let arguments = (ins AscendC_LocalTensor:$source, Optional<Index>:$offset);
  let results = (outs AscendC_LocalTensor:$result);
  let assemblyFormat = [{
    $source (`[` $offset^ `]`)? attr-dict `:` type($source) `to` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$source), [{
      build($_builder, $_state, result, source, ::mlir::Value());
    }]>
  ];
  let hasVerifier = 1;
}

def AscendC_GlobalSubIndexOp : AscendC_Op<"global_tensor.subindex", [Tilekit_NoPipe, Pure]> {
  let summary = "the GM tensor that starts at an element offset of another";
  let arguments = (ins AscendC_GlobalTensor:$source, Index:$offset);
  let results = (outs AscendC_GlobalTensor:$result);
  let assemblyFormat = [{
    $source `[` $offset `]` attr-dict `:` type($source) `to` type($result)
  }];
}

def AscendC_GlobalReshapeOp : AscendC_Op<"global_tensor.reshape", [Tilekit_NoPipe, Pure]> {
  let summary = "the same GM elements seen with another shape";
  let description = [{
    The result starts where the source does and holds its elements in the
    same row-major order; `sizes` are the result's dynamic extents, in
    order. The element counts must agree (checked here when both shapes
    are static, when the kernel runs otherwise). In C++ it is the same
    `GlobalTensor` (an address); `global_tensor.dim` of it reads `sizes`.

    ```mlir
    %rows = ascendc.global_tensor.reshape %x[%n] : !ascendc.global_tensor<?x12x128xf32> to !ascendc.global_tensor<?x128xf32>
    ```
  }];
  let arguments = (ins AscendC_GlobalTensor:$source, Variadic<Index>:$sizes);
  let results = (outs AscendC_GlobalTensor:$result);
  let assemblyFormat = [{
    $source (`[` $sizes^ `]`)? attr-dict `:` type($source) `to` type($result)
  }];
  let hasVerifier = 1;
}

def AscendC_GlobalReadOp : AscendC_Op<"global_tensor.read",
    [Tilekit_NoPipe, MemoryEffects<[MemRead]>]> {
  let summary = "the host reads one element of a GM tensor between launches";
  let description = [{
    Only in a host function (an orchestration): the host waits for the
    launches before it to finish and copies the element at `indices` (one
    per dimension, row-major) from device memory (on the machine,
    `aclrtSynchronizeStream` then `aclrtMemcpy` device to host). A host
    that reads between its work items keeps one launch per work item
    (`ascendc-form-launch`).

    ```mlir
    %n = ascendc.global_tensor.read %counts[%c0] : !ascendc.global_tensor<16xi32> -> i32
    ```
  }];
  let arguments = (ins AscendC_GlobalTensor:$source, Variadic<Index>:$indices);
  let results = (outs AnyTypeOf<[AnyInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def AscendC_GlobalDimOp : AscendC_Op<"global_tensor.dim", [Tilekit_NoPipe, Pure]> {
  let summary = "the extent of one dimension of a GM tensor";
  let description = [{
    On the machine the extents of a kernel's tensors reach it as tiling
    data from the host; here they are read off the bound tensor.

    ```mlir
    %rows = ascendc.global_tensor.dim %x, 0 : !ascendc.global_tensor<?x128xf32>
    ```
  }];
  let arguments = (ins AscendC_GlobalTensor:$source,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$source `,` $dim attr-dict `:` type($source)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The value a run-time extent is when the op that made the source
    /// gave it (a reshape's or a workspace region's sizes); null otherwise.
    ::mlir::Value getGivenExtent();
  }];
}

def AscendC_WorkspaceOp : AscendC_Op<"workspace", [Tilekit_NoPipe]> {
  let summary = "a GM scratch tensor of the kernel's workspace";
  let description = [{
    A region of the workspace the host allocates for the kernel (Ascend C's
    `GM_ADDR workspace` argument, `GetUserWorkspace`); each op is its own
    region. Both cores of a mixed kernel see the same tensor, which is how
    tiles cross between them through GM. It holds zeros when the kernel
    starts.

    A region may have extents known only at run time, given as `sizes` (one
    per `?` of the type, in order), as `pto.tensor.create` gives them. The
    host computes them before it launches, so they are made from the
    kernel's scalar arguments, the extents of its GM arguments and
    constants (the host code checks this). Regions of static shape come
    first in the workspace, each at the bytes of those before it; regions of
    run-time shape follow, in order, at offsets the kernel computes.

    ```mlir
    %ws = ascendc.workspace : !ascendc.global_tensor<64x64xf32>
    %rows = ascendc.global_tensor.dim %x, 0 : !ascendc.global_tensor<?x64xf32>
    %out = ascendc.workspace [%rows] : !ascendc.global_tensor<?x64xf32>
    ```
  }];
  let arguments = (ins Variadic<Index>:$sizes);
  let results = (outs AscendC_GlobalTensor:$result);
  let assemblyFormat = "(`[` $sizes^ `]`)? attr-dict `:` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Type":$type), [{
    build($_builder, $_state, type, ::mlir::ValueRange());
  }]>];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes a region of static shape takes in the workspace: its
    /// elements, rounded up to 32 bytes (the next region starts aligned).
    int64_t getRegionBytes();
    /// Whether the region's extents are known only at run time.
    bool isDynamic() { return !getSizes().empty(); }
    /// Where the region starts in the workspace when that is known before
    /// the kernel runs: the static regions of its block before it. A
    /// region of run-time shape starts after all static ones and after the
    /// run-time regions before it (getDynamicRegionsBefore).
    int64_t getStaticOffset();
    /// The regions (workspace ops) of run-time shape before this one in
    /// its block.
    ::llvm::SmallVector<::mlir::Operation *> getDynamicRegionsBefore();
    /// The ops that compute the sizes, operands first, into `ops`, when
    /// they are made of constants, arith ops, the function's scalar
    /// arguments and the extents of its GM arguments: what the host has
    /// before it launches. Otherwise the op that is not (nothing appended).
    ::mlir::Operation *
    getSizeComputation(::llvm::SmallVectorImpl<::mlir::Operation *> &ops);
  }];
}

//===----------------------------------------------------------------------===//
// Data movement and the cube
//===----------------------------------------------------------------------===//

def AscendC_DataCopyOp : AscendC_Op<"data_copy", [Tilekit_Transfer,
                                                   AttrSizedOperandSegments]> {
  let summary = "copies between GM and local tensors";
  let description = [{
    Copies `count` elements (all of the local tensor when absent). The
    direction comes from the operands: GM to UB or L1 (MTE2), UB to GM or L1
    (MTE3), L1 to the bias table (MTE1).

    With `window [%rows, %cols] strides [%src, %dst]` it copies a
    `rows x cols` window instead: row `i` moves from element `i * src` of
    the source to element `i * dst` of the destination, the rest of the
    destination untouched. This is Ascend C's `DataCopyPad` with
    `DataCopyExtParams{rows, cols * element bytes, gaps}` (GM and UB), and
    `DataCopy` with `Nd2NzParams` into L1, whose fractal layout the IR
    leaves implicit (cube tensors are row-major here).

    With `atomic_add` (into GM) the values are added to what GM holds:
    Ascend C's `SetAtomicAdd<T>()` before the copy and `SetAtomicNone()`
    after it; T is the element type (float, half, bfloat16_t, int32_t,
    int16_t or int8_t).

    ```mlir
    ascendc.data_copy %a1, %view window [%mv, %kv] strides [%k, %c32]
        : !ascendc.local_tensor<64x32xf16>, !ascendc.global_tensor<?x?xf16>
    ```
  }];
  let arguments = (ins AscendC_WrittenAny:$dst, AscendC_ReadAny:$src,
                       Optional<Index>:$count, Variadic<Index>:$window,
                       Variadic<Index>:$strides, UnitAttr:$atomic_add);
  let assemblyFormat = [{
    $dst `,` $src (`,` $count^)?
    (`window` `[` $window^ `]` `strides` `[` $strides `]`)?
    (`atomic_add` $atomic_add^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$dst, "::mlir::Value":$src,
                   CArg<"::mlir::Value", "{}">:$count), [{
      build($_builder, $_state, dst, src, count, ::mlir::ValueRange(),
            ::mlir::ValueRange(), false);
    }]>
  ];
  let hasVerifier = 1;
}

def AscendC_LoadDataOp : AscendC_Op<"load_data", [Tilekit_Transfer]> {
  let summary = "loads an L1 tensor into L0A or L0B (MTE1)";
  let arguments = (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src,
                       UnitAttr:$transpose);
  let assemblyFormat = [{
    $dst `,` $src (`transpose` $transpose^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def AscendC_MmadOp : AscendC_Op<"mmad", [Tilekit_OnPipe<"M">, AttrSizedOperandSegments]> {
  let summary = "cube matrix multiply-accumulate into L0C";
  let description = [{
    `dst (co1) = [dst +] a (a2) @ b (b2) [+ bias (c2)]` over `m x k x n`.
    The parameter struct of Ascend C's `Mmad`: `m`, `n`, `k` and
    `init` (cmatrixInitVal: overwrite the accumulator instead of adding to
    it; true when absent, as in Ascend C). An mmad in a K loop therefore
    overwrites on every step unless its `init` is false there;
    `ascendc-fixup-mmad-acc-params` turns an absent or constant-true `init`
    on a repeated accumulation into "true on its first step after the
    accumulator was last read".

    ```mlir
    ascendc.mmad %c, %a, %b m %c16 n %c16 k %c32 init %first
        : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x32xf16>,
          !ascendc.local_tensor<32x16xf16>
    ```
  }];
  let arguments = (ins AscendC_UpdatedLocal:$dst, AscendC_ReadLocal:$a,
                       AscendC_ReadLocal:$b, Arg<Optional<AscendC_LocalTensor>, "read", [MemRead]>:$bias,
                       Index:$m, Index:$n, Index:$k, Optional<I1>:$init);
  let assemblyFormat = [{
    $dst `,` $a `,` $b (`bias` $bias^)? `m` $m `n` $n `k` $k (`init` $init^)?
    attr-dict `:` type($dst) `,` type($a) `,` type($b) (`,` type($bias)^)?
  }];
  let hasVerifier = 1;
}

def AscendC_FixpipeOp : AscendC_Op<"fixpipe", [Tilekit_Transfer,
                                                AttrSizedOperandSegments]> {
  let summary = "moves the accumulator out of L0C to UB or GM (FIX pipe)";
  let description = [{
    Converts to the destination's element type on the way. Without a
    window it moves the whole accumulator (as much as the destination
    holds); with `window [%m, %n] strides [%src, %dst]` the `m x n` corner,
    row `i` from element `i * src` of the accumulator to element `i * dst`
    of the destination: Ascend C's `FixpipeParams` (`mSize`, `nSize`,
    `srcStride`, `dstStride`). With `atomic_add` (into GM of the
    accumulator's own element type, so the sum rounds once) the values are
    added to what GM holds, as `data_copy`'s.
  }];
  let arguments = (ins AscendC_WrittenAny:$dst, AscendC_ReadLocal:$src,
                       Variadic<Index>:$window, Variadic<Index>:$strides,
                       UnitAttr:$atomic_add);
  let assemblyFormat = [{
    $dst `,` $src (`window` `[` $window^ `]` `strides` `[` $strides `]`)?
    (`atomic_add` $atomic_add^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$dst, "::mlir::Value":$src), [{
      build($_builder, $_state, dst, src, ::mlir::ValueRange(),
            ::mlir::ValueRange(), false);
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vector ops. The simple (L2) level takes an element count; the low (L0)
// level a mask, a repeat count and block/repeat strides.
//===----------------------------------------------------------------------===//


class AscendC_VectorOp<string name, dag operands, string format,
                       list<Trait> traits = []>
    : AscendC_Op<name, traits # [Tilekit_OnPipe<"V">]> {
  let arguments = operands;
  let assemblyFormat = format;
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyVectorOp(getOperation());
    }
  }];
}

// L2: count elements.
class AscendC_UnaryL2<string name> : AscendC_VectorOp<name # "_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src, Optional<Index>:$count),
    "$dst `,` $src (`,` $count^)? attr-dict `:` type($dst) `,` type($src)", [AscendC_VectorL2OpInterface]> {
  let summary = "dst = " # name # "(src) on count elements";
}
class AscendC_BinaryL2<string name> : AscendC_VectorOp<name # "_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$lhs,
         AscendC_ReadLocal:$rhs, Optional<Index>:$count),
    "$dst `,` $lhs `,` $rhs (`,` $count^)? attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)", [AscendC_VectorL2OpInterface]> {
  let summary = "dst = " # name # "(lhs, rhs) on count elements";
}
class AscendC_ScalarL2<string name> : AscendC_VectorOp<name # "_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src, AscendC_VectorScalar:$scalar,
         Optional<Index>:$count),
    "$dst `,` $src `,` $scalar (`,` $count^)? attr-dict `:` type($dst) `,` type($src) `,` type($scalar)", [AscendC_VectorL2OpInterface]> {
  let summary = "dst = " # name # "(src, scalar) on count elements";
}

// L0: a mask, repeat times and strides [dst block, src block(s), dst
// repeat, src repeat(s)]. The mask is a count of leading lanes per repeat
// (`mask`) or, for 16- and 32-bit elements, a lane bit mask in two 64-bit
// words (`mask_bits [high, low]`, Ascend C's `uint64_t mask[2]`).
class AscendC_UnaryL0<string name> : AscendC_VectorOp<name # "_l0",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src, Optional<Index>:$mask,
         Optional<I64>:$maskHigh, Optional<I64>:$maskLow,
         Optional<Index>:$repeat,
         OptionalAttr<DenseI64ArrayAttr>:$strides),
    "$dst `,` $src (`mask` $mask^)? (`mask_bits` `[` $maskHigh^ `,` $maskLow `]`)? (`repeat` $repeat^)? (`strides` $strides^)? attr-dict `:` type($dst) `,` type($src)", [AttrSizedOperandSegments,
    AscendC_VectorL0OpInterface]> {
  let summary = "dst = " # name # "(src), mask/repeat form";
}
class AscendC_BinaryL0<string name> : AscendC_VectorOp<name # "_l0",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$lhs,
         AscendC_ReadLocal:$rhs, Optional<Index>:$mask, Optional<I64>:$maskHigh,
         Optional<I64>:$maskLow, Optional<Index>:$repeat,
         OptionalAttr<DenseI64ArrayAttr>:$strides),
    "$dst `,` $lhs `,` $rhs (`mask` $mask^)? (`mask_bits` `[` $maskHigh^ `,` $maskLow `]`)? (`repeat` $repeat^)? (`strides` $strides^)? attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)", [AttrSizedOperandSegments,
    AscendC_VectorL0OpInterface]> {
  let summary = "dst = " # name # "(lhs, rhs), mask/repeat form";
}
class AscendC_ScalarL0<string name> : AscendC_VectorOp<name # "_l0",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src, AscendC_VectorScalar:$scalar,
         Optional<Index>:$mask, Optional<I64>:$maskHigh,
         Optional<I64>:$maskLow, Optional<Index>:$repeat,
         OptionalAttr<DenseI64ArrayAttr>:$strides),
    "$dst `,` $src `,` $scalar (`mask` $mask^)? (`mask_bits` `[` $maskHigh^ `,` $maskLow `]`)? (`repeat` $repeat^)? (`strides` $strides^)? attr-dict `:` type($dst) `,` type($src) `,` type($scalar)", [AttrSizedOperandSegments,
    AscendC_VectorL0OpInterface]> {
  let summary = "dst = " # name # "(src, scalar), mask/repeat form";
}

foreach name = ["Abs", "Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal", "Relu", "Not"] in {
  def AscendC_ # name # L2Op : AscendC_UnaryL2<!tolower(name)>;
  def AscendC_ # name # L0Op : AscendC_UnaryL0<!tolower(name)>;
}
// The advanced API's math functions (Ascend C's Tanh, Sigmoid, Erf): a
// count of elements, no level-0 form; the source and destination may not
// overlap.
foreach name = ["Tanh", "Sigmoid", "Erf"] in
  def AscendC_ # name # L2Op : AscendC_UnaryL2<!tolower(name)> {
    let extraClassDeclaration = [{
      static bool lowersToL0() { return false; }
    }];
  }
foreach name = ["Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or"] in {
  def AscendC_ # name # L2Op : AscendC_BinaryL2<!tolower(name)>;
  def AscendC_ # name # L0Op : AscendC_BinaryL0<!tolower(name)>;
}
foreach name = ["Adds", "Muls", "Maxs", "Mins"] in {
  def AscendC_ # name # L2Op : AscendC_ScalarL2<!tolower(name)>;
  def AscendC_ # name # L0Op : AscendC_ScalarL0<!tolower(name)>;
}

// Ascend C's ShiftLeft / ShiftRight by a scalar amount on 16- and 32-bit
// integers: a logical shift for unsigned elements, an arithmetic right
// shift for signed ones. The amount is below the element's width (the
// lowering checks it; the API leaves other amounts undefined).
foreach name = ["ShiftLeft", "ShiftRight"] in {
  def AscendC_ # name # L2Op : AscendC_ScalarL2<!tolower(!substr(name, 0, 5)) # "_" # !tolower(!substr(name, 5))>;
  def AscendC_ # name # L0Op : AscendC_ScalarL0<!tolower(!substr(name, 0, 5)) # "_" # !tolower(!substr(name, 5))>;
}

def AscendC_CreateVecIndexL2Op : AscendC_VectorOp<"create_vec_index_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_VectorScalar:$first, Optional<Index>:$count),
    "$dst `,` $first (`,` $count^)? attr-dict `:` type($dst) `,` type($first)", [AscendC_VectorL2OpInterface]> {
  let summary = "dst[i] = first + i on count elements (Ascend C's CreateVecIndex)";
  let description = [{
    16- and 32-bit integers wrap; floats hold `first + i` rounded once to
    the element type (the sum is exact below 2^24 for f32).
  }];
  let extraClassDeclaration = [{
    static bool lowersToL0() { return false; }
  }];
}

// The vector unit's sorts, on 8-byte (score, index) pairs: an f32 score
// and its index, or an f16 score, two unused bytes and the index. Indices
// are i32 here (Ascend C's uint32_t; the lowering's are non-negative).
def AscendC_Sort32Op : AscendC_VectorOp<"sort32",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$scores,
         AscendC_ReadLocal:$indices, ConfinedAttr<I64Attr, [IntPositive]>:$repeat),
    "$dst `,` $scores `,` $indices `repeat` $repeat attr-dict `:` type($dst) `,` type($scores) `,` type($indices)"> {
  let summary = "sorts each 32 scores with their indices into pairs (Ascend C's Sort32)";
  let description = [{
    Repeat r sorts scores and indices `32 r` to `32 r + 31` into pairs
    `32 r` to `32 r + 31` of `dst`: larger scores first, NaN above every
    number, equal scores in index order (as pto.tile.sort32 defines it).
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifySortPairs(getOperation(), getDst(), getScores(),
                             getIndices(), 32 * getRepeat());
    }
  }];
}
def AscendC_MrgSortOp : AscendC_VectorOp<"mrg_sort",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$first,
         AscendC_ReadLocal:$second, ConfinedAttr<I64Attr, [IntPositive]>:$count),
    "$dst `,` $first `,` $second `count` $count attr-dict `:` type($dst) `,` type($first) `,` type($second)"> {
  let summary = "merges two sorted lists of pairs (Ascend C's MrgSort, two queues)";
  let description = [{
    Merges the `count` pairs of `first` and the `count` of `second`, each
    sorted as sort32 leaves them, into the first `2 count` pairs of `dst`;
    a tie takes `first`'s pair first.
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyMergePairs(getOperation(), getDst(), getFirst(),
                              getSecond(), getCount());
    }
  }];
}
def AscendC_ExtractOp : AscendC_VectorOp<"extract",
    (ins AscendC_WrittenLocal:$values, AscendC_WrittenLocal:$indices,
         AscendC_ReadLocal:$sorted, ConfinedAttr<I64Attr, [IntPositive]>:$repeat),
    "$values `,` $indices `,` $sorted `repeat` $repeat attr-dict `:` type($values) `,` type($indices) `,` type($sorted)"> {
  let summary = "splits pairs into scores and indices (Ascend C's Extract)";
  let description = [{
    Repeat r moves the scores and indices of pairs `32 r` to `32 r + 31`
    of `sorted` to elements `32 r` to `32 r + 31` of `values` and `indices`.
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifySortPairs(getOperation(), getSorted(), getValues(),
                             getIndices(), 32 * getRepeat());
    }
  }];
}

def AscendC_TransposeOp : AscendC_VectorOp<"transpose",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src),
    "$dst `,` $src attr-dict `:` type($dst) `,` type($src)"> {
  let summary = "transposes a 16 x 16 matrix of 2-byte elements (Ascend C's Transpose)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      if (::mlir::failed(verifyVectorOp(getOperation())))
        return ::mlir::failure();
      for (::mlir::Value tensor : {getDst(), getSrc()}) {
        auto type = ::llvm::cast<LocalTensorType>(tensor.getType());
        if (type.getNumElements() != 256 ||
            getElementBytes(type.getElementType()) != 2)
          return emitOpError() << "transposes " << type
                               << "; the instruction takes 16 x 16 "
                                  "2-byte elements";
      }
      return ::mlir::success();
    }
  }];
}

// The scalar unit's access to a local tensor (Ascend C's GetValue /
// SetValue), on PIPE_S: the synchronization passes order it with the
// vector unit's instructions like any other pipe.
def AscendC_GetValueOp : AscendC_Op<"get_value", [Tilekit_OnPipe<"S">]> {
  let summary = "reads element `index` of a local tensor (Ascend C's GetValue)";
  let arguments = (ins AscendC_ReadLocal:$tensor, Index:$index);
  let results = (outs AnyTypeOf<[AnyInteger, AnyFloat]>:$result);
  let assemblyFormat = "$tensor `[` $index `]` attr-dict `:` type($tensor) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      if (::llvm::cast<LocalTensorType>(getTensor().getType()).getElementType() !=
          getResult().getType())
        return emitOpError() << "reads a " << getResult().getType()
                             << " from a tensor of other elements";
      return ::mlir::success();
    }
  }];
}
def AscendC_SetValueOp : AscendC_Op<"set_value", [Tilekit_OnPipe<"S">]> {
  let summary = "writes element `index` of a local tensor (Ascend C's SetValue)";
  let arguments = (ins AscendC_WrittenLocal:$tensor, Index:$index,
                       AnyTypeOf<[AnyInteger, AnyFloat]>:$value);
  let assemblyFormat = "$value `,` $tensor `[` $index `]` attr-dict `:` type($value) `,` type($tensor)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      if (::llvm::cast<LocalTensorType>(getTensor().getType()).getElementType() !=
          getValue().getType())
        return emitOpError() << "writes a " << getValue().getType()
                             << " into a tensor of other elements";
      return ::mlir::success();
    }
  }];
}

def AscendC_GatherOp : AscendC_VectorOp<"gather",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src,
         AscendC_ReadLocal:$offsets, Index:$count),
    "$dst `,` $src `,` $offsets `,` $count attr-dict `:` type($dst) `,` type($src) `,` type($offsets)"> {
  let summary = "dst[i] = the element of src at byte offsets[i] (Ascend C's Gather)";
  let description = [{
    The first `count` elements of `dst` take the `src` elements at byte
    offsets `offsets[i]` (i32 here, the API's uint32_t; the base address
    is 0): each a multiple of the element size inside `src`, or the kernel
    stops.
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      if (::mlir::failed(verifyVectorOp(getOperation())))
        return ::mlir::failure();
      auto dst = ::llvm::cast<LocalTensorType>(getDst().getType());
      auto src = ::llvm::cast<LocalTensorType>(getSrc().getType());
      auto offsets = ::llvm::cast<LocalTensorType>(getOffsets().getType());
      if (dst.getElementType() != src.getElementType())
        return emitOpError() << "gathers " << src.getElementType()
                             << " into " << dst.getElementType();
      if (!offsets.getElementType().isInteger(32))
        return emitOpError() << "takes offsets of "
                             << offsets.getElementType() << ", not i32";
      return ::mlir::success();
    }
  }];
}

def AscendC_DuplicateL2Op : AscendC_VectorOp<"duplicate_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_VectorScalar:$scalar, Optional<Index>:$count),
    "$dst `,` $scalar (`,` $count^)? attr-dict `:` type($dst) `,` type($scalar)", [AscendC_VectorL2OpInterface]> {
  let summary = "fills count elements of dst with scalar";
}
def AscendC_DuplicateL0Op : AscendC_VectorOp<"duplicate_l0",
    (ins AscendC_WrittenLocal:$dst, AscendC_VectorScalar:$scalar, Optional<Index>:$mask, Optional<I64>:$maskHigh,
         Optional<I64>:$maskLow, Optional<Index>:$repeat,
         OptionalAttr<DenseI64ArrayAttr>:$strides),
    "$dst `,` $scalar (`mask` $mask^)? (`mask_bits` `[` $maskHigh^ `,` $maskLow `]`)? (`repeat` $repeat^)? (`strides` $strides^)? attr-dict `:` type($dst) `,` type($scalar)", [AttrSizedOperandSegments,
    AscendC_VectorL0OpInterface]> {
  let summary = "fills dst with scalar, mask/repeat form";
}
def AscendC_CastL2Op : AscendC_VectorOp<"cast_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src,
         AscendC_RoundMode:$round, Optional<Index>:$count),
    "$dst `,` $src `,` $round (`,` $count^)? attr-dict `:` type($dst) `,` type($src)", [AscendC_VectorL2OpInterface]> {
  let summary = "converts count elements with a rounding mode";
}
def AscendC_CastL0Op : AscendC_VectorOp<"cast_l0",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src,
         AscendC_RoundMode:$round, Optional<Index>:$mask, Optional<I64>:$maskHigh,
         Optional<I64>:$maskLow, Optional<Index>:$repeat,
         OptionalAttr<DenseI64ArrayAttr>:$strides),
    "$dst `,` $src `,` $round (`mask` $mask^)? (`mask_bits` `[` $maskHigh^ `,` $maskLow `]`)? (`repeat` $repeat^)? (`strides` $strides^)? attr-dict `:` type($dst) `,` type($src)", [AttrSizedOperandSegments,
    AscendC_VectorL0OpInterface]> {
  let summary = "converts with a rounding mode, mask/repeat form";
}
def AscendC_CompareL2Op : AscendC_VectorOp<"compare_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$lhs,
         AscendC_ReadLocal:$rhs, AscendC_CmpMode:$mode, Optional<Index>:$count),
    "$dst `,` $lhs `,` $rhs `,` $mode (`,` $count^)? attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)", [AscendC_VectorL2OpInterface]> {
  let summary = "writes the bit mask of lhs <mode> rhs over count elements";
  let extraClassDeclaration = [{
    // The level-0 form's per-repeat bit layout is not modelled.
    static bool lowersToL0() { return false; }
  }];
}
def AscendC_CompareL0Op : AscendC_VectorOp<"compare_l0",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$lhs,
         AscendC_ReadLocal:$rhs, AscendC_CmpMode:$mode, Optional<Index>:$mask,
         Optional<I64>:$maskHigh, Optional<I64>:$maskLow,
         Optional<Index>:$repeat,
         OptionalAttr<DenseI64ArrayAttr>:$strides),
    "$dst `,` $lhs `,` $rhs `,` $mode (`mask` $mask^)? (`mask_bits` `[` $maskHigh^ `,` $maskLow `]`)? (`repeat` $repeat^)? (`strides` $strides^)? attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)", [AttrSizedOperandSegments,
    AscendC_VectorL0OpInterface]> {
  let summary = "compare, mask/repeat form";
}
// Ascend C's Select over a bit mask (its `selMask`: one bit per element,
// the lowest bit of byte 0 first, as compare_l2 writes it): lhs where the
// bit is set, rhs (or the scalar) where it is not. Half and float.
def AscendC_SelectL2Op : AscendC_VectorOp<"select_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$mask,
         AscendC_ReadLocal:$lhs, AscendC_ReadLocal:$rhs, Optional<Index>:$count),
    "$dst `,` $mask `,` $lhs `,` $rhs (`,` $count^)? attr-dict `:` type($dst) `,` type($mask) `,` type($lhs) `,` type($rhs)", [AscendC_VectorL2OpInterface]> {
  let summary = "dst = mask bit ? lhs : rhs on count elements";
  let extraClassDeclaration = [{
    // The level-0 form's per-repeat mask layout is not modelled.
    static bool lowersToL0() { return false; }
    static ::llvm::StringRef getApiMode() {
      return "AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE";
    }
  }];
}
def AscendC_SelectScalarL2Op : AscendC_VectorOp<"select_scalar_l2",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$mask,
         AscendC_ReadLocal:$src, AscendC_VectorScalar:$scalar,
         Optional<Index>:$count),
    "$dst `,` $mask `,` $src `,` $scalar (`,` $count^)? attr-dict `:` type($dst) `,` type($mask) `,` type($src) `,` type($scalar)", [AscendC_VectorL2OpInterface]> {
  let summary = "dst = mask bit ? src : scalar on count elements";
  let extraClassDeclaration = [{
    static bool lowersToL0() { return false; }
    static ::llvm::StringRef getApiName() { return "AscendC::Select"; }
    static ::llvm::StringRef getApiMode() {
      return "AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE";
    }
  }];
}

def AscendC_BroadcastOp : AscendC_VectorOp<"broadcast",
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src,
         ConfinedAttr<I64Attr, [IntNonNegative]>:$axis,
         AscendC_Scratch:$tmp),
    "$dst `,` $src `axis` $axis (`scratch` $tmp^)? attr-dict `:` type($dst) `,` type($src) (`,` type($tmp)^)?",
    [DeclareOpInterfaceMethods<AscendC_ScratchOpInterface>]> {
  let summary = "broadcasts src along axis into dst";
  let description = [{
    `tmp` is the API's `sharedTmpBuffer`, planned by `ascendc-dispatch-alloc`.
  }];
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return ::mlir::failure(
          ::mlir::failed(verifyVectorOp(getOperation())) ||
          ::mlir::failed(verifyAlongAxis(getOperation(), getDst(), getSrc(),
                                         getAxis(), "broadcasts")));
    }
  }];
}


// Reductions: the advanced API's ReduceSum/Max/Min/Prod with the AR
// (axis 1, each row) or RA (axis 0, each column) pattern over a 2-d tensor.
class AscendC_ReduceOp<string name, string fold> : AscendC_VectorOp<"reduce_" # name,
    (ins AscendC_WrittenLocal:$dst, AscendC_ReadLocal:$src,
         ConfinedAttr<I64Attr, [IntNonNegative]>:$axis, Optional<Index>:$rows,
         Optional<Index>:$cols, AscendC_Scratch:$tmp),
    "$dst `,` $src `axis` $axis (`rows` $rows^)? (`cols` $cols^)? (`scratch` $tmp^)? attr-dict `:` type($dst) `,` type($src) (`,` type($tmp)^)?",
    [DeclareOpInterfaceMethods<AscendC_ScratchOpInterface>,
     AttrSizedOperandSegments]> {
  let summary = "folds each row (axis 1) or column (axis 0) of src (" # name # ")";
  let description = [{
    `dst` has extent 1 along `axis` and `src`'s extent along the other axis.
    Only the first `rows` rows of `src` hold data (all of them when absent):
    a column reduction folds those, a row reduction writes those rows of
    `dst`. With `cols` (a row reduction) each row holds that many values
    and the rows lie `cols` rounded up to whole 32-byte blocks apart: the
    API's `srcShape` of `{rows, cols}` with `srcInnerPad`, so a row folds
    its first `cols` elements only. A constant `cols` makes that `src`'s
    width; a count known at run time packs the rows at the start of `src`,
    whose width is then the most they take. Floats accumulate in f32 as a
    halving tree (element i takes in element i + ceil(n/2) while the line
    has n > 1 elements) and round once;
    the PTO tile reductions fold in the same order, so both agree to the bit.
    `tmp` is the API's `sharedTmpBuffer`, planned by `ascendc-dispatch-alloc`.
  }];
  let extraClassDeclaration = [{
    /// The fold, as the API's scratch and type rules name it.
    static constexpr ::tilekit::machine::scratch::Fold kFold =
        ::tilekit::machine::scratch::Fold::}] # fold # [{;
    /// The Ascend C function.
    static constexpr ::llvm::StringLiteral kApiName = "Reduce}] # fold # [{";
  }];
  let extraClassDefinition = [{
    ::mlir::FailureOr<uint32_t> $cppClass::getScratchBytes(bool c310) {
      return getFoldScratchBytes(getOperation(), getSrc(), getAxis(), kFold,
                                 kApiName, c310);
    }
    ::mlir::LogicalResult $cppClass::verify() {
      if (getDst().getType().getRank() != 2)
        return emitOpError("reduces a 2-d tensor");
      if (::mlir::failed(verifyPaddedColumns(getOperation(), getSrc(),
                                             getAxis(), getCols())))
        return ::mlir::failure();
      return ::mlir::failure(
          ::mlir::failed(verifyVectorOp(getOperation())) ||
          ::mlir::failed(verifyAlongAxis(getOperation(), getSrc(), getDst(),
                                         getAxis(), "reduces")));
    }
  }];
}
foreach name = ["Sum", "Max", "Min", "Prod"] in
  def AscendC_Reduce # name # Op : AscendC_ReduceOp<!tolower(name), name>;

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

def AscendC_SetFlagOp : AscendC_Op<"set_flag", [Tilekit_NoPipe]> {
  let summary = "signals hard event `event` from pipe `src` to pipe `dst`";
  let arguments = (ins AscendC_Pipe:$src, AscendC_Pipe:$dst,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$event);
  let assemblyFormat = "$src `->` $dst `,` `event` $event attr-dict";
}
def AscendC_WaitFlagOp : AscendC_Op<"wait_flag", [Tilekit_NoPipe]> {
  let summary = "pipe `dst` waits for hard event `event` from pipe `src`";
  let arguments = (ins AscendC_Pipe:$src, AscendC_Pipe:$dst,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$event);
  let assemblyFormat = "$src `->` $dst `,` `event` $event attr-dict";
}
def AscendC_PipeBarrierOp : AscendC_Op<"pipe_barrier", [Tilekit_NoPipe]> {
  let summary = "waits until every instruction issued to the pipe finished";
  let arguments = (ins AscendC_Pipe:$pipe);
  let assemblyFormat = "$pipe attr-dict";
}
def AscendC_GetBufOp : AscendC_Op<"get_buf", [Tilekit_NoPipe]> {
  let summary = "acquires buffer id `buf_id` for the pipe";
  let arguments = (ins AscendC_Pipe:$pipe,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$buf_id);
  let assemblyFormat = "$pipe `,` $buf_id attr-dict";
}
def AscendC_RlsBufOp : AscendC_Op<"rls_buf", [Tilekit_NoPipe]> {
  let summary = "releases buffer id `buf_id` for the pipe";
  let arguments = (ins AscendC_Pipe:$pipe,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$buf_id);
  let assemblyFormat = "$pipe `,` $buf_id attr-dict";
}
def AscendC_CrossCoreSetFlagOp : AscendC_Op<"cross_core_set_flag", [Tilekit_NoPipe]> {
  let summary = "sets cross-core flag `flag` (0-31) when the pipe gets there";
  let arguments = (ins AscendC_Pipe:$pipe,
                       ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<31>]>:$flag);
  let assemblyFormat = "$pipe `,` `flag` $flag attr-dict";
}
def AscendC_CrossCoreWaitFlagOp : AscendC_Op<"cross_core_wait_flag", [Tilekit_NoPipe]> {
  let summary = "the pipe waits for cross-core flag `flag` (0-31)";
  let arguments = (ins AscendC_Pipe:$pipe,
                       ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<31>]>:$flag);
  let assemblyFormat = "$pipe `,` `flag` $flag attr-dict";
}

//===----------------------------------------------------------------------===//
// Core groups and queries
//===----------------------------------------------------------------------===//

class AscendC_CoreGroupOp<string name, string core>
    : AscendC_Op<name, [Tilekit_NoPipe, SingleBlockImplicitTerminator<"YieldOp">,
                        NoRegionArguments]> {
  let summary = "code that runs only on the " # core # " core";
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$body attr-dict";
}
def AscendC_IfAicOp : AscendC_CoreGroupOp<"if_aic", "cube">;
def AscendC_IfAivOp : AscendC_CoreGroupOp<"if_aiv", "vector">;

def AscendC_IfSubBlockOp : AscendC_Op<"if_subblock", [Tilekit_NoPipe,
    SingleBlockImplicitTerminator<"YieldOp">, NoRegionArguments]> {
  let summary = "a vector lane's ops, which only its vector sub-block runs";
  let description = [{
    `if (AscendC::GetSubBlockIdx() == lane) { ... }`: in a kernel whose
    split group's lanes run on both vector cores of a block (1:2,
    `ascendc-guard-lanes`), the ops of lane `lane`. The other sub-block
    skips them and runs everything outside (scalar code, flags, barriers,
    cross-core flags) all the same.

    The executor runs a kernel on one vector core, so it runs every lane's
    ops in program order, the order the lowering merged them in. That
    computes what the two sub-blocks compute: a lane's ops touch only its
    own tiles and its own part of each cross-core workspace.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<1>]>:$lane);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$lane $body attr-dict";
  let hasVerifier = 1;
}

def AscendC_YieldOp : AscendC_Op<"yield", [Tilekit_NoPipe, Pure, Terminator,
    ParentOneOf<["IfAicOp", "IfAivOp", "IfSubBlockOp"]>]> {
  let summary = "ends a core group";
  let assemblyFormat = "attr-dict";
}

def AscendC_GetSubBlockIdxOp : AscendC_Op<"get_subblock_idx", [Tilekit_NoPipe, Pure]> {
  let summary = "the vector lane (sub-block) this code runs on";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def AscendC_GetBlockIdxOp : AscendC_Op<"get_block_idx", [Tilekit_NoPipe, Pure]> {
  let summary = "the block (core, or core pair of a mixed kernel) of the launch this code runs in (Ascend C's GetBlockIdx)";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def AscendC_GetBlockNumOp : AscendC_Op<"get_block_num", [Tilekit_NoPipe, Pure]> {
  let summary = "the blocks of the launch (Ascend C's GetBlockNum)";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def AscendC_LaunchOp : AscendC_Op<"launch", [Tilekit_NoPipe,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launches a kernel on `blocks` cores (Ascend C's <<<blockDim, ...>>>)";
  let description = [{
    A host function's launch of a kernel: each of the `blocks` cores (core
    pairs, for a mixed kernel) runs it with its own `get_block_idx`, with no
    order between them. The operands are the kernel's arguments.

    ```mlir
    ascendc.launch @softmax_kernel(%x, %y) blocks %c24
        : !ascendc.global_tensor<?x128xf32>, !ascendc.global_tensor<?x128xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
                       Index:$blocks);
  let assemblyFormat = [{
    $callee `(` $args `)` `blocks` $blocks attr-dict (`:` type($args)^)?
  }];
}

def AscendC_SubBlockGuardOp : AscendC_Op<"subblock_guard", [Tilekit_NoPipe]> {
  let summary = "returns from the kernel on every sub-block but the first";
  let description = [{
    `if (AscendC::GetSubBlockIdx() != 0) return;`: in a mixed kernel, only
    sub-block 0 runs what follows. Only at the start of a function that
    returns nothing.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def AscendC_InitDumpOp : AscendC_Op<"init_dump", [Tilekit_NoPipe]> {
  let summary = "sets up the debug dump area of the kernel";
  let description = [{
    `AscendC::InitDump(mixed, dumpAddr, size)`: each core dumps `size` bytes
    at most into the GM area `dump_addr`. `mixed` is set for mixed cube and
    vector kernels.
  }];
  let arguments = (ins AscendC_GlobalTensor:$dump_addr, UnitAttr:$mixed,
                       ConfinedAttr<I64Attr, [IntPositive]>:$size);
  let assemblyFormat = [{
    $dump_addr (`mixed` $mixed^)? `size` $size attr-dict `:` type($dump_addr)
  }];
}

def AscendC_PrintfOp : AscendC_Op<"printf", [Tilekit_OnPipe<"S">]> {
  let summary = "prints scalars with a format string";
  let arguments = (ins StrAttr:$format, Variadic<AnyType>:$args);
  // The comma keeps a value defined on the next line from reading as an
  // argument of a printf without any.
  let assemblyFormat = "$format (`,` $args^ `:` type($args))? attr-dict";
}
def AscendC_DumpTensorOp : AscendC_Op<"dump_tensor", [Tilekit_OnPipe<"S">]> {
  let summary = "dumps `count` elements of a local tensor, tagged `desc`";
  let arguments = (ins AscendC_ReadLocal:$tensor, I64Attr:$desc, Index:$count);
  let assemblyFormat = "$tensor `,` $desc `,` $count attr-dict `:` type($tensor)";
}
def AscendC_AssertOp : AscendC_Op<"assert", [Tilekit_OnPipe<"S">]> {
  let summary = "stops the kernel with a message when the condition is false";
  let arguments = (ins I1:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict";
}

#endif // TILEKIT_DIALECT_ASCENDC_IR_ASCENDCOPS_TD
