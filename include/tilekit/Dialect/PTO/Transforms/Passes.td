//===- Passes.td - PTO passes -------------------------------*- tablegen -*-===//

#ifndef TILEKIT_DIALECT_PTO_TRANSFORMS_PASSES_TD
#define TILEKIT_DIALECT_PTO_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PlanMemory : InterfacePass<"pto-plan-memory", "mlir::FunctionOpInterface"> {
  let summary = "Assigns every tile of an in-core function an address in its buffer";
  let description = [{
    Gives each tile of an `incore`, `aic` or `aiv` function (or one without
    a kind) a byte offset in its buffer (`addr = N` in its type):

    * Tiles that must share storage form one class: the values a
      loop-carried tile flows through (`scf.for`/`scf.while` iter_args,
      init, yield and results; `scf.if` results and yields, through
      `RegionBranchOpInterface`), and a result with the operand it updates
      or views (`SharedStorageOpInterface`: `tile.assemble`, `tile.write`,
      `tile.scatter`, `tile.set_validshape`, `tile.reshape`, the scans,
      `tile.mrgsort`). A class whose members are live at the same time
      (a loop that yields its carried tiles swapped, an init still read
      after its loop) is an error at the op.
    * Liveness follows the structured control flow: a tile defined outside
      a loop and used inside it lives to the end of the loop; tiles of the
      two branches of an `scf.if` may share bytes. A tile lives from its
      definition to its last use, so an op never writes its result over an
      operand unless the two are one class.
    * Classes are placed first-fit in order of their first definition, at
      the buffer's alignment (include/tilekit/Machine/Machine.def: UB and
      L1 32 B, L0A/L0B 512 B, L0C 1 KiB). Tiles that already carry an
      address keep it; planned tiles never overlap them while both live.
      The result is deterministic.

    With `double-buffer`, each `scf.for` whose body loads tiles is unrolled
    by two (`scf` unrolling: a loop of twice the step and a loop for the
    remaining iteration) and each half's loads are marked with their
    *buffer set* (`pto.buffer_set = 0` or `1`). Tiles of different sets
    never share storage, whatever their lifetimes, so one half's loads need
    not wait for the other half's readers; other tiles share as any tiles
    do. `tilekit compile --double-buffer` compiles the same plan
    (the sets become reuse groups) and the timing model, which holds one
    version per buffer, times it. If that plan does not fit, the function
    is planned as written.

    A function that cannot fit is an error at the function naming the
    buffer, its capacity, the bytes it needs and the peak, with a note at
    each tile live at the peak. Capacities default to the machine
    description's; `tilekit` passes those of the machine config in use.
    Functions whose tile arguments or results carry no address are left
    alone.
  }];
  let options = [
    Option<"ubBytes", "ub-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::UB)", "UB capacity">,
    Option<"l1Bytes", "l1-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L1)", "L1 capacity">,
    Option<"l0aBytes", "l0a-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0A)", "L0A capacity">,
    Option<"l0bBytes", "l0b-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0B)", "L0B capacity">,
    Option<"l0cBytes", "l0c-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::L0C)", "L0C capacity">,
    Option<"btBytes", "bias-bytes", "int64_t", "::tilekit::machine::getDefaultCapacity(::tilekit::machine::Buffer::Bias)", "Bias table capacity">,
    Option<"doubleBuffer", "double-buffer", "bool", "false",
           "Double-buffer the load loops (two buffer sets) when the plan still fits">
  ];
}

def OutlineTensorCompute : Pass<"pto-outline-tensor-compute", "mlir::ModuleOp"> {
  let summary = "Gives the orchestration's data ops on whole tensors kernels of their own";
  let description = [{
    A compiled orchestration only launches kernels. This pass turns each of
    its ops that moves or computes data on whole GM tensors into launches
    of a generated in-core function (`tk_<op>`, private): `pto.tensor.full`,
    `slice`, `assemble`, `write`, `cast`, the elementwise families
    (`add`, `exp`, `muls`, ...), the row and column folds and integer
    `matmul`. The orchestration loops over the op's box
    in bands of 16 rows (and over its leading dimensions), one call a band;
    the kernel walks the band's tiles (up to 128 columns, whole 32-byte
    blocks): it loads them with the band's valid shape, applies the tile op
    of the same name (or fills the tile), and stores the valid region. A
    tensor of one dimension is viewed as one row. An op that makes a new
    tensor writes into a `pto.tensor.create`, so its shape must be static.
    An elementwise op whose only use is another elementwise op, or the
    source of an assemble, later in its block with nothing between that
    writes GM, is computed in that op's kernel: a chain is one kernel, and
    a chain assembled into a tensor it does not read is stored straight
    into it. Row and column folds take tiles of whole rows (columns);
    integer matmuls one tile of all of K.

    ```mlir
    %e = pto.tensor.exp %x : !pto.tensor<40x96xf32>
    // becomes
    %e = pto.tensor.create : !pto.tensor<40x96xf32>
    scf.for %row = %c0 to %c40 step %c16 {
      %rows = arith.minsi ...
      func.call @tk_exp(%x, %e, %row, %c0, %row, %c0, %rows, %c96) : ...
    }
    ```

    The executor keeps a valid region for every GM tensor (a slice that
    reaches past its source's edge, or one given a valid shape, has a
    partial one), a kernel on the machine none. The pass follows such
    regions through the ops it outlines (an assemble copies the valid
    region of its source, as the executor does) and refuses, at the
    slice, a tensor whose region may be partial that reaches anything
    else. Ops it does not take (`pto.tensor.read`, which the lowering
    makes the host's read, float matmuls, ops making a tensor of dynamic
    shape) stay, and the lowering says what to write instead.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect"];
}

def ProveIndependentItems : Pass<"pto-prove-independent-items", "mlir::ModuleOp"> {
  let summary = "Marks the orchestrations whose work items never meet in GM";
  let description = [{
    A compiled kernel is one launch: each core runs the work items (in-core
    calls) assigned to it round robin, in order, with no order between
    cores. That computes what the orchestration does only when no item
    reads or writes GM that an item on another core writes. This pass
    proves it (`tilekit/Dialect/PTO/Transforms/WorkItems.h` has the rule)
    and marks the orchestration `pto.independent_items`. Where items meet
    only across top-level ops that follow each other, it cuts the
    orchestration into phases, each as long as its items stay independent,
    and marks it `pto.item_phases = [{calls = N, independent}, ...]` (N call
    sites in program order; a phase without `independent` is one top-level
    op whose own items meet, with a warning why): the compiled kernel is
    then one launch per phase, in order. Where it cannot do either, it
    warns at the op that stops the proof, and the launch runs its items on
    one core, in program order.

    ```mlir
    // Each item stores rows [%row, %row + 16) of %y; %row steps by 16.
    func.func @softmax(%x: !pto.tensor<?x128xf32>, %y: !pto.tensor<?x128xf32>)
        attributes {pto.kind = #pto.kind<orchestration>,
                    pto.independent_items} { ... }
    ```
  }];
}

#endif // TILEKIT_DIALECT_PTO_TRANSFORMS_PASSES_TD
