// --undefined: the contents of pto.tile.create and the padding of loads are
// undefined on the machine. zero (the default) fills them with zeros, nan
// with NaN (integers 0x5A5A...), and check stops at the first op that reads
// one into its result's valid region.

// A missing accumulator init: the sum of x over two iterations starts from
// the created tile's contents.
// RUN: %python -c "import numpy as np; np.save('%t.ones.npy', np.ones((2, 8), np.float32))"
// RUN: tilekit run %s --entry missing_init --input x=%t.ones.npy --input y=zeros:2x8:f32 --print y --undefined=zero | FileCheck %s --check-prefix=ZERO
// RUN: tilekit run %s --entry missing_init --input x=%t.ones.npy --input y=zeros:2x8:f32 --print y --undefined=nan | FileCheck %s --check-prefix=NAN
// RUN: not tilekit run %s --entry missing_init --input x=%t.ones.npy --input y=zeros:2x8:f32 --undefined=check 2>&1 | FileCheck %s --check-prefix=INIT
// ZERO: y: f32 [2, 8]
// ZERO-NEXT: [2, 2, 2, 2, 2, 2, 2, 2]
// NAN: y: f32 [2, 8]
// NAN-NEXT: [nan, nan, nan, nan, nan, nan, nan, nan]
// INIT: undefined.mlir:[[@LINE+9]]:10: error: 'pto.tile.add' op reads the undefined element [0, 0] of operand #0 ('!pto.tile<2x8xf32, vec>'), inside the region [2, 8] it reads; undefined data is the contents of pto.tile.create, the padding of a load or a pop, or bytes another tile at the same address overwrote
// INIT: undefined.mlir:[[@LINE+7]]:{{[0-9]+}}: note: the tile is defined here
func.func @missing_init(%x: !pto.tensor<2x8xf32>, %y: !pto.tensor<2x8xf32>) -> !pto.tensor<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<2x8xf32> -> !pto.tile<2x8xf32, vec>
  %acc0 = pto.tile.create : !pto.tile<2x8xf32, vec>
  %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %acc0) -> (!pto.tile<2x8xf32, vec>) {
    %s = pto.tile.add %a, %t : !pto.tile<2x8xf32, vec>
    scf.yield %s : !pto.tile<2x8xf32, vec>
  }
  %o = pto.tile.store %acc, %y[%c0, %c0] : !pto.tile<2x8xf32, vec> -> !pto.tensor<2x8xf32>
  return %o : !pto.tensor<2x8xf32>
}

// The cube's version: an accumulating matmul without its init bit reads the
// created accumulator; with `init` on the first step it does not.
// RUN: not tilekit run %s --entry matmul_no_init --input a=rand:16x16:f16 --input b=rand:16x16:f16 --input c=zeros:16x16:f32 --undefined=check 2>&1 | FileCheck %s --check-prefix=MMAD
// RUN: tilekit run %s --entry matmul_init --input a=rand:16x16:f16 --input b=rand:16x16:f16 --input c=zeros:16x16:f32 --undefined=check --print c | FileCheck %s --check-prefix=OK
// MMAD: undefined.mlir:[[@LINE+8]]:8: error: 'pto.tile.matmul_acc' op reads the undefined element [0, 0] of operand #0
func.func @matmul_no_init(%a: !pto.tensor<16x16xf16>, %b: !pto.tensor<16x16xf16>, %c: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %a1 = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %a0 = pto.tile.move %a1 : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
  %b1 = pto.tile.load %b[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %b0 = pto.tile.move %b1 : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
  %acc = pto.tile.create : !pto.tile<16x16xf32, acc>
  %r = pto.tile.matmul_acc %acc, %a0, %b0 : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %o = pto.tile.store %r, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return %o : !pto.tensor<16x16xf32>
}

// OK: c: f32 [16, 16]
// OK-NOT: error
func.func @matmul_init(%a: !pto.tensor<16x16xf16>, %b: !pto.tensor<16x16xf16>, %c: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %true = arith.constant 1 : i1
  %a1 = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %a0 = pto.tile.move %a1 : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
  %b1 = pto.tile.load %b[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %b0 = pto.tile.move %b1 : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
  %acc = pto.tile.create : !pto.tile<16x16xf32, acc>
  %r = pto.tile.matmul_acc %acc, %a0, %b0 init %true : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %o = pto.tile.store %r, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return %o : !pto.tensor<16x16xf32>
}

// A reduction over padding: 5 columns are loaded, the valid shape is then
// widened to the whole row.
// RUN: tilekit run %s --entry padding_sum --input x=%t.ones.npy --input y=zeros:2x1:f32 --print y | FileCheck %s --check-prefix=PADZERO
// RUN: tilekit run %s --entry padding_sum --input x=%t.ones.npy --input y=zeros:2x1:f32 --print y --undefined=nan | FileCheck %s --check-prefix=PADNAN
// RUN: not tilekit run %s --entry padding_sum --input x=%t.ones.npy --input y=zeros:2x1:f32 --undefined=check 2>&1 | FileCheck %s --check-prefix=PAD
// PADZERO: y: f32 [2, 1]
// PADZERO-NEXT: [5]
// PADNAN: y: f32 [2, 1]
// PADNAN-NEXT: [nan]
// PAD: undefined.mlir:[[@LINE+8]]:8: error: 'pto.tile.row_sum' op reads the undefined element [0, 5] of operand #0 ('!pto.tile<2x8xf32, vec>'), inside the region [2, 8] it reads
func.func @padding_sum(%x: !pto.tensor<2x8xf32>, %y: !pto.tensor<2x1xf32>) -> !pto.tensor<2x1xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c2, %c5] : !pto.tensor<2x8xf32> -> !pto.tile<2x8xf32, vec>
  %w = pto.tile.set_validshape %t[%c2, %c8] : !pto.tile<2x8xf32, vec>
  %s = pto.tile.row_sum %w : !pto.tile<2x8xf32, vec> -> !pto.tile<2x1xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<2x1xf32, vec> -> !pto.tensor<2x1xf32>
  return %o : !pto.tensor<2x1xf32>
}

// A tile read after its storage was overwritten through a tile at the same
// address.
// RUN: not tilekit run %s --entry overwritten --input y=zeros:1x8:f32 --undefined=check 2>&1 | FileCheck %s --check-prefix=ALIAS
// ALIAS: undefined.mlir:[[@LINE+7]]:8: error: 'pto.tile.store' op reads the undefined element [0, 0] of operand #0 ('!pto.tile<1x8xf32, vec, addr = 0>')
func.func @overwritten(%y: !pto.tensor<1x8xf32>) -> !pto.tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %b = pto.tile.full %two : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %o = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<1x8xf32>
  return %o : !pto.tensor<1x8xf32>
}

// Defined data passes: elements written one by one into a created tile and
// reduced over exactly those; a loop carry at one address; the padding of a
// load filled by fillpad.
// RUN: tilekit run %s --entry all_defined --input x=%t.ones.npy --input y=zeros:2x1:f32 --print y --undefined=check | FileCheck %s --check-prefix=DEFINED
// DEFINED: y: f32 [2, 1]
// DEFINED-NEXT: [18]
// DEFINED-NEXT: [0]
func.func @all_defined(%x: !pto.tensor<2x8xf32>, %y: !pto.tensor<2x1xf32>) -> !pto.tensor<2x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %four = arith.constant 4.0 : f32
  %zero = arith.constant 0.0 : f32
  %t0 = pto.tile.create valid [%c1, %c2] : !pto.tile<2x8xf32, vec>
  %t1 = pto.tile.write %four, %t0[%c0, %c0] : !pto.tile<2x8xf32, vec>
  %t2 = pto.tile.write %four, %t1[%c0, %c1] : !pto.tile<2x8xf32, vec>
  %s0 = pto.tile.row_sum %t2 : !pto.tile<2x8xf32, vec> -> !pto.tile<2x1xf32, vec>
  %l = pto.tile.load %x[%c0, %c0] valid [%c1, %c5] : !pto.tensor<2x8xf32> -> !pto.tile<2x8xf32, vec>
  %f = pto.tile.fillpad %l, zero : !pto.tile<2x8xf32, vec>
  %w = pto.tile.set_validshape %f[%c2, %c8] : !pto.tile<2x8xf32, vec>
  %s1 = pto.tile.row_sum %w : !pto.tile<2x8xf32, vec> -> !pto.tile<2x1xf32, vec>
  %init = pto.tile.full %zero : f32 -> !pto.tile<2x1xf32, vec, addr = 0>
  %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %init) -> (!pto.tile<2x1xf32, vec, addr = 0>) {
    %u = pto.tile.add %a, %s1 : !pto.tile<2x1xf32, vec, addr = 0>, !pto.tile<2x1xf32, vec> -> !pto.tile<2x1xf32, vec, addr = 0>
    scf.yield %u : !pto.tile<2x1xf32, vec, addr = 0>
  }
  %sum = pto.tile.add %s0, %acc : !pto.tile<2x1xf32, vec>, !pto.tile<2x1xf32, vec, addr = 0> -> !pto.tile<2x1xf32, vec>
  %o = pto.tile.store %sum, %y[%c0, %c0] : !pto.tile<2x1xf32, vec> -> !pto.tensor<2x1xf32>
  return %o : !pto.tensor<2x1xf32>
}

// Integers under nan show the marked pattern 0x5A5A5A5A.
// RUN: tilekit run %s --entry int_pattern --input y=zeros:1x8:i32 --print y --undefined=nan | FileCheck %s --check-prefix=PATTERN
// PATTERN: y: i32 [1, 8]
// PATTERN-NEXT: [1515870810, 1515870810
func.func @int_pattern(%y: !pto.tensor<1x8xi32>) -> !pto.tensor<1x8xi32> {
  %c0 = arith.constant 0 : index
  %t = pto.tile.create : !pto.tile<1x8xi32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<1x8xi32, vec> -> !pto.tensor<1x8xi32>
  return %o : !pto.tensor<1x8xi32>
}
