// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -verify-diagnostics
// The pipelines' output, checked: C310 (buffer ids and cross-core flags)
// is clean on the example and on a vector -> GM -> cube kernel.
// RUN: sed 's/"c220"/"c310"/' %examples/ascendc/matmul_relu.mlir | tilekit-opt -ascendc-c310-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null
// RUN: tilekit-opt %S/Inputs/vector-to-cube.mlir -ascendc-c310-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null
// Blocks that write one GM tensor again (the backward signal), both
// pipelines.
// RUN: tilekit-opt %S/Inputs/repeated-blocks.mlir -ascendc-c220-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null
// RUN: tilekit-opt %S/Inputs/repeated-blocks.mlir -ascendc-c310-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null

// GM -> UB -> V -> UB -> GM with a flag on each hand-off: ordered.
func.func @flagged(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %out = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  ascendc.set_flag mte2 -> v, event 0
  ascendc.wait_flag mte2 -> v, event 0
  ascendc.exp_l2 %out, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.set_flag v -> mte3, event 0
  ascendc.wait_flag v -> mte3, event 0
  ascendc.data_copy %gm, %out : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// The vector op reads what MTE2 wrote with nothing in between.
func.func @missing(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %out = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  // expected-note @below {{the unordered access}}
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  // expected-error @below {{reads UB[0, 256) on the vector v pipe with nothing ordering it after the write on the vector mte2 pipe}}
  ascendc.exp_l2 %out, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// Overlapping byte ranges of two planned tensors are one storage.
func.func @aliased(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %alias = ascendc.local_tensor veccalc addr 128 size 256 : !ascendc.local_tensor<64xf32>
  // expected-note @below {{the unordered access}}
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  // expected-error @below {{writes UB[128, 384) on the vector v pipe}}
  ascendc.exp_l2 %alias, %alias, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// In a loop, MTE2 -> V is flagged but V -> MTE2 is not: the second trip's
// load overwrites the tensor the first trip's vector op may still read.
func.func @loop_carried(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %out = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{writes UB[0, 256) on the vector mte2 pipe with nothing ordering it after the read on the vector v pipe}}
    ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    // With nothing holding MTE2 until V has waited, the next trip's set
    // may come first.
    // expected-error @below {{sets an event whose earlier set may not have been waited for yet}}
    ascendc.set_flag mte2 -> v, event 0
    ascendc.wait_flag mte2 -> v, event 0
    // expected-note @below {{the unordered access}}
    ascendc.exp_l2 %out, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  return
}

// -----

// A barrier over all pipes orders everything before it.
func.func @barrier(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  ascendc.pipe_barrier all
  ascendc.exp_l2 %in, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// Flags that do not pair up.
// expected-error @below {{leaves 1 set_flag v -> mte3 event 2 never waited}}
func.func @unpaired() {
  // expected-error @below {{waits for an event no earlier set_flag sets}}
  ascendc.wait_flag mte2 -> v, event 1
  ascendc.set_flag v -> mte3, event 2
  return
}

// -----

// The cube waits for a flag the vector core never sets: it would hang.
func.func @hang(%y: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aiv {
  }
  ascendc.if_aic {
    // expected-error @below {{waits for a cross-core flag that is never set (the cube core would hang here)}}
    ascendc.cross_core_wait_flag s, flag 4
  }
  return
}

// -----

// A cross-core flag nobody waits for.
func.func @unwaited(%y: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aic {
    // expected-error @below {{sets cross-core flag 5, which the vector core never waits for}}
    ascendc.cross_core_set_flag fix, flag 5
  }
  ascendc.if_aiv {
  }
  return
}

// -----

// A producer under an scf.if sets the flag the other core always waits
// for: when the branch is not taken, the cube hangs (the scenario with the
// else arm says so).
func.func @conditional_set(%c: i1) {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  scf.if %c {
    ascendc.if_aiv {
      ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.cross_core_set_flag mte3, flag 0
    }
  }
  ascendc.if_aic {
    // expected-error @below {{waits for a cross-core flag that is never set (the cube core would hang here) (when every scf.if takes its else branch)}}
    ascendc.cross_core_wait_flag mte1, flag 0
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// One flag id for two hand-offs whose sets sit on different pipes: the V
// set may land before the MTE3 one, and the cube's first wait could take
// it (an id reused while live).
func.func @reused_while_live(%n: index) {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %other = ascendc.local_tensor veccalc addr 512 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.cross_core_set_flag mte3, flag 0
    ascendc.exp_l2 %other, %other, %n : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    // expected-error @below {{sets cross-core flag 0 while an earlier set of it on another pipe may still be pending: a wait cannot tell which one it takes}}
    ascendc.cross_core_set_flag v, flag 0
  }
  ascendc.if_aic {
    ascendc.cross_core_wait_flag mte1, flag 0
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.cross_core_wait_flag mte1, flag 0
  }
  return
}
