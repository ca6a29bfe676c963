// Addressed tiles share one byte pool per memory space and invocation.
// RUN: tilekit run %s --entry same_address --input y=zeros:2x8:f32 --print y | FileCheck %s --check-prefix=SAME
// RUN: tilekit run %s --entry partial_overlap --input y=zeros:1x16:f32 --print y | FileCheck %s --check-prefix=PARTIAL
// RUN: tilekit run %s --entry reinterpret --input y=zeros:1x8:f32 --print y | FileCheck %s --check-prefix=BITS
// RUN: tilekit run %s --entry independent --input y=zeros:2x8:f32 --print y | FileCheck %s --check-prefix=INDEPENDENT
// RUN: tilekit run %s --entry per_invocation --input y=zeros:1x8:f32 --print y | FileCheck %s --check-prefix=INVOCATION
// RUN: %python -c "import numpy as np; np.save('%t.x16.npy', np.arange(512, dtype=np.float16).reshape(16, 32)); np.save('%t.x32.npy', np.arange(1024, dtype=np.float32).reshape(32, 32))"
// RUN: tilekit run %s --entry nz --input x=%t.x16.npy --input y=zeros:2x32:f16 --print y | FileCheck %s --check-prefix=NZ
// RUN: tilekit run %s --entry zn --input x=%t.x32.npy --input y=zeros:2x32:f32 --print y | FileCheck %s --check-prefix=ZN
// RUN: tilekit run %s --entry loop --input y=zeros:1x8:f32 --print y | FileCheck %s --check-prefix=LOOP

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

// Fractal layouts alias by their physical bytes. In the NZ layout of a
// 16x32 f16 tile (16x16 blocks, column-major), bytes [512, 1024) are block 1:
// columns 16-31, which a 16x16 tile at address 512 overwrites.
// NZ: y: f16 [2, 32]
// NZ-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// NZ-NEXT: [32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
func.func @nz(%x: !pto.tensor<16x32xf16>, %y: !pto.tensor<2x32xf16>) -> !pto.tensor<2x32xf16> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f16
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, vec, blayout = col_major, slayout = row_major, fractal = 512, addr = 0>
  %b = pto.tile.full %zero : f16 -> !pto.tile<16x16xf16, vec, addr = 512>
  %v = pto.tile.set_validshape %a [%c2, %c32] : !pto.tile<16x32xf16, vec, blayout = col_major, slayout = row_major, fractal = 512, addr = 0>
  %o = pto.tile.store %v, %y[%c0, %c0] : !pto.tile<16x32xf16, vec, blayout = col_major, slayout = row_major, fractal = 512, addr = 0> -> !pto.tensor<2x32xf16>
  return %o : !pto.tensor<2x32xf16>
}

// In the ZN layout of a 32x32 f32 tile (16x16 blocks in row-major order,
// column-major inside), bytes [1024, 1280) are block 1's first 64 elements:
// rows 0-15 of columns 16-19.
// ZN: y: f32 [2, 32]
// ZN-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
func.func @zn(%x: !pto.tensor<32x32xf32>, %y: !pto.tensor<2x32xf32>) -> !pto.tensor<2x32xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf32> -> !pto.tile<32x32xf32, vec, blayout = row_major, slayout = col_major, fractal = 1024, addr = 0>
  %b = pto.tile.full %zero : f32 -> !pto.tile<1x64xf32, vec, addr = 1024>
  %v = pto.tile.set_validshape %a [%c2, %c32] : !pto.tile<32x32xf32, vec, blayout = row_major, slayout = col_major, fractal = 1024, addr = 0>
  %o = pto.tile.store %v, %y[%c0, %c0] : !pto.tile<32x32xf32, vec, blayout = row_major, slayout = col_major, fractal = 1024, addr = 0> -> !pto.tensor<2x32xf32>
  return %o : !pto.tensor<2x32xf32>
}

// A loop-carried tile reads what an aliasing tile wrote in the same
// iteration: each iteration writes i at address 0, then doubles what is
// there, so the carry ends as 2 * 3 = 6 (and a branch that writes 100
// through the alias when i == 1 is overwritten by the next iteration).
// LOOP: y: f32 [1, 8]
// LOOP-NEXT: [6, 6, 6, 6, 6, 6, 6, 6]
func.func @loop(%y: !pto.tensor<1x8xf32>) -> !pto.tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %hundred = arith.constant 100.0 : f32
  %init = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!pto.tile<1x8xf32, vec, addr = 0>) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %b = pto.tile.full %f : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
    %is1 = arith.cmpi eq, %i, %c1 : index
    scf.if %is1 {
      %c = pto.tile.full %hundred : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
    }
    %d = pto.tile.add %acc, %acc : !pto.tile<1x8xf32, vec, addr = 0>
    scf.yield %d : !pto.tile<1x8xf32, vec, addr = 0>
  }
  %o = pto.tile.store %r, %y[%c0, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<1x8xf32>
  return %o : !pto.tensor<1x8xf32>
}
