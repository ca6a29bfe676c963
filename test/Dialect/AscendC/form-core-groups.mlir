// RUN: tilekit-opt %s -split-input-file -verify-diagnostics -ascendc-form-core-groups | FileCheck %s
// RUN: tilekit-opt %s -split-input-file -verify-diagnostics -ascendc-form-core-groups -ascendc-form-core-groups | FileCheck %s
// RUN: tilekit-opt %examples/mixed_scaled_matmul.mlir --pto-merge-groups --convert-pto-to-ascendc --ascendc-form-core-groups | FileCheck %s --check-prefix=MIXED

// A kernel using both cores: each run of one core's ops is a group; the
// scalar code and the placeholders move before the first group; a loop
// holding both cores' ops stays between groups and is split inside; the
// GM tensor the kernel returned (an argument) goes, and the caller uses the
// argument. Running the pass twice changes nothing.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %[[X:[^:]*]]: !ascendc.global_tensor<64x64xf32>
// CHECK-SAME: ) {
// CHECK-DAG: %[[UB:.*]] = ascendc.local_tensor_auto vecin : <64x64xf32>
// CHECK-DAG: %[[L1:.*]] = ascendc.local_tensor_auto a1 : <64x64xf32>
// CHECK-DAG: arith.constant 4 : index
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.data_copy %[[UB]], %[[X]]
// CHECK-NEXT: ascendc.adds_l2 %[[UB]], %[[UB]]
// CHECK-NEXT: ascendc.data_copy %[[X]], %[[UB]]
// CHECK: ascendc.if_aic {
// CHECK-NEXT: ascendc.data_copy %[[L1]], %[[X]]
// CHECK: scf.for
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.adds_l2
// CHECK: ascendc.if_aic {
// CHECK-NEXT: ascendc.data_copy %[[X]], %[[L1]]
// CHECK: return
// CHECK-NEXT: }
// CHECK-LABEL: func.func @caller(
// CHECK: call @mixed(%[[ARG:.*]]) : (!ascendc.global_tensor<64x64xf32>) -> ()
// CHECK-NEXT: return %[[ARG]]
func.func @mixed(%x: !ascendc.global_tensor<64x64xf32>) -> !ascendc.global_tensor<64x64xf32> {
  %ub = ascendc.local_tensor_auto vecin : <64x64xf32>
  ascendc.data_copy %ub, %x : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
  %one = arith.constant 1.0 : f32
  ascendc.adds_l2 %ub, %ub, %one : <64x64xf32>, <64x64xf32>, f32
  ascendc.data_copy %x, %ub : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<64x64xf32>
  %l1 = ascendc.local_tensor_auto a1 : <64x64xf32>
  ascendc.data_copy %l1, %x : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    ascendc.adds_l2 %ub, %ub, %one : <64x64xf32>, <64x64xf32>, f32
    ascendc.data_copy %x, %l1 : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<64x64xf32>
  }
  return %x : !ascendc.global_tensor<64x64xf32>
}
func.func @caller(%x: !ascendc.global_tensor<64x64xf32>) -> !ascendc.global_tensor<64x64xf32> attributes {ascendc.host} {
  %r = func.call @mixed(%x) : (!ascendc.global_tensor<64x64xf32>) -> !ascendc.global_tensor<64x64xf32>
  return %r : !ascendc.global_tensor<64x64xf32>
}

// -----

// A one-core kernel and host code stay as they are.
// CHECK-LABEL: func.func @vector_only(
// CHECK-NOT: ascendc.if_
// CHECK: return
func.func @vector_only(%x: !ascendc.global_tensor<64x64xf32>) {
  %ub = ascendc.local_tensor_auto vecin : <64x64xf32>
  ascendc.data_copy %ub, %x : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
  return
}

// -----

// A mixed kernel returns nothing on the machine: a returned value that is
// not one of its arguments has no caller-side stand-in.
// expected-error @+1 {{mixes the cube and the vector unit and returns a value that is not one of its GM tensor arguments}}
func.func @returns_new(%x: !ascendc.global_tensor<64x64xf32>) -> index {
  %ub = ascendc.local_tensor_auto vecin : <64x64xf32>
  ascendc.data_copy %ub, %x : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
  %l1 = ascendc.local_tensor_auto a1 : <64x64xf32>
  ascendc.data_copy %l1, %x : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
  %c0 = arith.constant 0 : index
  return %c0 : index
}

// The merged group of examples/mixed_scaled_matmul.mlir: the lanes' loads
// and scaling on the vector core, the cube's matmul, the lanes' relu.
// MIXED-LABEL: func.func @scaled_matmul(
// MIXED: ascendc.if_aiv {
// MIXED: ascendc.muls_l2
// MIXED: ascendc.if_aic {
// MIXED: ascendc.mmad
// MIXED: ascendc.fixpipe
// MIXED: ascendc.if_aiv {
// MIXED: ascendc.relu_l2
