// In the C310 pipeline, fill-asc-operands puts a count constant before each
// vector instruction; fuse-bufid-sync still fuses a run of instructions on
// one pipe with the same buffers: the constants touch no buffer.
// RUN: tilekit-opt %s -ascendc-c310-pipeline | FileCheck %s
// Fused or not, every hazard stays ordered:
// RUN: tilekit-opt %s -ascendc-c310-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null

// CHECK-LABEL: func.func @vec(
// CHECK: ascendc.get_buf mte2, 0
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.rls_buf mte2, 0
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: ascendc.get_buf v, 1
// CHECK-NEXT: ascendc.get_buf v, 0
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: ascendc.abs_l2
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: ascendc.relu_l2
// CHECK-NEXT: ascendc.rls_buf v, 1
// CHECK-NEXT: ascendc.rls_buf v, 0
// CHECK-NEXT: ascendc.get_buf mte3, 1
// The store rewrites the GM tensor the load read, on another pipe: buffer
// ids cover local tensors only, so an event orders the two.
// CHECK-NEXT: ascendc.set_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.rls_buf mte3, 1
func.func @vec(%gm: !ascendc.global_tensor<64xf32>) {
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.data_copy %a, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
  ascendc.exp_l2 %b, %a : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.abs_l2 %b, %a : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.relu_l2 %b, %a : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  ascendc.data_copy %gm, %b : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}
