// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -verify-diagnostics
// The executor refuses the second set too, at the set.
// RUN: not tilekit run %s --entry twice --input gm=zeros:64:f32 --input n=64 2>&1 | FileCheck %s --check-prefix=SET
// RUN: not tilekit run %s --entry twice --compiled --input gm=zeros:64:f32 --input n=64 2>&1 | FileCheck %s --check-prefix=SET
// SET: one-bit.mlir:[[@LINE+17]]:3: error: sets event 0 from mte2 to v while an earlier set of it may not have been waited for
// The examples' compiled kernels keep the rule on both machines (softmax
// and the mixed flash attention did not while every pair of pipes used
// event 0).
// RUN: for k in softmax rmsnorm layernorm gemm flash_attention flash_attention_d128 mixed_scaled_matmul flash_attention_mixed; do for a in c220 c310; do tilekit compile %examples/$k.mlir --arch=$a | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null || exit 1; done; done

// Two pairs of one event with nothing on MTE2 between: both sets fire when
// the load is done, before the first wait clears the event's bit.
func.func @twice(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %a = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  %b = ascendc.local_tensor veccalc addr 512 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  ascendc.set_flag mte2 -> v, event 0
  ascendc.wait_flag mte2 -> v, event 0
  ascendc.exp_l2 %a, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  // expected-error @below {{sets an event whose earlier set may not have been waited for yet: the machine keeps one bit per event}}
  ascendc.set_flag mte2 -> v, event 0
  ascendc.wait_flag mte2 -> v, event 0
  ascendc.exp_l2 %b, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// Another event for the second pair: each bit is set once.
func.func @two_events(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %a = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  %b = ascendc.local_tensor veccalc addr 512 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  ascendc.set_flag mte2 -> v, event 0
  ascendc.wait_flag mte2 -> v, event 0
  ascendc.exp_l2 %a, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.set_flag mte2 -> v, event 1
  ascendc.wait_flag mte2 -> v, event 1
  ascendc.exp_l2 %b, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// A loop that loads into the buffer V read: the V -> MTE2 pair orders each
// trip's set after the last trip's wait, so one event serves every trip.
func.func @loop(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %a = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    ascendc.set_flag v -> mte2, event 0
    ascendc.wait_flag v -> mte2, event 0
    ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    ascendc.set_flag mte2 -> v, event 0
    ascendc.wait_flag mte2 -> v, event 0
    ascendc.exp_l2 %a, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  return
}
