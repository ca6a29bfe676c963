// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-unify-bias-tensor))' -verify-diagnostics | FileCheck %s

// Every bias-table tensor of a function becomes the first one, at address 0;
// a smaller one becomes a cast of it. Other positions are untouched.
// CHECK-LABEL: func.func @unify(
func.func @unify(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = ascendc.local_tensor co1 addr 0 size 4096 : !ascendc.local_tensor<32x32xf32>
  %a = ascendc.local_tensor a2 addr 0 size 2048 : !ascendc.local_tensor<32x32xf16>
  %b = ascendc.local_tensor b2 addr 0 size 2048 : !ascendc.local_tensor<32x32xf16>
  // CHECK: %[[BIAS:.*]] = ascendc.local_tensor c2 addr 0 size 128 : <32xf32>
  %bias0 = ascendc.local_tensor c2 addr 256 size 128 : !ascendc.local_tensor<32xf32>
  scf.for %i = %c0 to %n step %c1 {
    // CHECK: scf.for
    // CHECK-NOT: ascendc.local_tensor c2
    // CHECK: ascendc.mmad %{{.*}} bias %[[BIAS]]
    %bias1 = ascendc.local_tensor c2 addr 384 size 128 : !ascendc.local_tensor<32xf32>
    ascendc.mmad %acc, %a, %b bias %bias1 m %n n %n k %n : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32xf32>
  }
  // CHECK: %[[HALF:.*]] = ascendc.reinterpret_cast %[[BIAS]] : <32xf32> to <16xf32>
  // CHECK: ascendc.mmad %{{.*}} bias %[[HALF]]
  %bias2 = ascendc.local_tensor c2 addr 512 size 64 : !ascendc.local_tensor<16xf32>
  ascendc.mmad %acc, %a, %b bias %bias2 m %n n %n k %n : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<16xf32>
  return
}

// A bias tensor defined inside a loop moves to the top of the function so
// that it dominates every use.
// CHECK-LABEL: func.func @hoist(
// CHECK-NEXT: ascendc.local_tensor c2 addr 0 size 64 : <16xf32>
func.func @hoist(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %bias0 = ascendc.local_tensor c2 addr 64 size 64 : !ascendc.local_tensor<16xf32>
    ascendc.dump_tensor %bias0, 0, %n : !ascendc.local_tensor<16xf32>
  }
  %bias1 = ascendc.local_tensor c2 addr 128 size 64 : !ascendc.local_tensor<16xf32>
  ascendc.dump_tensor %bias1, 1, %n : !ascendc.local_tensor<16xf32>
  return
}

// -----

func.func @larger() {
  // expected-note @+1 {{the first bias tensor}}
  %bias0 = ascendc.local_tensor c2 addr 0 size 64 : !ascendc.local_tensor<16xf32>
  // expected-error @+1 {{needs 128 bytes of the bias table, more than the first bias tensor's 64, which every bias tensor shares}}
  %bias1 = ascendc.local_tensor c2 addr 64 size 128 : !ascendc.local_tensor<32xf32>
  return
}
