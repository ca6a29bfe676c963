// RUN: tilekit-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(ascendc-guard-lanes))' | FileCheck %s
// RUN: tilekit-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(ascendc-guard-lanes,ascendc-guard-lanes))' | FileCheck %s
//
// What each sub-block then computes is checked by running the compiled
// examples and cross-core kernels as C++ with a thread per vector core
// against the executor (test/Tools/run-compiled-all.test).

// Each run of one lane's ops goes under its sub-block; flags, cross-core
// flags and scalar code stay for both, the scalar code between one lane's
// ops moving before them; a loop of both lanes is guarded inside.
// Running the pass twice changes nothing.
// CHECK-LABEL: func.func @lanes(
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: %[[N:.*]] = arith.constant 2048 : index
// CHECK-NEXT: ascendc.if_subblock 0 {
// CHECK-NEXT: ascendc.data_copy %[[A0:.*]], %{{.*}} :
// CHECK-NEXT: ascendc.adds_l2 %[[A0]], %[[A0]]
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_subblock 1 {
// CHECK-NEXT: ascendc.data_copy %[[A1:.*]], %{{.*}} :
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.set_flag mte2 -> v, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> v, event 0
// CHECK-NEXT: ascendc.if_subblock 1 {
// CHECK-NEXT: ascendc.adds_l2 %[[A1]], %[[A1]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascendc.if_subblock 0 {
// CHECK-NEXT: ascendc.data_copy %{{.*}}, %[[A0]]
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_subblock 1 {
// CHECK-NEXT: ascendc.data_copy %{{.*}}, %[[A1]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK: ascendc.if_aic {
// CHECK-NOT: if_subblock
// CHECK: return
func.func @lanes(%x: !ascendc.global_tensor<64x64xf32>, %w: !ascendc.global_tensor<64x64xf32>) {
  %a0 = ascendc.local_tensor vecin addr 0 size 8192 {ascendc.lane = 0 : i64} : <32x64xf32>
  %a1 = ascendc.local_tensor vecin addr 8192 size 8192 {ascendc.lane = 1 : i64} : <32x64xf32>
  %l1 = ascendc.local_tensor a1 addr 0 size 16384 : <64x64xf32>
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  ascendc.if_aiv {
    ascendc.data_copy %a0, %x : !ascendc.local_tensor<32x64xf32>, !ascendc.global_tensor<64x64xf32>
    %n = arith.constant 2048 : index
    ascendc.adds_l2 %a0, %a0, %one, %n : <32x64xf32>, <32x64xf32>, f32
    ascendc.data_copy %a1, %x : !ascendc.local_tensor<32x64xf32>, !ascendc.global_tensor<64x64xf32>
    ascendc.set_flag mte2 -> v, event 0
    ascendc.wait_flag mte2 -> v, event 0
    ascendc.adds_l2 %a1, %a1, %one, %n : <32x64xf32>, <32x64xf32>, f32
    scf.for %i = %c0 to %c2 step %c1 {
      ascendc.data_copy %w, %a0 : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<32x64xf32>
      ascendc.data_copy %w, %a1 : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<32x64xf32>
    }
    ascendc.cross_core_set_flag mte3, flag 0
  }
  ascendc.if_aic {
    ascendc.cross_core_wait_flag mte2, flag 0
    ascendc.data_copy %l1, %w : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
  }
  return
}

// -----

// A cube that writes UB (the 950's L1 -> UB mailbox, which holds both
// lanes' parts) keeps the kernel on one vector core: nothing is guarded.
// CHECK-LABEL: func.func @mailbox(
// CHECK-NOT: if_subblock
// CHECK: return
func.func @mailbox(%x: !ascendc.global_tensor<64x64xf32>) {
  %box = ascendc.local_tensor vecin addr 0 size 16384 : <64x64xf32>
  %a1 = ascendc.local_tensor vecin addr 16384 size 8192 {ascendc.lane = 1 : i64} : <32x64xf32>
  %l1 = ascendc.local_tensor a1 addr 0 size 16384 : <64x64xf32>
  ascendc.if_aic {
    ascendc.data_copy %box, %l1 : !ascendc.local_tensor<64x64xf32>, !ascendc.local_tensor<64x64xf32>
  }
  ascendc.if_aiv {
    ascendc.data_copy %x, %a1 : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<32x64xf32>
  }
  return
}

// -----

// A GM move on the vector core that no lane owns: neither sub-block alone
// may make it, and both would repeat it.
func.func @ownerless(%x: !ascendc.global_tensor<64x64xf32>) {
  %a1 = ascendc.local_tensor vecin addr 0 size 8192 {ascendc.lane = 1 : i64} : <32x64xf32>
  %t = ascendc.local_tensor vecin addr 8192 size 8192 : <32x64xf32>
  %l1 = ascendc.local_tensor a1 addr 0 size 16384 : <64x64xf32>
  ascendc.if_aiv {
    ascendc.data_copy %x, %a1 : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<32x64xf32>
    // expected-error @+1 {{moves GM data on the vector core but touches neither lane's tiles}}
    ascendc.data_copy %x, %t : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<32x64xf32>
  }
  ascendc.if_aic {
    ascendc.data_copy %l1, %x : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
  }
  return
}

// -----

// The op holds a lane's tile: only inside a vector group.
func.func @outside(%x: !ascendc.global_tensor<64x64xf32>) {
  // expected-error @+1 {{must be inside an ascendc.if_aiv}}
  ascendc.if_subblock 0 {
  }
  return
}
