// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-reuse-tensor-allocation))' | FileCheck %s
// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-reuse-tensor-allocation,ascendc-allocate-tensor))' | FileCheck %s --check-prefix=ADDR

// Tensors of iterations 0 and 1 of an unrolled loop share: the owner moves
// to the top of the function, the later tensor becomes its cast.
// CHECK-LABEL: func.func @iterations(
// CHECK-NEXT: %[[A:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK: scf.execute_region
// CHECK: scf.execute_region
// CHECK-NEXT: ascendc.reinterpret_cast %[[A]] : <64xf32> to <64xf32>
// ADDR-LABEL: func.func @iterations(
// 64*4 = 256 B, one allocation for both.
// ADDR-NEXT: ascendc.local_tensor veccalc addr 0 size 256 : <64xf32>
// ADDR-NOT: ascendc.local_tensor veccalc
func.func @iterations(%n: index) {
  scf.execute_region {
    %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %a, %a, %n {asctile.unroll_iter = 0} : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
  scf.execute_region {
    %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %b, %b, %n {asctile.unroll_iter = 1} : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
  return
}

// -----

// A tensor used in iterations 0 and 1 overlaps one of iteration 1; a
// tensor of iteration 1 cannot take storage still used in iteration 1.
// CHECK-LABEL: func.func @overlap(
// ADDR-LABEL: func.func @overlap(
// CHECK-NOT: reinterpret_cast
func.func @overlap(%n: index) {
  %shared = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  scf.execute_region {
    ascendc.exp_l2 %shared, %shared, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
  scf.execute_region {
    %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.add_l2 %b, %shared, %b, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
  return
}

// -----

// Input/output tensors: two of different iterations share; one of them and
// a scratch tensor of a later iteration do not.
// CHECK-LABEL: func.func @in_out(
// CHECK-DAG: %[[IN0:.*]] = ascendc.local_tensor_auto vecin input : <64xf32>
// CHECK-DAG: %[[T0:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK: %[[IN1:.*]] = ascendc.reinterpret_cast %[[IN0]] : <64xf32> to <64xf32>
// CHECK-NEXT: ascendc.data_copy %[[IN1]]
// CHECK-NEXT: %[[T1:.*]] = ascendc.reinterpret_cast %[[T0]] : <64xf32> to <64xf32>
// CHECK-NEXT: ascendc.exp_l2 %[[T1]], %[[IN1]]
func.func @in_out(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  scf.execute_region {
    %in0 = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<64xf32>
    ascendc.data_copy %in0, %gm {asctile.unroll_iter = 0} : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    %t0 = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %t0, %in0, %n {asctile.unroll_iter = 0} : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
  scf.execute_region {
    %in1 = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<64xf32>
    ascendc.data_copy %in1, %gm {asctile.unroll_iter = 1} : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    %t1 = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %t1, %in1, %n {asctile.unroll_iter = 1} : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
  return
}

// -----

// Cube positions: the larger L0A tensor of iteration 1 owns the storage
// (it moves up, the iteration-0 tensor becomes its cast), sized as
// allocate-tensor sizes it; the two L0B tensors share too. L0A and L0B
// tensors never share with each other, nor with the accumulator.
// CHECK-LABEL: func.func @cube(
// CHECK: %[[BIG:.*]] = ascendc.local_tensor_auto a2 : <32x64xf16>
// CHECK-NEXT: ascendc.reinterpret_cast %[[BIG]] : <32x64xf16> to <20x20xf16>
// CHECK: ascendc.local_tensor_auto co1 : <32x32xf32>
// ADDR-LABEL: func.func @cube(
// L0B: one 32*32*2 = 2048 B tensor. L0A: (20 -> 32) * (20 -> 32) * 2 =
// 2048 B is smaller than 32*64*2 = 4096 B, which is allocated alone.
// ADDR: ascendc.local_tensor b2 addr 0 size 2048 : <32x32xf16>
// ADDR-NEXT: ascendc.local_tensor a2 addr 0 size 4096 : <32x64xf16>
// ADDR-NOT: ascendc.local_tensor a2
// ADDR-NOT: ascendc.local_tensor b2
// ADDR-LABEL: func.func @no_iterations(
func.func @cube(%n: index) {
  %c = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<32x32xf32>
  scf.execute_region {
    %small = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<20x20xf16>
    %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x32xf16>
    ascendc.mmad %c, %small, %b m %n n %n k %n {asctile.unroll_iter = 0} : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<20x20xf16>, !ascendc.local_tensor<32x32xf16>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
  scf.execute_region {
    %big = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<32x64xf16>
    %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x32xf16>
    ascendc.mmad %c, %big, %b m %n n %n k %n {asctile.unroll_iter = 1} : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x64xf16>, !ascendc.local_tensor<32x32xf16>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
  return
}

// -----

// Without iterations, order in the block decides.
// CHECK-LABEL: func.func @no_iterations(
// CHECK-NEXT: %[[A:.*]] = ascendc.local_tensor_auto veccalc : <64xf32>
// CHECK-NEXT: ascendc.exp_l2 %[[A]], %[[A]]
// CHECK-NEXT: %[[B:.*]] = ascendc.reinterpret_cast %[[A]]
// CHECK-NEXT: ascendc.exp_l2 %[[B]], %[[B]]
func.func @no_iterations(%n: index) {
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %a, %a, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  ascendc.exp_l2 %b, %b, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// Iterations with accumulators of different sizes in CO1 (1x16 pads to the
// same 16x16 fractal as 16x16): the larger type owns the storage, since a
// cast may not view more bytes than its source's type holds; the whole C220
// pipeline accepts it.
// RUN: tilekit-opt %s -split-input-file -ascendc-c220-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: tilekit-opt %s -split-input-file -ascendc-c220-pipeline | tilekit-opt -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null
// RUN: tilekit-opt %s -split-input-file -ascendc-c310-pipeline | tilekit-opt -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null
// CHECK-LABEL: func.func @co1_sizes(
// CHECK: %[[B:.*]] = ascendc.local_tensor_auto co1 : <16x16xf32>
// CHECK: ascendc.reinterpret_cast %[[B]] : <16x16xf32> to <1x16xf32>
// ADDR-LABEL: func.func @co1_sizes(
// ADDR: ascendc.local_tensor co1 addr 0 size 1024 : <16x16xf32>
// ADDR-NOT: ascendc.local_tensor co1
// PIPELINE-NOT: error
// PIPELINE-LABEL: func.func @co1_sizes(
// PIPELINE: ascendc.mmad
// PIPELINE: ascendc.mmad
func.func @co1_sizes(%n: index) {
  %x = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  %y = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  scf.execute_region {
    %a = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<1x16xf32>
    ascendc.mmad %a, %x, %y m %n n %n k %n {asctile.unroll_iter = 0} : !ascendc.local_tensor<1x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
  scf.execute_region {
    %b = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
    ascendc.mmad %b, %x, %y m %n n %n k %n {asctile.unroll_iter = 1} : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
  return
}

// -----

// A tensor used in iteration 0 and again after the unrolled loop is live
// through iteration 1: iteration 1's tensor must not take its storage.
// CHECK-LABEL: func.func @live_after_loop(
// CHECK-NOT: reinterpret_cast
// CHECK: return
func.func @live_after_loop(%n: index) {
  %kept = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  scf.execute_region {
    ascendc.exp_l2 %kept, %kept, %n {asctile.unroll_iter = 0} : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
  scf.execute_region {
    %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %b, %b, %n {asctile.unroll_iter = 1} : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
  ascendc.abs_l2 %kept, %kept, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  return
}

// -----

// By lifetime across the function: a look-ahead's first L0B tile (%first,
// before the loop), the next block's (%next, in a branch of the loop) and
// the loop body's (%body) are never in use at once, so all three take one
// storage, although neither the body's block nor the branch's holds the
// other. %carried, defined before the loop and used on every trip, is in
// use all through the loop: it takes a second storage (%first's, whose use
// ends before it begins, or its own).
// CHECK-LABEL: func.func @siblings(
// CHECK-COUNT-2: ascendc.local_tensor_auto b2 : <32x32xf16>
// CHECK-NOT: ascendc.local_tensor_auto b2
// CHECK: return
// ADDR-LABEL: func.func @siblings(
// ADDR-DAG: ascendc.local_tensor b2 addr 0 size 2048
// ADDR-DAG: ascendc.local_tensor b2 addr 2048 size 2048
// ADDR-NOT: ascendc.local_tensor b2
// ADDR: return
func.func @siblings(%n: index, %ahead: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<32x32xf32>
  %kept = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<32x32xf16>
  %first = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x32xf16>
  ascendc.mmad %c, %kept, %first m %n n %n k %n : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>
  %carried = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x32xf16>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %ahead {
      %next = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x32xf16>
      ascendc.mmad %c, %kept, %next m %n n %n k %n : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>
    }
    %body = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x32xf16>
    ascendc.mmad %c, %kept, %body m %n n %n k %n : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>
    ascendc.mmad %c, %kept, %carried m %n n %n k %n : !ascendc.local_tensor<32x32xf32>, !ascendc.local_tensor<32x32xf16>, !ascendc.local_tensor<32x32xf16>
  }
  return
}
