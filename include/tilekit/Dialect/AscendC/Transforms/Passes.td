//===- Passes.td - AscendC passes ---------------------------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_TD
#define TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RefineCubePosition : InterfacePass<"ascendc-refine-cube-position", "mlir::FunctionOpInterface"> {
  let summary = "Moves L1 tensors feeding L0B or the bias table to B1 / C1";
  let description = [{
    Front ends place every L1 tensor at `a1`. This pass looks at where each
    `a1` placeholder (`ascendc.local_tensor_auto a1`) is consumed:
    `ascendc.load_data` into `b2` (L0B) makes it `b1`, an
    `ascendc.data_copy` into `c2` (the bias table) makes it `c1`, and a load
    into `a2` keeps it at `a1`. A tensor consumed by two of these
    destinations is an error naming the tensor.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def AllocateTensor : InterfacePass<"ascendc-allocate-tensor", "mlir::FunctionOpInterface"> {
  let summary = "Gives every local tensor placeholder a static address";
  let description = [{
    Replaces each `ascendc.local_tensor_auto` with an
    `ascendc.local_tensor` carrying its byte address and size. Each function
    is a kernel with its own buffers; in it, placeholders take consecutive
    addresses, in IR order, from one running address per normalized
    position: `b1` and `c1` share `a1`'s (all L1), and `vecin`, `vecout`
    and `co2` share `veccalc`'s (all UB).

    Sizes (`size`, in bytes):

    * UB positions, `c1` and `c2` (bias data): the tensor's bytes rounded up
      to the 32-byte block.
    * `a1`, `a2`: padded to the cube's fractal: rows (the second-to-last
      dimension) to a multiple of 16, the last (K) dimension to a multiple
      of 32 bytes; leading dimensions multiply.
    * `b1`, `b2`, `co1`: both of the last two dimensions to a multiple of 16
      elements.

    A rank-1 tensor counts as one row. Since every size is a multiple of 32
    bytes, every address is 32-byte aligned.

    A split group's lanes run on vector sub-blocks 0 and 1, each with its
    own UB, when the function is mixed (cube and vector groups: a 1:2
    launch), has lane-1 tensors (`ascendc.lane`) and no cube op fills UB
    (`ascendc-guard-lanes` then guards them): UB tensors
    both lanes use come first, then each lane's own from where those end,
    lane 1's at the same addresses as lane 0's. So a kernel needs the
    shared tensors plus its larger lane, not both lanes, of each vector
    core's UB. Otherwise (a C310 mailbox keeps both lanes on one vector
    core) every tensor has its own address.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def ComputeMemoryConsumption
    : Pass<"ascendc-compute-memory-consumption", "mlir::ModuleOp"> {
  let summary = "Records the bytes each hardware buffer needs on the module";
  let description = [{
    For each function, the need of a buffer (L1, L0A, L0B, L0C, UB, BT) is
    the end of its highest addressed tensor (`addr + size`; tensors that
    share addresses count once). The module gets
    `ascendc.memory_consumed = {BT = .., L0A = .., L0B = .., L0C = .., L1 = .., UB = ..}`,
    the largest need over its functions, in bytes.

    With `check-capacity`, a need above the buffer's capacity is an error
    on the function naming the buffer, the need and the capacity, with a
    note at the tensor that crosses it. Capacities default to the machine
    description's (include/tilekit/Machine/Machine.def, the 910B's): UB
    192 KiB, L1 512 KiB, L0A/L0B 64 KiB, L0C 128 KiB, bias table 1 KiB.

    Placeholders without an address are an error: run
    `ascendc-allocate-tensor` first.
  }];
  let options = [
    Option<"checkCapacity", "check-capacity", "bool", "false",
           "Fail when a buffer's need exceeds its capacity">,
    Option<"ubBytes", "ub-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::UB)", "UB capacity">,
    Option<"l1Bytes", "l1-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L1)", "L1 capacity">,
    Option<"l0aBytes", "l0a-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0A)", "L0A capacity">,
    Option<"l0bBytes", "l0b-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0B)", "L0B capacity">,
    Option<"l0cBytes", "l0c-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0C)", "L0C capacity">,
    Option<"btBytes", "bt-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::Bias)", "Bias table capacity">
  ];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def UnifyBiasTensor : InterfacePass<"ascendc-unify-bias-tensor", "mlir::FunctionOpInterface"> {
  let summary = "Makes every bias-table tensor of a function one tensor at 0";
  let description = [{
    The bias table holds one bias at a time, and buffer-id synchronization
    needs a single bias tensor per function. In each function the first
    `ascendc.local_tensor c2` is kept at address 0; later ones of the same
    type are replaced by it, and smaller ones by a reinterpret cast of it.
    A later bias tensor larger than the first is an error.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def SetTargetArch : Pass<"ascendc-set-target-arch", "mlir::ModuleOp"> {
  let summary = "Marks the module with the pipeline's architecture, or "
                "rejects a module marked for the other one";
  let description = [{
    The first pass of both pipelines. A module without `ascendc.arch` gets
    the pipeline's (`arch` option), so that every later pass (allocation
    strategy, synchronization) targets the same machine; a module marked
    for another architecture is an error naming both, since its
    synchronization and allocation would be planned for the wrong one.

    It also checks that every transfer takes a data path the target's AI
    core has: C220 (A2/A3) has no direct path between its cores (L0C -> UB,
    UB -> L1, L1 -> UB; they meet in GM), C310 (950) no L1 -> GM copy. Such a
    transfer is an error at the op.

    And it checks that no local tensor crosses a function boundary: the
    memory passes plan, and the synchronization passes order, each
    function's local tensors within it, so a function that takes or
    returns one, and a call that passes one, are errors at the op (rather
    than tensors without a buffer id or synchronization).
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"c220\"",
           "The target: c220 or c310">,
  ];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def DispatchAlloc : Pass<"ascendc-dispatch-alloc", "mlir::ModuleOp"> {
  let summary = "Plans the advanced API's scratch so that allocation is static";
  let description = [{
    Gives every advanced-API call that takes a `sharedTmpBuffer` (the
    `ScratchOpInterface`: `ascendc.broadcast`, `ascendc.reduce_*`) a
    planned one: a `veccalc` byte tensor of the size the API's host-side
    `GetBroadCastMaxMinTmpSize` / `GetReduce<Op>MaxMinTmpSize` give for its
    shape, element type and architecture (at least one block), placed
    before the call. The memory passes then place it, and share its bytes
    with tensors whose lives do not overlap. Sets `ascendc.alloc_strategy`
    to `"static"`.

    ```mlir
    ascendc.reduce_max %m, %x axis 1 : !ascendc.local_tensor<16x1xf32>, !ascendc.local_tensor<16x128xf32>
    // becomes
    %tmp = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<4096xui8>
    ascendc.reduce_max %m, %x axis 1 scratch %tmp : !ascendc.local_tensor<16x1xf32>, !ascendc.local_tensor<16x128xf32>, !ascendc.local_tensor<4096xui8>
    ```

    Departure from the seed, which chose TPipe-managed buffers for C220 and
    for every module holding such a call: the emitted kernels create no
    `TPipe`, so the API's pipe-backed forms would take their scratch from a
    null pipe on the device. `ascendc.static_alloc = false` (asking for
    TPipe) is an error, and so is a reduction of an element type the API
    does not take on the architecture (C220's `ReduceSum` takes f32 only).
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def ReuseUbAllocation : InterfacePass<"ascendc-reuse-ub-allocation", "mlir::FunctionOpInterface"> {
  let summary = "Lets UB tensors whose lifetimes do not overlap share storage";
  let description = [{
    Runs before `ascendc-allocate-tensor`. In each block, a UB placeholder
    (`vecin`, `vecout`, `veccalc`, `co2`) lives from its first use to its
    last use, measured on the ops of that block (a use inside a nested
    region counts at the op holding the region, except that the ops of an
    `if_aic` / `if_aiv` group, which run once and in order, count in line;
    uses through reinterpret casts count). A tensor whose life starts after another's ended takes
    over that storage: it becomes an `ascendc.reinterpret_cast` of the
    earlier tensor, or, when it is the larger of the two, it moves before
    the earlier tensor, which becomes a cast of it. Tensors are considered in
    IR order and take the storage that was freed first; a storage holds one
    live tensor at a time.

    The regions of an op with several of them (`scf.if` then/else,
    `scf.while` before/after) never run at the same time: after each
    region's own sharing, the j-th UB tensor left in each region shares
    with the j-th of the first region, and the shared tensor moves before
    the op.

    Then across blocks: a tensor takes the storage of one of an enclosing
    block (or of the block a core group it is in counts in) that is not in
    use while it is: last used before or first used after it, or before or
    after the op holding it. A loop-carried value's initial tile, used only
    before the loop, gives its storage to a tile of the loop body; the
    epilogue's tile, used only after it, takes one back. `input`/`output`
    tensors do not share across blocks. Each lane's tensors (`ascendc.lane`)
    share only with tensors of the same lane: on two sub-blocks each lane's
    UB is its own.

    Last, by lifetime across the function, for what the steps above
    leave apart (`input`/`output` tensors aside). Before any of them
    moves a placeholder (or before `ascendc-reuse-tensor-allocation`
    with `keep-lifetimes`), each one's lifetime is recorded: from the
    first to the last use of it or of a cast of it in the function's op
    order, a use inside a loop that does not hold the placeholder
    spanning the whole loop (a placeholder inside a loop is a new tensor
    on each trip). A storage is in use whenever one of the tensors it
    took was. The largest first, each storage folds into the smallest
    other one of its buffer that already holds it and is never in use at
    the same time (so no storage grows and the total only shrinks; reuse
    groups stay apart), and the owner moves to the front of the
    innermost block holding both. This joins what the greedy choice of
    an enclosing block misses: a look-ahead's tile before a loop, the
    next block's in a branch of the loop and the loop body's own; a
    loop's tiles and those of the loop after it.

    In a loop body, two tensors both marked `input` or `output` do not
    share: the next iteration's loads overlap the previous one's stores
    when the loop is pipelined. `reuse-in-out` allows it. Tensors of
    different reuse groups (`ascendc.reuse_group`, as a double-buffered
    loop's two halves carry) never share, here or in
    `ascendc-reuse-tensor-allocation`: their groups may be live at once.
  }];
  let options = [
    Option<"reuseInOut", "reuse-in-out", "bool", "false",
           "Let input/output tensors of the same loop body share storage">
  ];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def ComputeReuseGroup : InterfacePass<"ascendc-compute-reuse-group", "mlir::FunctionOpInterface"> {
  let summary = "Numbers the iterations of unrolled loops into reuse groups";
  let description = [{
    An unrolled loop is a run of `scf.execute_region` ops, one per
    iteration, carrying `asctile.unroll_factor = F` and
    `asctile.unroll_iter = i` (`0 <= i < F`; `i = F` marks the epilogue
    iteration that handles the remainder). Buffers of iterations in the same
    reuse group may share storage; different groups may be live at once.

    The group of an iteration is `(i + start) % F`. `start` is the nesting
    depth of the block (the number of enclosing unrolled iterations) plus
    the number of epilogues met so far among the block's earlier
    iterations: after an epilogue, the next unrolled loop at that level
    starts one group later, so its first iteration does not share the
    epilogue's buffers.

    Every op in an iteration (the region op included; the innermost
    iteration wins) gets `ascendc.reuse_group = g`, and
    `asctile.unroll_iter` is removed. An iteration outside `0..F`, or a
    factor that is missing or not positive, is an error.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def ReuseTensorAllocation
    : InterfacePass<"ascendc-reuse-tensor-allocation", "mlir::FunctionOpInterface"> {
  let summary = "Lets local tensors of different unrolled iterations share storage";
  let description = [{
    Runs before `ascendc-allocate-tensor`, on placeholders at `veccalc`,
    `vecin`, `vecout` (UB), `a1`, `b1` (L1), `a2` (L0A), `b2` (L0B) and
    `co1` (L0C); a tensor only shares with tensors of the same buffer.

    A tensor's iterations are the `asctile.unroll_iter` values of the ops
    that use it (the op's own attribute or the nearest enclosing op's).
    In IR order, each tensor looks for a storage, in the order the storages
    were created, whose current tensor (the *top*) has finished:

    * when both have iterations, the top's last iteration is before the
      tensor's first one; an `input`/`output` tensor and a tensor that is
      neither never share across iterations (each iteration loads and
      stores its own data), and they cannot share within one either, since
      the two are then live together;
    * when either has no iteration, both are defined in the same block and
      the top's last use comes before the tensor's first use there.

    Sharing works as in `ascendc-reuse-ub-allocation`: the smaller tensor
    becomes a reinterpret cast of the larger, with sizes computed as
    `ascendc-allocate-tensor` computes them (cube positions padded to
    fractals). A storage owner shared across blocks moves to the top of its
    function so that it dominates every cast.

    Then across blocks, for the cube's buffers (L1, L0A, L0B, L0C): a
    tensor takes the storage of one of an enclosing block that is not in
    use while it is, last used before or first used after the op (a loop,
    a branch) holding it, as `ascendc-reuse-ub-allocation` does for UB.
    A look-ahead's first block, computed before the loop, shares the
    loop's tiles in L0B and L0C.

    Last, for the cube's buffers, by lifetime across the function as
    `ascendc-reuse-ub-allocation` shares UB: whole storages fold into
    others that already hold them and are never in use at the same time.
    With it, 256-key blocks of flash attention with look-ahead fit L0B
    (`test/Conversion/compile-lifetimes-across-blocks.test`). The
    lifetimes are recorded first; with `keep-lifetimes` UB's are too and
    stay (`ascendc.lifetime`) for `ascendc-reuse-ub-allocation`, which the
    pipelines run next, since the UB tensors this pass joins no longer
    show when each was in use.
  }];
  let options = [
    Option<"keepLifetimes", "keep-lifetimes", "bool", "false",
           "Leave the recorded lifetimes for ascendc-reuse-ub-allocation">
  ];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def FormCoreGroups : Pass<"ascendc-form-core-groups", "mlir::ModuleOp"> {
  let summary = "Splits each kernel that uses both cores into if_aic / "
                "if_aiv groups";
  let description = [{
    A kernel whose local tensors live on both cores (a merged group, or an
    in-core function mixing cube and vector tile ops, as
    `convert-pto-to-ascendc` leaves them) runs on both, each core its own
    ops. This pass wraps each run of one core's ops in an `ascendc.if_aic`
    or `ascendc.if_aiv` group, inside loops and branches that hold both
    cores' ops too. An op runs on the core whose buffers its local tensors
    are in; a copy on the core holding its source (its destination when
    the source is GM); scalar code, placeholders and GM views on both: they
    move before the first group since the last control-flow op holding
    both cores' ops, so the groups stay long.

    A mixed kernel returns nothing on the machine: the GM tensors it
    returns (buffers it was passed) go, and its callers use the arguments
    instead; a returned value that is not an argument is an error at the
    function. Host code, one-core kernels and kernels that already hold
    groups are left alone, so running the pass twice changes nothing.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def PromoteCvBlock : Pass<"ascendc-promote-cv-block", "mlir::ModuleOp"> {
  let summary = "Sets the kernel type and unwraps the core groups of "
                "pure cube or vector kernels";
  let description = [{
    Sets `ascendc.kernel_type` on the module: `"mixed"` when it holds both
    `ascendc.if_aic` and `ascendc.if_aiv` groups, `"cube"` with only cube
    groups, `"vector"` with only vector groups (a module without groups is
    left alone). In a cube or vector kernel every group runs on the one
    kind of core there is, so its body moves in place of the group; mixed
    kernels keep their groups.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def GuardLanes : InterfacePass<"ascendc-guard-lanes", "mlir::FunctionOpInterface"> {
  let summary = "Runs each vector lane of a split group on its own vector sub-block (1:2)";
  let description = [{
    A split group's aiv function runs on two lanes; `pto-merge-groups`
    clones its ops once per lane and the lowering marks each lane's local
    tensors with `ascendc.lane`. This pass puts each run of one lane's ops
    (those that touch its tensors) in the vector groups of a mixed function
    under `ascendc.if_subblock <lane>`, so that on the machine sub-block 0
    runs lane 0 and sub-block 1 lane 1: a kernel that holds such ops is
    launched with two vector cores per cube (`KERNEL_TYPE_MIX_AIC_1_2`).
    Scalar code, flags, barriers and cross-core flags stay outside, for
    both sub-blocks to run: each vector core then sets and waits every
    cross-core flag of the vector side, as mode 2 of `CrossCoreSetFlag`
    counts them (the cube's wait takes one set from each vector core, its
    set reaches both).

    A function without a cube part, or whose cube writes the vector core's
    UB (a C310 L1 -> UB mailbox holds both lanes' parts), stays on
    sub-block 0 (1:1,
    `ascendc-insert-subblock-guard`): each sub-block has its own UB. An op
    that moves GM data on the vector core and touches no lane's tensor is
    an error: neither sub-block alone may run it, and both would repeat
    it. Functions already guarded are left alone.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def InsertSubblockGuard : Pass<"ascendc-insert-subblock-guard", "mlir::ModuleOp"> {
  let summary = "Lets only sub-block 0 run each function of a mixed kernel";
  let description = [{
    In a module with `ascendc.kernel_type = "mixed"`, puts
    `ascendc.subblock_guard` (`if (AscendC::GetSubBlockIdx() != 0)
    return;`) first in every function with a body but host code
    (`ascendc.host`, which launches the kernels) and functions whose lanes
    run on both sub-blocks (`ascendc.if_subblock`, `ascendc-guard-lanes`). Functions that already
    start with it are left alone, so running the pass twice changes nothing;
    other kernel types are untouched.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def FormLaunch : Pass<"ascendc-form-launch", "mlir::ModuleOp"> {
  let summary = "Makes each host function one launch of a kernel that loops over its work items";
  let description = [{
    A host function (`ascendc.host`, a lowered orchestration) calls a kernel
    per work item. This pass moves its control flow into a new kernel,
    `@<host>_kernel`, in which each call runs only on the core that owns its
    item: items are numbered in program order and item `i` belongs to block
    `i % get_block_num` (the rule `tilekit sim` spreads items by,
    `machine::getWorkItemCore`). The host function becomes one
    `ascendc.launch` of that kernel on `cores` blocks, or on one block when
    the orchestration is not marked `pto.independent_items`
    (`pto-prove-independent-items`): one core then runs every item in
    program order, which honours any GM dependency between them. An
    orchestration marked `pto.item_phases` gets one kernel per phase,
    `@<host>_kernel_<n>` with only that phase's calls, launched in order,
    each on `cores` blocks when its items are independent, else on one.
    A host whose kernels all run on one vector core launches twice as many
    blocks: one per vector core, two per AI core (so `tilekit sim` and the
    machine use every vector core).

    ```mlir
    // before
    func.func @softmax(%x: ..., %y: ...) -> ... attributes {ascendc.host} {
      scf.for %row = %c0 to %m step %c16 ... {
        func.call @softmax_tile(%x, %y, %row, %rows) ...
      }
    }
    // after
    func.func @softmax_kernel(%x: ..., %y: ...) {
      %block = ascendc.get_block_idx
      %blocks = ascendc.get_block_num
      %n = scf.for %row = %c0 to %m step %c16 iter_args(%item = %c0) -> (index) {
        %core = arith.remsi %item, %blocks : index
        %mine = arith.cmpi eq, %core, %block : index
        scf.if %mine { func.call @softmax_tile(%x, %y, %row, %rows) ... }
        %next = arith.addi %item, %c1 : index
        scf.yield %next : index
      }
      return
    }
    func.func @softmax(%x: ..., %y: ...) -> ... attributes {ascendc.host} {
      %c24 = arith.constant 24 : index
      ascendc.launch @softmax_kernel(%x, %y) blocks %c24 : ...types
      return %y : ...
    }
    ```

    The called kernels stay functions (`ascendc.device`: in C++, `__aicore__
    inline`), each ending with its pipes drained, unless consecutive items
    of a core overlap (`overlap-items`, on by default, for independent items
    whose memory plan fits twice in every buffer): then each callee gets a
    copy `<name>_pong` whose local tensors sit above the original's in each
    buffer and whose GM scratch follows the original's in the item's
    workspace slice (on C310 with buffer ids of its own where they remain),
    a core's even items call the original and its odd items the copy, both
    end with their pipes running (`ascendc.overlapped`), and one event per
    pipe P the items use hands the pipes over: `set_flag P -> S` at the
    kernel's entry and after each item, each after a `wait_flag P -> S` of
    it (and one before the return). The wait after item k holds the scalar
    pipe until item k - 1 is done on P, so item k + 1, in item k - 1's
    half, issues only then while item k may still run. A pipe with no event
    to S (MTE1) hands over through one that has (M): `set_flag`/`wait_flag
    MTE1 -> M` after each item, before M's token, then `M -> MTE1` back. A
    mixed kernel's cores do this each in its group, and hand items to each
    other one item behind: each sets a cross-core flag after every item
    (and at the entry) and waits for the other's after every item (and
    before the return)
    (`tilekit/Dialect/AscendC/Transforms/ItemOverlap.h`). Where it does not
    apply the pass says why in a remark. A host function this cannot express (one that
    runs ops other than scalar arithmetic, `scf.for`/`scf.if`, extents,
    workspaces and kernel calls, one whose GM values cannot be followed to
    its arguments, a kernel that reads its block index, or a kernel that
    something else calls too) is left as it is, with a warning at the op.
  }];
  let options = [
    Option<"cores", "cores", "unsigned", "0",
           "AI cores a launch whose items are independent spreads them "
           "over (0: the architecture's, 24 on C220 and 32 on C310); "
           "vector-only kernels take two blocks per AI core">,
    Option<"overlapItems", "overlap-items", "bool", "true",
           "Overlap consecutive independent items of a core, each in its "
           "half of UB, where the plan fits twice">,
    Option<"ubBytes", "ub-bytes", "int64_t",
           "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::UB)",
           "UB capacity, which two overlapped items share">,
    Option<"l1Bytes", "l1-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L1)", "L1 capacity">,
    Option<"l0aBytes", "l0a-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0A)", "L0A capacity">,
    Option<"l0bBytes", "l0b-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0B)", "L0B capacity">,
    Option<"l0cBytes", "l0c-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0C)", "L0C capacity">,
    Option<"btBytes", "bt-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::Bias)", "Bias table capacity">
  ];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def InsertInitDump : Pass<"ascendc-insert-init-dump", "mlir::ModuleOp"> {
  let summary = "Adds the dump argument and InitDump to kernels that print";
  let description = [{
    A function holding `ascendc.printf` or `ascendc.dump_tensor` gets a last
    argument `dump_addr : !ascendc.global_tensor<?xui8>` marked
    `ascendc.kernel_arg = "DumpAddr"` and, first in its body,
    `ascendc.init_dump %dump_addr [mixed] size 1048576` (1 MiB per core;
    `mixed` when the module's `ascendc.kernel_type` is `"mixed"`). Functions
    that already call `init_dump` are left alone.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def RemoveDebugOps : InterfacePass<"ascendc-remove-debug-ops", "mlir::FunctionOpInterface"> {
  let summary = "Removes printf, dump_tensor and assert";
  let description = [{
    Erases `ascendc.printf`, `ascendc.dump_tensor` and `ascendc.assert`,
    for builds without debug mode. Run it before `ascendc-insert-init-dump`,
    which then has nothing to set up.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def FixupMmadAccParams : InterfacePass<"ascendc-fixup-mmad-acc-params", "mlir::FunctionOpInterface"> {
  let summary = "Initializes an accumulator on its first mmad only";
  let description = [{
    An mmad whose `init` is absent (Ascend C's cmatrixInitVal defaults to
    true) or the constant `true` starts an accumulation. When several such
    mmads write one accumulator (directly or through reinterpret casts), or
    one does inside a loop, a fixed flag would re-initialize the
    accumulator each time. The pass allocates a one-element `i1` memref set
    to `true` right after the accumulator is defined; each such mmad reads
    its `init` from it, the flag is set to `false` after each, and to
    `true` again after every other op that uses the accumulator (a
    `fixpipe` taking the result): an accumulation ends where its result is
    read, so the next output tile of a tile loop starts fresh. An `init`
    that is the constant `false` or a runtime value is the kernel's own and
    is kept.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

def InsertBufIdSync : InterfacePass<"ascendc-insert-bufid-sync", "mlir::FunctionOpInterface"> {
  let summary = "Guards every use of a local tensor with its buffer id (C310)";
  let description = [{
    C310 cores order pipes through buffer ids. In each function:

    1. every allocation (`ascendc.local_tensor`, `ascendc.tbuf_get_tensor`)
       gets `ascendc.buf_id`, numbered from 0 in IR order;
    2. every instruction using local tensors gets, for each distinct tensor
       it uses (through casts, in operand order), `ascendc.get_buf <pipe>,
       <id>` before it and `ascendc.rls_buf <pipe>, <id>` after it, on the
       instruction's pipe (MTE2 loads from GM, MTE3 stores and UB->L1
       copies, MTE1 L1 loads, M mmad, FIX fixpipe, V vector, S debug
       output), and `ascendc.buf_ids` listing those ids, for
       `ascendc-fuse-bufid-sync`;
    3. at the end of each `scf.for` body holding GM stores (MTE3), a
       `set_flag`/`wait_flag` pair `mte3 -> mte2` (when the body loads
       from GM) and `mte3 -> mte1` (when it loads L1), event 0, so that the
       next iteration's loads wait for this one's stores. Hard events order
       the pipes of one core, so this is decided per core: in a body
       holding core groups, the pair ends the last group of the core that
       stores and loads (the seed puts it at the end of the body, outside
       both groups, where both cores would run it). Loops marked
       `ascendc.vec_scope_loop` or `ascendc.parallel` are skipped.

    Functions that already hold `get_buf` are left alone, so running the
    pass twice changes nothing.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def FuseBufIdSync : InterfacePass<"ascendc-fuse-bufid-sync", "mlir::FunctionOpInterface"> {
  let summary = "Drops buffer-id syncs between consecutive ops on the same "
                "buffers and pipe";
  let description = [{
    In a run of instructions that follow each other in a block, use the same
    `ascendc.buf_ids` and run on the same pipe (V, MTE2 or MTE3), only the
    first needs its `get_buf`s and only the last its `rls_buf`s: the pass
    removes the others. Then it removes the `ascendc.buf_ids` annotations.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def InsertCrossCoreSync : InterfacePass<"ascendc-insert-cross-core-sync", "mlir::FunctionOpInterface"> {
  let summary = "Cross-core flags for on-chip transfers between cube and "
                "vector groups";
  let description = [{
    A no-op in functions with fewer than two `ascendc.if_aic` /
    `ascendc.if_aiv` groups. Otherwise every storage that a *transfer*
    writes for the other core (the L1 destination of a UB -> L1
    `ascendc.data_copy` in a vector group, the UB destination of an L0C ->
    UB `ascendc.fixpipe` or an L1 -> UB `ascendc.data_copy` in a cube
    group: a local tensor of the other core's buffer) is handed between the cores with
    one cross-core flag id (the cube's and the vector core's counters of an
    id are distinct, so one id serves both directions):

    * The storage belongs to one core at a time. Before a core's first
      access after the other core's, it waits for the flag (on the
      access's pipe); after the other core's last access before it, that
      core sets the flag (on the pipe of its accesses; behind
      `pipe_barrier all` on PIPE_S when they used several pipes). An access
      is any op of a core group that reads or writes the storage (through
      casts); a transfer nobody on the other core touches gets no flag.
    * A loop whose body holds both cores' accesses (an `scf.for`, or an
      `scf.while` whose condition touches none of the storage) enters, runs
      each trip and leaves in one state: the body's first access finds the storage
      held by, or on its way to, its core. A group before the loop seeds
      the flag on PIPE_S when nothing before it did (the first trip would
      wait forever), the body's end hands the storage back, and a
      consumer earlier in the body than its producer reads the previous
      trip's (or the prologue's) transfer. What the loop leaves in flight
      is waited for after it (or at the function's end: a drain).
    * A core's accesses under an `scf.if` the other core does not share
      synchronize around the whole if, in new groups before (wait) and
      after (set) it; an if holding both cores' accesses gets the flags
      inside its arms, and the arm that ends in another state than the
      other steps to it (a missing else branch is created when it needs
      flags). No path sets a flag more often than it is waited.
    * Ids count from 0 in the order of each storage's first access,
      skipping, and wrapping at 16, any id whose flags span the same
      top-level ops (a wait could take the other storage's set); with all
      16 live, the pass fails with an error at the storage's first access.

    The function keeps the next id in `ascendc.cross_core_flag_id` for
    `ascendc-insert-cross-core-sync-gm`. **Departures:** the seed waits in
    the first consumer group only and signals "free" after it, always: a
    later reader raced with the next transfer, a signal nobody waited for
    stayed set, a producer under an `scf.if` hung the consumer, and a
    transfer before a loop whose body reads first was overwritten in the
    first trip.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def InsertCrossCoreSyncGm
    : InterfacePass<"ascendc-insert-cross-core-sync-gm", "mlir::FunctionOpInterface"> {
  let summary = "Cross-core flags for L0C -> GM and UB -> GM transfers";
  let description = [{
    Every root GM tensor that a core group writes (an L0C -> GM
    `ascendc.fixpipe`, a local -> GM `ascendc.data_copy`; views through
    `ascendc.global_tensor.subindex` count as the root) and the other core
    reads or writes is handed between the cores by the protocol of
    `ascendc-insert-cross-core-sync`, with waits on PIPE_S before the
    access: a read after the other core's write waits for it, and a write
    after the other core's read or write waits until that core is done
    (write after read: the vector core may still read the cube's previous
    value), in straight-line code, across loop trips and around `scf.if`.
    A storage whose cross-core accesses the kernel's own flags already
    order (`ascendc-verify-sync`'s analysis finds no race on it in any
    scenario) is left alone: the handshake follows program order, which
    the kernel's flags may contradict (a cube group placed first that waits
    for the vector core), and adding it there would deadlock.
    Ids continue from the function's `ascendc.cross_core_flag_id` (else 0),
    skipping those of the on-chip flags live at the same time; the pass
    removes the attribute.

    **Departures:** one bank only: the seed also sets `id + 16` from the
    cube and waits for it on the cube, the flags of vector sub-block 1. In
    mode 2 one set of the cube reaches both vector cores and one wait
    takes a set from each (the CrossCoreSetFlag page), so a 1:2 kernel
    (`ascendc-guard-lanes`) needs no second bank, and on a 1:1 kernel no
    core would set it: the cube's wait for it never ended. The seed gives each write its own id and inserts no
    write-after-read or loop-carried flags.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

//===----------------------------------------------------------------------===//
// Vector instruction operands
//===----------------------------------------------------------------------===//

def LowerToL0 : InterfacePass<"ascendc-lower-to-l0", "mlir::FunctionOpInterface"> {
  let summary = "Rewrites simple-level (L2) vector ops as low-level (L0) ones";
  let description = [{
    Each `*_l2` op becomes its `*_l0` form. A repeat covers 256 bytes of
    the widest element (64 f32, 128 f16, 256 i8 elements; a compare counts
    its inputs). The count becomes a mask and a repeat count: none when it
    is absent or covers the whole tensor (`ascendc-fill-asc-operands` then
    fills them from the shape), `mask = count, repeat = 1` when it fits one
    repeat, `mask = 64, repeat = count / 64` (for f32) when it is a multiple
    of a repeat. Any other count becomes the full repeats (`mask = 64,
    repeat = count / 64`) and one tail instruction (`mask = count % 64,
    repeat = 1`) on `reinterpret_cast` views of its operands that start
    after them. A count known only at run time computes both as the kernel
    runs, each instruction under an `scf.if` that it is not empty; the
    tail's view is one repeat where one fits after the full repeats, else
    the tensor's last partial repeat. Full repeats past 255 (Ascend C's
    `repeatTimes` is a `uint8_t`) go 255 at a time, each on a view from
    its first repeat.

    **Departure:** `compare_l2` stays as it is. The L0 compare lays its
    result bits out per repeat, which neither the executor nor the CPU
    runtime models, so `--verify-each` could not show the rewrite keeps
    the mask (it refused to run the result).
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def FillAscOperands : InterfacePass<"ascendc-fill-asc-operands", "mlir::FunctionOpInterface"> {
  let summary = "Fills default counts, masks, repeats and strides";
  let description = [{
    * An L2 op without a count gets the number of elements of its
      destination (of its inputs, for compares).
    * An L0 op without a mask and repeat count gets `mask = min(elements,
      per repeat)` and `repeat = ceil(elements / per repeat)`, a repeat
      covering 256 bytes of the widest element.
    * An L0 op without strides gets block stride 1 for each tensor operand
      and a repeat stride of the 32-byte blocks one repeat covers in that
      operand's element type, so repeats follow one another: `[1, 1, 8, 8]`
      for one source of the same type, `[1, 1, 1, 8, 8, 8]` for two,
      `[1, 8]` for `duplicate_l0`, `[1, 1, 8, 4]` for an f16 -> f32 cast
      (the seed gives every operand 8, which skips half of the f16
      source). A compare's bit-mask destination keeps 8.

    UB tensors are allocated in whole 256-byte repeats
    (`ascendc-allocate-tensor`), so the last repeat stays inside its
    tensor.

    Operands already given are kept, so running the pass twice changes
    nothing.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect",
                           "::mlir::arith::ArithDialect"];
}

def InsertPipeSync : InterfacePass<"ascendc-insert-pipe-sync", "mlir::FunctionOpInterface"> {
  let summary = "Orders the pipes of a core with set/wait flags (C220)";
  let description = [{
    C220 has no buffer ids: the pipes of a core (MTE2, MTE1, M, FIX on the
    cube; MTE2, V, MTE3 on the vector core) run at once, and only hard
    events order them. The pass walks each core's code in program order
    (core groups continue their core's walk; loop bodies are walked three
    times, so a hazard from one trip to the next is seen; both arms of an
    `scf.if` start from the state before it) and keeps, for every storage
    (a planned tensor's bytes, a placeholder, a GM tensor), the accesses
    not yet ordered before the other pipes. An op that reads what another
    pipe wrote, or writes what another pipe read or wrote, gets

    ```mlir
    ascendc.set_flag mte2 -> v, event 0
    ascendc.wait_flag mte2 -> v, event 0
    ```

    right before it for each such pipe: the set runs after the earlier
    access on its in-order pipe, the wait holds the op's pipe. When the
    source pipe's accesses the op conflicts with all precede the loops and
    branches around it, the pair goes before the outermost of them
    instead, so that it runs once, not every trip (the source pipe's other
    accesses inside them stay unordered). Existing wait_flags and
    `pipe_barrier all` count as orderings. After a loop, or an `scf.if`,
    the accesses still unordered on any path (zero trips, either arm) stay
    unordered.

    A pair whose op waits only for accesses of the previous trip of the
    loop right around it (accesses later in the body), and for code before
    the loop, is then split the way Ascend C writes a ping-pong buffer:

    ```mlir
    ascendc.set_flag mte1 -> mte2, event 0      // trip 0
    scf.for ... {
      ascendc.wait_flag mte1 -> mte2, event 0
      ascendc.data_copy %a1, ...                 // the next block into A
      ...
      ascendc.load_data %a2, %a1                 // A's reader
      ascendc.set_flag mte1 -> mte2, event 0     // A is free
      ...
    }
    ascendc.wait_flag mte1 -> mte2, event 0      // the last trip's set
    ```

    The set moves right after the last access it orders, so the op waits
    for its own buffer's reader, not for every earlier op of that pipe: in
    a double-buffered loop (`pto.buffer_set`) the next half's load overlaps
    this half's reads. A split wait orders less than the pair did, so the
    code is walked again, each wait ordering what its set's pipe issued
    before that set, and what is left unordered gets pairs of its own,
    split in turn (up to six rounds; the last round's pairs stay whole).

    The chip keeps one bit per event, and a set executes when its pipe gets
    there, not where it is written: a set must find its event's bit down
    (the CCE intrinsics' set_flag & wait_flag page). So the event ids (0-5;
    6 and 7 are the framework's) are given last, walking the code again
    with the same loop and branch rules: every pair whose wait directly
    follows its set (this pass's, and `ascendc-insert-bufid-sync`'s) takes
    the id waited for longest ago among those whose last wait is ordered
    before it; a split pair takes one at its set before the loop, and each
    of its sets checks that its bit is down. When there is none, or a later trip of a loop finds its own
    id maybe still up, a hand-over goes first: a pair the other way, which
    holds the source pipe until the destination pipe has passed its waits
    (`pipe_barrier all` where the chip has no such flag).
    `ascendc-verify-sync` checks the
    result. The seed leaves C220's intra-core ordering to TPipe queues that
    nothing in the pipeline created; this pass makes it explicit.

    With `global-only`, only GM tensors count: the C310 pipeline runs it so,
    after its buffer ids have ordered the local tensors, because a core
    that reads a GM tensor on MTE2 and writes it on MTE3 (or FIX) needs the
    same ordering and buffer ids do not cover GM (a departure from the
    seed, whose C310 pipeline leaves those pairs unordered).
  }];
  let options = [
    Option<"globalOnly", "global-only", "bool", /*default=*/"false",
           "Order only the accesses to GM tensors">,
  ];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

def VerifySync : InterfacePass<"ascendc-verify-sync", "mlir::FunctionOpInterface"> {
  let summary = "Proves every cross-pipe and cross-core hazard ordered";
  let description = [{
    An analysis that changes nothing: it runs each kernel abstractly with
    a vector clock per (core, pipe) stream and reports, as errors,

    * each pair of accesses to one storage (a planned tensor's byte range
      in its buffer, a placeholder, a GM tensor) from different pipes or
      cores, one of them a write, that no set/wait flag, full pipe barrier,
      buffer id or cross-core flag orders (both ops' locations and the
      storage);
    * each wait_flag without an earlier set_flag, each set_flag never
      waited;
    * each cross-core wait whose flag is never set (the core would hang)
      and each cross-core flag set but never waited (the cube's id + 16
      addresses vector sub-block 1, which the model does not run);
    * each cross-core set of a flag whose earlier set, from another pipe
      and not ordered before it, may still be pending: the two may land in
      either order, so the wait cannot tell which one it takes (a flag id
      reused while live);
    * each cross-core set that may find 15 sets of its flag in the
      counter: pending, or taken by a wait not ordered before it (the
      counter holds 15, CrossCoreSetFlag's page).

    The kernel runs in several scenarios, and both cores see the same one:
    every `scf.if` takes its then arm and loops run twice (loop-carried
    hazards show in the second trip; a loop with a constant trip count
    runs that often, at most twice); every `scf.if` takes its else arm;
    loops whose trip count is not a constant run zero times; and each
    `scf.if` alone takes its else arm. A report names its scenario. The
    vector core is sub-block 0, pipes execute in order, and the scalar pipe
    issues every op (what it executes precedes what any pipe executes
    after it). Independent of the passes that insert synchronization, so
    that their output can be checked.

    It also reports each set_flag whose event may still be up: an earlier
    set of the same event (pipe pair and id) that the last wait of it is
    not ordered before. The chip keeps one bit per event and forbids a
    second set before the wait (the CCE intrinsic page of set_flag &
    wait_flag): the second set is lost and the second wait hangs.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect"];
}

#endif // TILEKIT_DIALECT_ASCENDC_TRANSFORMS_PASSES_TD
