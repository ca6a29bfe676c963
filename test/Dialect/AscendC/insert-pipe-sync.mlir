// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-insert-pipe-sync))' | FileCheck %s
// Independently: the output has no unordered pair left.
// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-insert-pipe-sync,ascendc-verify-sync))' -o /dev/null
// And the C220 pipeline's output on the examples is clean too.
// RUN: tilekit-opt %examples/ascendc/matmul_relu.mlir -ascendc-c220-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null
// RUN: sed 's/"c310"/"c220"/' %S/Inputs/vector-to-cube.mlir | tilekit-opt -ascendc-c220-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null

// GM -> UB (MTE2) -> V -> UB -> GM (MTE3): one pair before each consumer;
// the last copy writes the GM tensor the first one read (MTE2 -> MTE3).
// CHECK-LABEL: func.func @chain(
// CHECK: ascendc.data_copy %[[IN:.*]], %arg0
// CHECK-NEXT: ascendc.set_flag mte2 -> v, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> v, event 0
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: ascendc.set_flag v -> mte3, event 0
// CHECK-NEXT: ascendc.wait_flag v -> mte3, event 0
// CHECK-NEXT: ascendc.set_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.data_copy %arg0
func.func @chain(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %out = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  ascendc.exp_l2 %out, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.data_copy %gm, %out : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// In a loop the next trip's load overwrites what this trip's vector op
// reads, and the next trip's vector op overwrites what this trip's store
// reads: backward pairs (V -> MTE2, MTE3 -> V), each split around the loop
// since its op waits only for the previous trip. The set follows the
// access it orders (the exp, the store), the wait stays before the op, a
// set before the loop stands for trip 0 and a wait after it takes the last
// trip's set.
// CHECK-LABEL: func.func @loop(
// CHECK: ascendc.set_flag v -> mte2, event 0
// CHECK-NEXT: ascendc.set_flag mte3 -> v, event 0
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascendc.wait_flag v -> mte2, event 0
// CHECK-NEXT: ascendc.data_copy %{{.*}}, %arg1
// CHECK-NEXT: ascendc.set_flag mte2 -> v, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> v, event 0
// CHECK-NEXT: ascendc.wait_flag mte3 -> v, event 0
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: ascendc.set_flag v -> mte2, event 0
// CHECK-NEXT: ascendc.set_flag v -> mte3, event 0
// CHECK-NEXT: ascendc.wait_flag v -> mte3, event 0
// CHECK-NEXT: ascendc.data_copy %arg2
// CHECK-NEXT: ascendc.set_flag mte3 -> v, event 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.wait_flag mte3 -> v, event 0
// CHECK-NEXT: ascendc.wait_flag v -> mte2, event 0
func.func @loop(%n: index, %src: !ascendc.global_tensor<64xf32>, %dst: !ascendc.global_tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %out = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.data_copy %in, %src : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    ascendc.exp_l2 %out, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    ascendc.data_copy %dst, %out : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  return
}

// -----

// A branch that writes the tensor on one arm only: the read after the if
// waits for V (the arm's writer) and for MTE2.
// CHECK-LABEL: func.func @branch(
// CHECK: scf.if
// CHECK: ascendc.exp_l2
// CHECK: }
// CHECK-DAG: ascendc.wait_flag mte2 -> mte3, event 0
// CHECK-DAG: ascendc.wait_flag v -> mte3, event 0
// CHECK: ascendc.data_copy %arg1
func.func @branch(%p: i1, %gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %t = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %t, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  scf.if %p {
    ascendc.exp_l2 %t, %t, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  ascendc.data_copy %gm, %t : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// Two cube groups: the second group's MTE1 load reads the L1 tensor the
// first group's MTE2 copy wrote; the vector group in between does not
// interrupt the cube's walk.
// CHECK-LABEL: func.func @groups(
// CHECK: ascendc.if_aic {
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: }
// CHECK: ascendc.if_aiv {
// CHECK-NOT: set_flag
// CHECK: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.set_flag mte2 -> mte1, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> mte1, event 0
// CHECK-NEXT: ascendc.load_data
func.func @groups(%x: !ascendc.global_tensor<16x16xf16>, %y: !ascendc.global_tensor<64xf32>, %n: index) {
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0 = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %ub = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.if_aic {
    ascendc.data_copy %l1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
  }
  ascendc.if_aiv {
    ascendc.exp_l2 %ub, %ub, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  ascendc.if_aic {
    ascendc.load_data %l0, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// The load precedes the loop: its pair goes before the loop, once, not
// every trip (a trip's set would find the last trip's bit maybe still up).
// CHECK-LABEL: func.func @hoisted(
// CHECK: ascendc.data_copy
// CHECK-NEXT: ascendc.set_flag mte2 -> v, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> v, event 0
// CHECK-NEXT: scf.for
// CHECK-NOT: set_flag mte2
// CHECK: return
func.func @hoisted(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %a = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.exp_l2 %a, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  return
}

// -----

// %y's load precedes the loop: its pair goes before the loop although the
// loop loads %x, which V never reads (that load stays unordered).
// CHECK-LABEL: func.func @past_other_loads(
// CHECK: ascendc.data_copy
// CHECK-NEXT: ascendc.set_flag mte2 -> v
// CHECK-NEXT: ascendc.wait_flag mte2 -> v
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.exp_l2
func.func @past_other_loads(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %y = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  %a = ascendc.local_tensor veccalc addr 512 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %y, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.data_copy %x, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    ascendc.exp_l2 %a, %y, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  return
}

// -----

// A pair already there (an earlier pass's) that the loop repeats, with
// nothing holding MTE2 until V has waited for the last trip's event: a
// hand-over (V -> MTE2) goes before its set.
// CHECK-LABEL: func.func @hand_over(
// CHECK: scf.for
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.set_flag v -> mte2, event [[B:[0-9]]]
// CHECK-NEXT: ascendc.wait_flag v -> mte2, event [[B]]
// CHECK-NEXT: ascendc.set_flag mte2 -> v, event [[E:[0-9]]]
// CHECK-NEXT: ascendc.wait_flag mte2 -> v, event [[E]]
// CHECK-NEXT: ascendc.exp_l2
func.func @hand_over(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %y = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  %a = ascendc.local_tensor veccalc addr 512 size 256 : !ascendc.local_tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.data_copy %x, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    ascendc.set_flag mte2 -> v, event 3
    ascendc.wait_flag mte2 -> v, event 3
    ascendc.exp_l2 %a, %y, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  return
}
