// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-insert-bufid-sync,ascendc-fuse-bufid-sync))' | FileCheck %s

// Three vector ops on the same buffers in a row keep only the first
// acquire and the last release; the store that follows uses another pipe
// and keeps its own; annotations are gone.
// CHECK-LABEL: func.func @run(
// CHECK: ascendc.get_buf v, 0
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: ascendc.abs_l2
// CHECK-NEXT: ascendc.relu_l2
// CHECK-NEXT: ascendc.rls_buf v, 0
// CHECK-NEXT: ascendc.get_buf mte3, 0
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.rls_buf mte3, 0
// Different buffers break a run.
// CHECK-NEXT: ascendc.get_buf v, 1
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: ascendc.rls_buf v, 1
// CHECK-NEXT: ascendc.get_buf v, 0
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: ascendc.rls_buf v, 0
// CHECK-NOT: buf_ids
func.func @run(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %a = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %b = ascendc.local_tensor veccalc addr 256 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %a, %a, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.abs_l2 %a, %a, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.relu_l2 %a, %a, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.data_copy %gm, %a : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %b, %b, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %a, %a, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// The cube pipe (M) is not fused; an op in between (not guarded) breaks a run.
// CHECK-LABEL: func.func @cube(
// CHECK: ascendc.get_buf m, 0
// CHECK: ascendc.mmad
// CHECK: ascendc.rls_buf m, 2
// CHECK-NEXT: ascendc.get_buf m, 0
// CHECK: ascendc.mmad
// The UB tensor is the vector core's id 0 (each core numbers its own).
// CHECK: ascendc.rls_buf v, 0
// CHECK-NEXT: ascendc.pipe_barrier v
// CHECK-NEXT: ascendc.get_buf v, 0
func.func @cube(%n: index) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor b2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %u = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  ascendc.mmad %acc, %a, %b m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  ascendc.mmad %acc, %a, %b m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  ascendc.exp_l2 %u, %u, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.pipe_barrier v
  ascendc.exp_l2 %u, %u, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}
