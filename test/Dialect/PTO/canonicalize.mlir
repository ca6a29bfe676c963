// RUN: tilekit-opt %s -canonicalize -split-input-file | FileCheck %s

// A constant-true init_cond overwrites: the op becomes a plain matmul.
// CHECK-LABEL: func.func @init_true
// CHECK-SAME: (%{{.*}}: !pto.tile<16x16xf32, acc>, %[[A:.+]]: !pto.tile<16x16xf16, left>, %[[B:.+]]: !pto.tile<16x16xf16, right>)
// CHECK-NEXT: %[[C:.+]] = pto.tile.matmul %[[A]], %[[B]] : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
// CHECK-NEXT: return %[[C]]
func.func @init_true(%acc: !pto.tile<16x16xf32, acc>, %a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) -> !pto.tile<16x16xf32, acc> {
  %true = arith.constant true
  %c = pto.tile.matmul_acc %acc, %a, %b init %true : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  return %c : !pto.tile<16x16xf32, acc>
}

// -----

// A constant-false init_cond accumulates: the operand goes away.
// CHECK-LABEL: func.func @init_false
// CHECK-SAME: (%[[ACC:.+]]: !pto.tile<16x16xf32, acc>, %[[A:.+]]: !pto.tile<16x16xf16, left>, %[[B:.+]]: !pto.tile<16x16xf16, right>)
// CHECK-NEXT: %[[C:.+]] = pto.tile.matmul_acc %[[ACC]], %[[A]], %[[B]] : !pto.tile<16x16xf32, acc>
// CHECK-NEXT: return %[[C]]
func.func @init_false(%acc: !pto.tile<16x16xf32, acc>, %a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) -> !pto.tile<16x16xf32, acc> {
  %false = arith.constant false
  %c = pto.tile.matmul_acc %acc, %a, %b init %false : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  return %c : !pto.tile<16x16xf32, acc>
}

// -----

// A runtime init_cond stays.
// CHECK-LABEL: func.func @init_runtime
// CHECK: pto.tile.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} init %{{.*}} :
func.func @init_runtime(%acc: !pto.tile<16x16xf32, acc>, %a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>, %k: index) -> !pto.tile<16x16xf32, acc> {
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %k, %c0 : index
  %c = pto.tile.matmul_acc %acc, %a, %b init %first : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  return %c : !pto.tile<16x16xf32, acc>
}

// -----

// The batched, GEMV and tensor forms fold the same way; the tensor form keeps
// its transposes.
// CHECK-LABEL: func.func @other_forms
// CHECK: pto.tile.batch_matmul %{{.*}}, %{{.*}} : !pto.tile<2x16x16xf16, left>
// CHECK: pto.tile.gemv_acc %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile<1x16xf32, acc>
// CHECK: pto.tensor.matmul %{{.*}}, %{{.*}} {b_trans} : !pto.tensor<16x32xf16>, !pto.tensor<64x32xf16> -> !pto.tensor<16x64xf32>
func.func @other_forms(%bacc: !pto.tile<2x16x16xf32, acc>, %ba: !pto.tile<2x16x16xf16, left>, %bb: !pto.tile<2x16x16xf16, right>,
                       %gacc: !pto.tile<1x16xf32, acc>, %ga: !pto.tile<1x16xf16, left>, %gb: !pto.tile<16x16xf16, right>,
                       %tacc: !pto.tensor<16x64xf32>, %ta: !pto.tensor<16x32xf16>, %tb: !pto.tensor<64x32xf16>)
    -> (!pto.tile<2x16x16xf32, acc>, !pto.tile<1x16xf32, acc>, !pto.tensor<16x64xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %0 = pto.tile.batch_matmul_acc %bacc, %ba, %bb init %true : !pto.tile<2x16x16xf32, acc>, !pto.tile<2x16x16xf16, left>, !pto.tile<2x16x16xf16, right>
  %1 = pto.tile.gemv_acc %gacc, %ga, %gb init %false : !pto.tile<1x16xf32, acc>, !pto.tile<1x16xf16, left>, !pto.tile<16x16xf16, right>
  %2 = pto.tensor.matmul_acc %tacc, %ta, %tb init %true {b_trans} : !pto.tensor<16x64xf32>, !pto.tensor<16x32xf16>, !pto.tensor<64x32xf16>
  return %0, %1, %2 : !pto.tile<2x16x16xf32, acc>, !pto.tile<1x16xf32, acc>, !pto.tensor<16x64xf32>
}
