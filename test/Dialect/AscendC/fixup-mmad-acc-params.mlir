// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-fixup-mmad-acc-params))' | FileCheck %s
// The output re-parses: memref (the flag) is registered.
// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-fixup-mmad-acc-params))' | tilekit-opt > /dev/null

// An mmad with an init flag in a loop: the accumulator is initialized on
// the first iteration only, through a flag set after the accumulator.
// CHECK-LABEL: func.func @loop(
// CHECK: %[[ACC:.*]] = ascendc.local_tensor_auto co1
// CHECK-NEXT: %[[FLAG:.*]] = memref.alloca() : memref<1xi1>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: memref.store %[[TRUE]], %[[FLAG]][%[[C0]]]
// CHECK: scf.for
// CHECK: %[[FIRST:.*]] = memref.load %[[FLAG]][%{{.*}}]
// CHECK-NEXT: ascendc.mmad %[[ACC]], %{{.*}}, %{{.*}} m %{{.*}} n %{{.*}} k %{{.*}} init %[[FIRST]]
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: memref.store %[[FALSE]], %[[FLAG]][%{{.*}}]
func.func @loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.mmad %acc, %a, %b m %n n %n k %n init %true : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// Mmads into one accumulator: the first initializes, the others add. An
// mmad without init counts as init true (Ascend C's cmatrixInitVal defaults
// to true), so it joins the accumulation and adds too. A lone mmad outside
// loops is left alone.
// CHECK-LABEL: func.func @sequence(
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[FLAG:.*]] = memref.alloca() : memref<1xi1>
// CHECK: %[[F1:.*]] = memref.load %[[FLAG]]
// CHECK-NEXT: ascendc.mmad {{.*}} init %[[F1]] :
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant false
// CHECK-NEXT: memref.store
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[F2:.*]] = memref.load %[[FLAG]]
// CHECK-NEXT: ascendc.mmad {{.*}} init %[[F2]] :
// CHECK: %[[F3:.*]] = memref.load %[[FLAG]]
// CHECK-NEXT: ascendc.mmad {{.*}} init %[[F3]] :
// CHECK: ascendc.local_tensor_auto co1
// CHECK-NEXT: ascendc.mmad {{.*}} init %[[TRUE]] :
func.func @sequence(%n: index) {
  %true = arith.constant true
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  ascendc.mmad %acc, %a, %b m %n n %n k %n init %true : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  ascendc.mmad %acc, %a, %b m %n n %n k %n init %true : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  ascendc.mmad %acc, %a, %b m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  %other = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  ascendc.mmad %other, %a, %b m %n n %n k %n init %true : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  return
}

// An accumulator defined inside the loop body is fresh every iteration: a
// single mmad into it needs no flag.
// CHECK-LABEL: func.func @fresh(
// CHECK-NOT: memref
func.func @fresh(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  scf.for %i = %c0 to %n step %c1 {
    %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
    ascendc.mmad %acc, %a, %b m %n n %n k %n init %true : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// A tile loop around a K loop with one accumulator: each output tile starts
// fresh. The flag is true again after every read of the accumulator (the
// fixpipe that takes tile t's result), so tile t + 1's first K step
// overwrites instead of adding onto tile t; an mmad through a cast of the
// accumulator counts. A constant false init accumulates and is kept.
// CHECK-LABEL: func.func @tiles(
// CHECK: %[[ACC:.*]] = ascendc.local_tensor_auto co1
// CHECK-NEXT: %[[FLAG:.*]] = memref.alloca() : memref<1xi1>
// CHECK: %[[VIEW:.*]] = ascendc.reinterpret_cast %[[ACC]]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[FIRST:.*]] = memref.load %[[FLAG]]
// CHECK-NEXT: ascendc.mmad %[[VIEW]], {{.*}} init %[[FIRST]] :
// CHECK: ascendc.mmad %[[VIEW]], {{.*}} init %false :
// CHECK: }
// CHECK-NEXT: ascendc.fixpipe %{{.*}}, %[[ACC]]
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[AGAIN:.*]] = arith.constant true
// CHECK-NEXT: memref.store %[[AGAIN]], %[[FLAG]]
// CHECK-NEXT: }
func.func @tiles(%n: index, %gm: !ascendc.global_tensor<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %false = arith.constant false
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  %view = ascendc.reinterpret_cast %acc : !ascendc.local_tensor<16x16xf32> to !ascendc.local_tensor<16x16xf32>
  %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  scf.for %t = %c0 to %n step %c1 {
    scf.for %k = %c0 to %n step %c1 {
      ascendc.mmad %view, %a, %b m %n n %n k %n init %true : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.mmad %view, %a, %b m %n n %n k %n init %false : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    }
    ascendc.fixpipe %gm, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  }
  return
}
