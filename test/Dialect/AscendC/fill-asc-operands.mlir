// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-fill-asc-operands))' | FileCheck %s
// Idempotent: given operands are kept.
// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-fill-asc-operands,ascendc-fill-asc-operands))' | FileCheck %s

// CHECK-LABEL: func.func @fill(
// L2 without a count: the destination's 333 elements.
// CHECK: %[[C333:.*]] = arith.constant 333 : index
// CHECK-NEXT: ascendc.exp_l2 %{{.*}}, %{{.*}}, %[[C333]] : <333xf32>, <333xf32>
// A given count stays.
// CHECK: ascendc.abs_l2 %{{.*}}, %{{.*}}, %arg1 : <333xf32>, <333xf32>
// L0, f16: 128 per repeat; 333 elements -> mask 128, repeat ceil(333/128) = 3.
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: ascendc.relu_l0 %{{.*}}, %{{.*}} mask %[[C128]] repeat %[[C3]] strides [1, 1, 8, 8] : <333xf16>, <333xf16>
// Fewer elements than a repeat: mask 20, repeat 1.
// CHECK: %[[C20:.*]] = arith.constant 20 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: ascendc.adds_l0 %{{.*}}, %{{.*}}, %{{.*}} mask %[[C20]] repeat %[[C1]] strides [1, 1, 8, 8] : <20xf32>, <20xf32>, f32
// Given mask, repeat and strides stay.
// CHECK: ascendc.sub_l0 %{{.*}}, %{{.*}}, %{{.*}} mask %arg1 repeat %arg1 strides [2, 2, 2, 16, 16, 16]
func.func @fill(%s: f32, %n: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf32>
  %h = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf16>
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<20xf32>
  ascendc.exp_l2 %x, %x : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  ascendc.abs_l2 %x, %x, %n : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  ascendc.relu_l0 %h, %h : !ascendc.local_tensor<333xf16>, !ascendc.local_tensor<333xf16>
  ascendc.adds_l0 %t, %t, %s : !ascendc.local_tensor<20xf32>, !ascendc.local_tensor<20xf32>, f32
  ascendc.sub_l0 %x, %x, %x mask %n repeat %n strides [2, 2, 2, 16, 16, 16] : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  return
}
