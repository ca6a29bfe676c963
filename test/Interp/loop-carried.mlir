// Loop-carried values update simultaneously: yielding (%b, %a) swaps them.
// RUN: tilekit run %s --entry swap_for --input n=3 --input out=zeros:2:i32 --print out | FileCheck %s --check-prefix=FOR
// RUN: tilekit run %s --entry swap_while --input out=zeros:2:i32 --print out | FileCheck %s --check-prefix=WHILE
// RUN: tilekit run %s --entry fib --input out=zeros:1:i64 --print out | FileCheck %s --check-prefix=FIB
// RUN: tilekit run %s --entry select_if --input flag=1 --input out=zeros:1:i32 --print out | FileCheck %s --check-prefix=THEN
// RUN: tilekit run %s --entry select_if --input flag=0 --input out=zeros:1:i32 --print out | FileCheck %s --check-prefix=ELSE

// After three swaps of (1, 2): (2, 1).
// FOR: out: i32 [2]
// FOR-NEXT: [2, 1]
func.func @swap_for(%n: index, %out: !pto.tensor<2xi32>) -> !pto.tensor<2xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %a, %b = scf.for %i = %c0 to %n step %c1 iter_args(%x = %one, %y = %two) -> (i32, i32) {
    scf.yield %y, %x : i32, i32
  }
  %o0 = pto.tensor.write %a, %out[%c0] : !pto.tensor<2xi32>
  %o1 = pto.tensor.write %b, %o0[%c1] : !pto.tensor<2xi32>
  return %o1 : !pto.tensor<2xi32>
}

// A while loop that swaps while counting down from 4: four swaps of (1, 2).
// WHILE: out: i32 [2]
// WHILE-NEXT: [1, 2]
func.func @swap_while(%out: !pto.tensor<2xi32>) -> !pto.tensor<2xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %four = arith.constant 4 : i32
  %dec = arith.constant 1 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %r:3 = scf.while (%k = %four, %x = %one, %y = %two) : (i32, i32, i32) -> (i32, i32, i32) {
    %more = arith.cmpi sgt, %k, %zero : i32
    scf.condition(%more) %k, %x, %y : i32, i32, i32
  } do {
  ^bb0(%k: i32, %x: i32, %y: i32):
    %next = arith.subi %k, %dec : i32
    scf.yield %next, %y, %x : i32, i32, i32
  }
  %o0 = pto.tensor.write %r#1, %out[%c0] : !pto.tensor<2xi32>
  %o1 = pto.tensor.write %r#2, %o0[%c1] : !pto.tensor<2xi32>
  return %o1 : !pto.tensor<2xi32>
}

// (a, b) <- (b, a + b) ten times from (0, 1): the simultaneous update gives
// Fibonacci; a sequential one would not.
// FIB: out: i64 [1]
// FIB-NEXT: [55]
func.func @fib(%out: !pto.tensor<1xi64>) -> !pto.tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %a, %b = scf.for %i = %c0 to %c10 step %c1 iter_args(%x = %zero, %y = %one) -> (i64, i64) {
    %s = arith.addi %x, %y : i64
    scf.yield %y, %s : i64, i64
  }
  %o = pto.tensor.write %a, %out[%c0] : !pto.tensor<1xi64>
  return %o : !pto.tensor<1xi64>
}

// scf.if yields the value of the branch taken.
// THEN: [10]
// ELSE: [20]
func.func @select_if(%flag: i1, %out: !pto.tensor<1xi32>) -> !pto.tensor<1xi32> {
  %c0 = arith.constant 0 : index
  %r = scf.if %flag -> (i32) {
    %ten = arith.constant 10 : i32
    scf.yield %ten : i32
  } else {
    %twenty = arith.constant 20 : i32
    scf.yield %twenty : i32
  }
  %o = pto.tensor.write %r, %out[%c0] : !pto.tensor<1xi32>
  return %o : !pto.tensor<1xi32>
}

// i64 elements stay exact through tile and tensor element access (no round
// trip through double): 2^62 + 1.
// RUN: tilekit run %s --entry exact_i64 --input out=zeros:1:i64 --print out | FileCheck %s --check-prefix=I64
// I64: [4611686018427387905]
func.func @exact_i64(%out: !pto.tensor<1xi64>) -> !pto.tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %big = arith.constant 4611686018427387905 : i64
  %zero = arith.constant 0 : i64
  %t = pto.tile.full %zero : i64 -> !pto.tile<1x8xi64, vec>
  %w = pto.tile.write %big, %t[%c0, %c0] : !pto.tile<1x8xi64, vec>
  %r = pto.tile.read %w[%c0, %c0] : !pto.tile<1x8xi64, vec>
  %o = pto.tensor.write %r, %out[%c0] : !pto.tensor<1xi64>
  return %o : !pto.tensor<1xi64>
}
