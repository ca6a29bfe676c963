// The valid-shape rules of docs/guide.md, one function each.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(15, dtype=np.float32).reshape(3, 5))"
// RUN: tilekit run %s --entry load_clamps --input x=%t.x.npy --input y=zeros:4x8:f32 --print y | FileCheck %s --check-prefix=LOAD
// RUN: tilekit run %s --entry load_valid --input x=%t.x.npy --input y=zeros:4x8:f32 --print y | FileCheck %s --check-prefix=LOADVALID
// RUN: tilekit run %s --entry store_valid_only --input x=%t.x.npy --input y=zeros:3x5:f32 --print y | FileCheck %s --check-prefix=STORE
// RUN: tilekit run %s --entry store_atomic_add --input x=%t.x.npy --input y=zeros:3x5:f32 --print y | FileCheck %s --check-prefix=ATOMIC
// RUN: tilekit run %s --entry slice_past_edge --input x=%t.x.npy --input y=zeros:2x4:f32 --print y | FileCheck %s --check-prefix=SLICE
// RUN: tilekit run %s --entry slice_pad_max --input x=%t.x.npy --input y=zeros:2x4:f32 --print y | FileCheck %s --check-prefix=SLICEPAD
// RUN: tilekit run %s --entry fillpad --input x=%t.x.npy --input y=zeros:3x8:f32 --print y | FileCheck %s --check-prefix=FILLPAD
// RUN: tilekit run %s --entry assemble --input x=%t.x.npy --input y=zeros:4x8:f32 --print y | FileCheck %s --check-prefix=ASSEMBLE
// RUN: tilekit run %s --entry set_validshape --input x=%t.x.npy --input y=zeros:3x5:f32 --print y | FileCheck %s --check-prefix=SETVALID
// RUN: tilekit run %s --entry propagation --input x=%t.x.npy --input y=zeros:4x8:f32 --input r=zeros:4x1:f32 --print y --print r | FileCheck %s --check-prefix=PROPAGATE

// A load past the edge clamps the valid shape to the data present and
// zero-pads the rest of the box: rows 1-2, columns 1-4 of x.
// LOAD: y: f32 [4, 8]
// LOAD-NEXT: [6, 7, 8, 9, 0, 0, 0, 0]
// LOAD-NEXT: [11, 12, 13, 14, 0, 0, 0, 0]
// LOAD-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]
func.func @load_clamps(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = pto.tile.load %x[%c1, %c1] : !pto.tensor<3x5xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}

// A requested valid shape smaller than the data wins; the rest is zero.
// LOADVALID: y: f32 [4, 8]
// LOADVALID-NEXT: [0, 1, 0, 0, 0, 0, 0, 0]
// LOADVALID-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]
func.func @load_valid(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c1, %c2] : !pto.tensor<3x5xf32> -> !pto.tile<4x8xf32, vec>
  %whole = pto.tile.fillpad %t, zero : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %whole, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}

// A store writes only the valid region: 2x3 of the 4x8 box.
// STORE: y: f32 [3, 5]
// STORE-NEXT: [7, 7, 7, 0, 0]
// STORE-NEXT: [7, 7, 7, 0, 0]
// STORE-NEXT: [0, 0, 0, 0, 0]
func.func @store_valid_only(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<3x5xf32>) -> !pto.tensor<3x5xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %seven = arith.constant 7.0 : f32
  %t = pto.tile.full %seven valid [%c2, %c3] : f32 -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<3x5xf32>
  return %o : !pto.tensor<3x5xf32>
}

// atomic_add adds the valid region to what GM holds: x + x over 3x5.
// ATOMIC: y: f32 [3, 5]
// ATOMIC-NEXT: [0, 2, 4, 6, 8]
// ATOMIC-NEXT: [10, 12, 14, 16, 18]
// ATOMIC-NEXT: [20, 22, 24, 26, 28]
func.func @store_atomic_add(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<3x5xf32>) -> !pto.tensor<3x5xf32> {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<3x5xf32> -> !pto.tile<4x8xf32, vec>
  %o1 = pto.tile.store %t, %y[%c0, %c0] atomic_add : !pto.tile<4x8xf32, vec> -> !pto.tensor<3x5xf32>
  %o2 = pto.tile.store %t, %o1[%c0, %c0] atomic_add : !pto.tile<4x8xf32, vec> -> !pto.tensor<3x5xf32>
  return %o2 : !pto.tensor<3x5xf32>
}

// A slice past the edge keeps its requested shape. Inside the source box it
// copies (row 3 and columns 5-7 of the box are the load's zero padding); its
// default valid shape is the part inside the source's valid region (1x2).
// SLICE: y: f32 [2, 4]
// SLICE-NEXT: [13, 14, 0, 0]
// SLICE-NEXT: [0, 0, 0, 0]
func.func @slice_past_edge(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<2x4xf32>) -> !pto.tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<3x5xf32> -> !pto.tile<4x8xf32, vec>
  %s = pto.tile.slice %t[%c2, %c3] : !pto.tile<4x8xf32, vec> -> !pto.tile<2x4xf32, vec>
  // Widen the valid shape to store the whole box.
  %all = pto.tile.set_validshape %s[%c2, %c4] : !pto.tile<2x4xf32, vec>
  %o = pto.tile.store %all, %y[%c0, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<2x4xf32>
  return %o : !pto.tensor<2x4xf32>
}

// Past the source box a slice holds its pad value (here max).
// SLICEPAD: y: f32 [2, 4]
// SLICEPAD-NEXT: [0, 0, 3.40282e+38, 3.40282e+38]
// SLICEPAD-NEXT: [3.40282e+38, 3.40282e+38, 3.40282e+38, 3.40282e+38]
func.func @slice_pad_max(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<2x4xf32>) -> !pto.tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<3x5xf32> -> !pto.tile<4x8xf32, vec>
  %s = pto.tile.slice %t[%c3, %c6] pad max : !pto.tile<4x8xf32, vec> -> !pto.tile<2x4xf32, vec>
  %all = pto.tile.set_validshape %s[%c2, %c4] : !pto.tile<2x4xf32, vec>
  %o = pto.tile.store %all, %y[%c0, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<2x4xf32>
  return %o : !pto.tensor<2x4xf32>
}

// fillpad writes zero, the finite minimum or the finite maximum outside the
// valid region (2x3 here), and makes the whole box valid.
// FILLPAD: y: f32 [3, 8]
// FILLPAD-NEXT: [0, 1, 2, 0, 0, 0, 0, 0]
// FILLPAD-NEXT: [0, 1, 2, -3.40282e+38, -3.40282e+38, -3.40282e+38, -3.40282e+38, -3.40282e+38]
// FILLPAD-NEXT: [0, 1, 2, 3.40282e+38, 3.40282e+38, 3.40282e+38, 3.40282e+38, 3.40282e+38]
func.func @fillpad(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<3x8xf32>) -> !pto.tensor<3x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %row = pto.tile.load %x[%c0, %c0] valid [%c1, %c3] : !pto.tensor<3x5xf32> -> !pto.tile<1x8xf32, vec>
  %zero = pto.tile.fillpad %row, zero : !pto.tile<1x8xf32, vec>
  %min = pto.tile.fillpad %row, min : !pto.tile<1x8xf32, vec>
  %max = pto.tile.fillpad %row, max : !pto.tile<1x8xf32, vec>
  %o0 = pto.tile.store %zero, %y[%c0, %c0] : !pto.tile<1x8xf32, vec> -> !pto.tensor<3x8xf32>
  %o1 = pto.tile.store %min, %o0[%c1, %c0] : !pto.tile<1x8xf32, vec> -> !pto.tensor<3x8xf32>
  %o2 = pto.tile.store %max, %o1[%c2, %c0] : !pto.tile<1x8xf32, vec> -> !pto.tensor<3x8xf32>
  return %o2 : !pto.tensor<3x8xf32>
}

// assemble writes the source's valid region (1x2) into the target.
// ASSEMBLE: y: f32 [4, 8]
// ASSEMBLE-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]
// ASSEMBLE-NEXT: [0, 0, 0, 5, 5, 0, 0, 0]
// ASSEMBLE-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]
func.func @assemble(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %five = arith.constant 5.0 : f32
  %src = pto.tile.full %five valid [%c1, %c2] : f32 -> !pto.tile<2x4xf32, vec>
  %dst = pto.tile.create : !pto.tile<4x8xf32, vec>
  %a = pto.tile.assemble %src into %dst[%c1, %c3] : !pto.tile<2x4xf32, vec> into !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}

// set_validshape changes metadata only: growing the valid shape back shows
// the data it hid.
// SETVALID: y: f32 [3, 5]
// SETVALID-NEXT: [0, 1, 2, 3, 4]
// SETVALID-NEXT: [5, 6, 7, 8, 9]
// SETVALID-NEXT: [10, 11, 12, 13, 14]
func.func @set_validshape(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<3x5xf32>) -> !pto.tensor<3x5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<3x5xf32> -> !pto.tile<4x8xf32, vec>
  %small = pto.tile.set_validshape %t[%c1, %c1] : !pto.tile<4x8xf32, vec>
  %back = pto.tile.set_validshape %small[%c3, %c5] : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %back, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<3x5xf32>
  return %o : !pto.tensor<3x5xf32>
}

// Elementwise results take the first operand's valid shape (2x3 here), and
// row reductions fold only valid elements into [valid rows, 1].
// PROPAGATE: y: f32 [4, 8]
// PROPAGATE-NEXT: [0, 2, 4, 0, 0, 0, 0, 0]
// PROPAGATE-NEXT: [10, 12, 14, 0, 0, 0, 0, 0]
// PROPAGATE-NEXT: [0, 0, 0, 0, 0, 0, 0, 0]
// PROPAGATE: r: f32 [4, 1]
// PROPAGATE-NEXT: [3]
// PROPAGATE-NEXT: [18]
// PROPAGATE-NEXT: [0]
// PROPAGATE-NEXT: [0]
func.func @propagation(%x: !pto.tensor<3x5xf32>, %y: !pto.tensor<4x8xf32>, %r: !pto.tensor<4x1xf32>) -> !pto.tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %full = pto.tile.load %x[%c0, %c0] : !pto.tensor<3x5xf32> -> !pto.tile<4x8xf32, vec>
  %part = pto.tile.set_validshape %full[%c2, %c3] : !pto.tile<4x8xf32, vec>
  %sum = pto.tile.add %part, %full : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %sum, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  %rows = pto.tile.row_sum %part : !pto.tile<4x8xf32, vec> -> !pto.tile<4x1xf32, vec>
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %all = pto.tile.set_validshape %rows[%c4, %c1] : !pto.tile<4x1xf32, vec>
  %ro = pto.tile.store %all, %r[%c0, %c0] : !pto.tile<4x1xf32, vec> -> !pto.tensor<4x1xf32>
  return %o : !pto.tensor<4x8xf32>
}
