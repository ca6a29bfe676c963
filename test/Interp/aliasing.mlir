// Addressed tiles share one byte pool per memory space and invocation.
// RUN: tilekit run %s --entry same_address --input y=zeros:2x8:f32 --print y | FileCheck %s --check-prefix=SAME
// RUN: tilekit run %s --entry partial_overlap --input y=zeros:1x16:f32 --print y | FileCheck %s --check-prefix=PARTIAL
// RUN: tilekit run %s --entry reinterpret --input y=zeros:1x8:f32 --print y | FileCheck %s --check-prefix=BITS
// RUN: tilekit run %s --entry independent --input y=zeros:2x8:f32 --print y | FileCheck %s --check-prefix=INDEPENDENT
// RUN: tilekit run %s --entry per_invocation --input y=zeros:1x8:f32 --print y | FileCheck %s --check-prefix=INVOCATION

// Writing %b at %a's address changes what %a reads.
// SAME: y: f32 [2, 8]
// SAME-NEXT: [2, 2, 2, 2, 2, 2, 2, 2]
// SAME-NEXT: [2, 2, 2, 2, 2, 2, 2, 2]
func.func @same_address(%y: !pto.tensor<2x8xf32>) -> !pto.tensor<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %b = pto.tile.full %two : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %o0 = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<2x8xf32>
  %o1 = pto.tile.store %b, %o0[%c1, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<2x8xf32>
  return %o1 : !pto.tensor<2x8xf32>
}

// %a covers bytes [0, 64), %b bytes [32, 64): a's last 8 elements are b's.
// PARTIAL: y: f32 [1, 16]
// PARTIAL-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3]
func.func @partial_overlap(%y: !pto.tensor<1x16xf32>) -> !pto.tensor<1x16xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %a = pto.tile.full %one : f32 -> !pto.tile<1x16xf32, vec, addr = 0>
  %b = pto.tile.full %three : f32 -> !pto.tile<1x8xf32, vec, addr = 32>
  %o = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<1x16xf32, vec, addr = 0> -> !pto.tensor<1x16xf32>
  return %o : !pto.tensor<1x16xf32>
}

// Aliasing is of bytes: i32 0x3f800000 read back as f32 is 1.0.
// BITS: y: f32 [1, 8]
// BITS-NEXT: [1, 1, 1, 1, 1, 1, 1, 1]
func.func @reinterpret(%y: !pto.tensor<1x8xf32>) -> !pto.tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %bits = arith.constant 1065353216 : i32
  %f = pto.tile.full %zero : f32 -> !pto.tile<1x8xf32, vec, addr = 64>
  %i = pto.tile.full %bits : i32 -> !pto.tile<1x8xi32, vec, addr = 64>
  %o = pto.tile.store %f, %y[%c0, %c0] : !pto.tile<1x8xf32, vec, addr = 64> -> !pto.tensor<1x8xf32>
  return %o : !pto.tensor<1x8xf32>
}

// Tiles without an address, or in another memory space, stay independent.
// INDEPENDENT: y: f32 [2, 8]
// INDEPENDENT-NEXT: [1, 1, 1, 1, 1, 1, 1, 1]
// INDEPENDENT-NEXT: [4, 4, 4, 4, 4, 4, 4, 4]
func.func @independent(%y: !pto.tensor<2x8xf32>) -> !pto.tensor<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %a = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec>
  %b = pto.tile.full %two : f32 -> !pto.tile<1x8xf32, vec>
  %c = pto.tile.full %four : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %d = pto.tile.full %two : f32 -> !pto.tile<16x16xf32, acc, addr = 0>
  %o0 = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<1x8xf32, vec> -> !pto.tensor<2x8xf32>
  %o1 = pto.tile.store %c, %o0[%c1, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<2x8xf32>
  return %o1 : !pto.tensor<2x8xf32>
}

// Each invocation has its own pools: the callee's tile at address 0 does
// not touch the caller's.
// INVOCATION: y: f32 [1, 8]
// INVOCATION-NEXT: [5, 5, 5, 5, 5, 5, 5, 5]
func.func @clobber() {
  %nine = arith.constant 9.0 : f32
  %t = pto.tile.full %nine : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  return
}

func.func @per_invocation(%y: !pto.tensor<1x8xf32>) -> !pto.tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %five = arith.constant 5.0 : f32
  %t = pto.tile.full %five : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  func.call @clobber() : () -> ()
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<1x8xf32>
  return %o : !pto.tensor<1x8xf32>
}
