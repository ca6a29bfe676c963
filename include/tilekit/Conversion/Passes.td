//===- Passes.td - PTO to AscendC passes ---------------------*- tablegen -*-===//

#ifndef TILEKIT_CONVERSION_PASSES_TD
#define TILEKIT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def MergeGroups : Pass<"pto-merge-groups", "mlir::ModuleOp"> {
  let summary = "Builds one kernel body per cube/vector group from its "
                "aic and aiv functions";
  let description = [{
    A PTO group (an `aic` and an `aiv` function exchanging tiles through
    cross-core pipes) runs as one AscendC kernel: this pass writes the
    group function's body from its members and erases them (once, when
    several groups share a member).

    * **Order.** The cube's ops and the vector core's are interleaved so
      that every pop comes after the pushes it takes and every push finds
      a free slot of its pipe: the order in which the cross-core
      synchronization passes reason. A loop holding transfers on both
      cores fuses with the other core's loop when their trips match and
      each trip pops what it pushes; a loop of a constant trip count that
      cannot fuse unrolls; anything else is an error at the op.
    * **Lanes.** A split (or dual-dispatch) group has two vector lanes;
      each of the aiv function's ops is cloned for lane 0, then for
      lane 1, with `get_subblock_idx` the lane's constant.
    * **Slots.** A pipe direction holds as many tiles in flight as its
      pushing end's `initialize_pipe` gives it slots (any number without
      one, as the PTO runtime's queues); a push takes the lowest free
      slot, a pop the oldest tile's. Each slot is an `ascendc.workspace`
      in GM, or on C310 (the module's `ascendc.arch`) for L1 tiles sent to
      the lanes a mailbox in UB that the cube's L1 -> UB copy fills.

    Each merged transfer carries where it moves its tile, as the
    `tilekit.transfer` dictionary: `workspace` (the id in the
    `tilekit.workspace` attribute of its slot's tensor), `lane`, `lanes`,
    `cut` (where lane 1's part of the box starts along the split axis),
    `id` on a push, and on a pop `partners`, per lane the `id` of the one
    push that feeds it (-1 when several may). `convert-pto-to-ascendc`
    reads and drops them. The merged form is not run on its own (one
    function holds both cores' transfers): `--verify-each` checks it
    together with the lowering that follows.

    Tiles at explicit addresses that overlap while both are live are
    refused here, in the members, before the lanes' clones share their
    addresses.
  }];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertPTOToAscendC : Pass<"convert-pto-to-ascendc", "mlir::ModuleOp"> {
  let summary = "Lowers PTO kernels to the AscendC dialect";
  let description = [{
    A dialect conversion for the module's `ascendc.arch` (c220 without
    one): `!pto.tensor` becomes `!ascendc.global_tensor`; each tile an op
    produces becomes a placeholder local tensor (same shape and element
    type) that the op writes, at the position its space and consumers
    choose, so that the AscendC memory passes plan it; loads, stores and
    moves become data copies, `load_data` and fixpipes; vector tile ops
    the AscendC vector ops at the simple (L2) level; matmuls `mmad`; the
    transfers of a merged group (`pto-merge-groups`, which must run first
    when the module holds groups) copies through their slots. `scf` and
    `arith` stay. Orchestration functions are marked `ascendc.host`.

    A vector tile a loop replaces each trip gets a home tensor before the
    loop, which the trip's end copies the new tile into, so that every
    loop carries local tensors in place. A PTO op without a lowering is an
    error naming it (the table is in docs/compile.md), and so is a
    register scope (compiled by `tilekit compile --emit=vf-bundle`).

    The result still mixes the cores in one function where a kernel uses
    both: `ascendc-form-core-groups` splits it.
  }];
  let options = [
    Option<"everyRefusal", "every-refusal", "bool", /*default=*/"false",
           "Report every op the lowering refuses, not the first only: each "
           "refused op stays as it is while the conversion runs again to "
           "find the next (an op that only uses what a refused op made is "
           "not reported); the pass still fails. `tilekit check --arch`">
  ];
  let dependentDialects = ["::tilekit::ascendc::AscendCDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILEKIT_CONVERSION_PASSES_TD
