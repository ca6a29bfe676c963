// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// A load has one offset per tensor dimension.
func.func @f(%x: !pto.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{expects 2 offsets (one per dimension), got 1}}
  %t = pto.tile.load %x[%i] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  return
}

// -----

// A valid shape has one extent per tile dimension.
func.func @f(%x: !pto.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{valid shape needs 2 extents (one per dimension), got 1}}
  %t = pto.tile.load %x[%i, %i] valid [%i] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  return
}

// -----

// A load keeps the element type.
func.func @f(%x: !pto.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{tile element type 'f16' differs from the tensor's 'f32'}}
  %t = pto.tile.load %x[%i, %i] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf16, vec>
  return
}

// -----

// GM reaches UB and L1 only.
func.func @f(%x: !pto.tensor<?x64xf16>, %i: index) {
  // expected-error @+1 {{loads from GM reach 'vec' (UB) or 'mat' (L1), not 'left'}}
  %t = pto.tile.load %x[%i, %i] : !pto.tensor<?x64xf16> -> !pto.tile<16x64xf16, left>
  return
}

// -----

// A tile cannot have more dimensions than the tensor it comes from.
func.func @f(%x: !pto.tensor<64xf32>, %i: index) {
  // expected-error @+1 {{has more dimensions than}}
  %t = pto.tile.load %x[%i] : !pto.tensor<64xf32> -> !pto.tile<1x64xf32, vec>
  return
}

// -----

// Stores leave from UB or L0C.
func.func @f(%t: !pto.tile<16x64xf16, mat>, %x: !pto.tensor<?x64xf16>, %i: index) {
  // expected-error @+1 {{stores to GM leave from 'vec' (UB) or 'acc' (L0C, through the fixpipe), not 'mat'}}
  %o = pto.tile.store %t, %x[%i, %i] : !pto.tile<16x64xf16, mat> -> !pto.tensor<?x64xf16>
  return
}

// -----

// Only the fixpipe converts on the way to GM.
func.func @f(%t: !pto.tile<16x64xf32, vec>, %x: !pto.tensor<?x64xf16>, %i: index) {
  // expected-error @+1 {{a 'vec' tile stores its own element type; 'f32' differs from 'f16'}}
  %o = pto.tile.store %t, %x[%i, %i] : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf16>
  return
}

// -----

// A store has one offset per tensor dimension.
func.func @f(%t: !pto.tile<16x64xf32, vec>, %x: !pto.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{expects 2 offsets (one per dimension), got 3}}
  %o = pto.tile.store %t, %x[%i, %i, %i] : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  return
}

// -----

// A fill value matches the element family.
func.func @f(%v: i32) {
  // expected-error @+1 {{scalar of type 'i32' does not match element type 'f32'}}
  %t = pto.tile.full %v : i32 -> !pto.tile<16x64xf32, vec>
  return
}

// -----

// create takes a whole valid shape or none.
func.func @f(%i: index) {
  // expected-error @+1 {{valid shape needs 2 extents (one per dimension), got 3}}
  %t = pto.tile.create valid [%i, %i, %i] : !pto.tile<16x64xf32, vec>
  return
}

// -----

// UB does not feed L0A directly.
func.func @f(%t: !pto.tile<16x64xf16, vec>) {
  // expected-error @+1 {{there is no on-chip path from 'vec' to 'left'}}
  %m = pto.tile.move %t : !pto.tile<16x64xf16, vec> -> !pto.tile<16x64xf16, left>
  return
}

// -----

// A move keeps the box (outside the fixpipe).
func.func @f(%t: !pto.tile<16x64xf16, mat>) {
  // expected-error @+1 {{source and result must have the same shape and element type}}
  %m = pto.tile.move %t : !pto.tile<16x64xf16, mat> -> !pto.tile<16x32xf16, left>
  return
}

// -----

// The fixpipe converts elements but keeps the shape.
func.func @f(%t: !pto.tile<16x64xf32, acc>) {
  // expected-error @+1 {{source and result must have the same shape}}
  %m = pto.tile.move %t : !pto.tile<16x64xf32, acc> -> !pto.tile<16x32xf16, vec>
  return
}

// -----

// A slice stays in its buffer with its element type.
func.func @f(%t: !pto.tile<16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{must keep the rank, element type and memory space of}}
  %s = pto.tile.slice %t[%i, %i] : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf16, vec>
  return
}

// -----

// A slice has one offset per dimension.
func.func @f(%t: !pto.tile<16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{expects 2 offsets (one per dimension), got 1}}
  %s = pto.tile.slice %t[%i] : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf32, vec>
  return
}

// -----

// assemble writes a tile of the target's rank and element type.
func.func @f(%s: !pto.tile<64xf32, vec>, %t: !pto.tile<16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{must have the rank, element type and memory space of the target}}
  %a = pto.tile.assemble %s into %t[%i, %i] : !pto.tile<64xf32, vec> into !pto.tile<16x64xf32, vec>
  return
}

// -----

// assemble has one offset per target dimension.
func.func @f(%s: !pto.tile<8x64xf32, vec>, %t: !pto.tile<16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{expects 2 offsets (one per dimension), got 1}}
  %a = pto.tile.assemble %s into %t[%i] : !pto.tile<8x64xf32, vec> into !pto.tile<16x64xf32, vec>
  return
}

// -----

// fillpad writes a defined value.
func.func @f(%t: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{pads with zero, min or max, not null}}
  %p = pto.tile.fillpad %t, null : !pto.tile<16x64xf32, vec>
  return
}

// -----

// set_validshape takes one extent per dimension.
func.func @f(%t: !pto.tile<16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{valid shape needs 2 extents (one per dimension), got 1}}
  %p = pto.tile.set_validshape %t[%i] : !pto.tile<16x64xf32, vec>
  return
}

// -----

// reshape keeps the element count.
func.func @f(%t: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{cannot reshape 1024 elements into 512}}
  %r = pto.tile.reshape %t : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf32, vec>
  return
}

// -----

// reshape keeps element type and buffer.
func.func @f(%t: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{reshape keeps the element type and memory space}}
  %r = pto.tile.reshape %t : !pto.tile<16x64xf32, vec> -> !pto.tile<32x32xi32, vec>
  return
}

// -----

// transpose swaps the two dimensions.
func.func @f(%t: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{result must be the transpose of}}
  %r = pto.tile.transpose %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec>
  return
}

// -----

// read takes one index per dimension.
func.func @f(%t: !pto.tile<16x64xf32, vec>, %i: index) {
  // expected-error @+1 {{expects 2 indices (one per dimension), got 1}}
  %r = pto.tile.read %t[%i] : !pto.tile<16x64xf32, vec>
  return
}

// -----

// write takes one index per dimension.
func.func @f(%t: !pto.tile<16x64xf32, vec>, %v: f32, %i: index) {
  // expected-error @+1 {{expects 2 indices (one per dimension), got 3}}
  %r = pto.tile.write %v, %t[%i, %i, %i] : !pto.tile<16x64xf32, vec>
  return
}

// -----

// Elementwise operands agree in shape and element type.
func.func @f(%a: !pto.tile<16x64xf32, vec>, %b: !pto.tile<16x32xf32, vec>) {
  // expected-error @+1 {{operands must have the same shape and element type}}
  %r = pto.tile.add %a, %b : !pto.tile<16x64xf32, vec>, !pto.tile<16x32xf32, vec>
  return
}

// -----

// The result has the operands' box.
func.func @f(%a: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{operands and result must have the same shape and element type}}
  %r = pto.tile.mul %a, %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf16, vec>
  return
}

// -----

// The vector unit reads UB.
func.func @f(%a: !pto.tile<16x64xf16, mat>) {
  // expected-error @+1 {{lhs must be a 'vec' tile, got 'mat'}}
  %r = pto.tile.sub %a, %a : !pto.tile<16x64xf16, mat>
  return
}

// -----

// Bitwise ops need integers.
func.func @f(%a: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{needs an integer element type, got 'f32'}}
  %r = pto.tile.xor %a, %a : !pto.tile<16x64xf32, vec>
  return
}

// -----

// Tile-scalar ops take a scalar of the element family.
func.func @f(%a: !pto.tile<16x64xf32, vec>, %s: i32) {
  // expected-error @+1 {{scalar of type 'i32' does not match element type 'f32'}}
  %r = pto.tile.adds %a, %s : !pto.tile<16x64xf32, vec>, i32
  return
}

// -----

// Shifts by a scalar need integers.
func.func @f(%a: !pto.tile<16x64xf32, vec>, %s: f32) {
  // expected-error @+1 {{needs an integer element type, got 'f32'}}
  %r = pto.tile.shls %a, %s : !pto.tile<16x64xf32, vec>, f32
  return
}

// -----

// Transcendentals need floats.
func.func @f(%a: !pto.tile<16x64xi32, vec>) {
  // expected-error @+1 {{needs a float element type, got 'i32'}}
  %r = pto.tile.exp %a : !pto.tile<16x64xi32, vec>
  return
}

// -----

// not needs integers.
func.func @f(%a: !pto.tile<16x64xf16, vec>) {
  // expected-error @+1 {{needs an integer element type, got 'f16'}}
  %r = pto.tile.not %a : !pto.tile<16x64xf16, vec>
  return
}

// -----

// A unary result keeps the box.
func.func @f(%a: !pto.tile<16x64xf16, vec>) {
  // expected-error @+1 {{source and result must have the same shape and element type}}
  %r = pto.tile.relu %a : !pto.tile<16x64xf16, vec> -> !pto.tile<16x64xf32, vec>
  return
}

// -----

// A cast keeps the shape.
func.func @f(%a: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{source and result must have the same shape}}
  %r = pto.tile.cast %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x32xf16, vec>
  return
}

// -----

// A comparison yields an i1 mask.
func.func @f(%a: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{result must have i1 elements}}
  %r = pto.tile.cmp lt, %a, %a : !pto.tile<16x64xf32, vec>
  return
}

// -----

// A comparison with a scalar of the element family.
func.func @f(%a: !pto.tile<16x64xf32, vec>, %s: i8) {
  // expected-error @+1 {{scalar of type 'i8' does not match element type 'f32'}}
  %r = pto.tile.cmps gt, %a, %s : !pto.tile<16x64xf32, vec>, i8 -> !pto.tile<16x64xi1, vec>
  return
}

// -----

// A select mask covers the data.
func.func @f(%m: !pto.tile<16x32xi1, vec>, %a: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{mask and data must have the same shape}}
  %r = pto.tile.sel %m, %a, %a : !pto.tile<16x32xi1, vec>, !pto.tile<16x64xf32, vec>
  return
}

// -----

// A select mask is i1.
func.func @f(%m: !pto.tile<16x64xi8, vec>, %a: !pto.tile<16x64xf32, vec>, %s: f32) {
  // expected-error @+1 {{mask must have i1 elements}}
  %r = pto.tile.sels %m, %a, %s : !pto.tile<16x64xi8, vec>, !pto.tile<16x64xf32, vec>, f32
  return
}

// -----

// A row reduction leaves one column.
func.func @f(%a: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{result shape must be [16, 1], got '!pto.tile<1x64xf32, vec>'}}
  %r = pto.tile.row_sum %a : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  return
}

// -----

// A column reduction leaves one row.
func.func @f(%a: !pto.tile<16x64xf32, vec>) {
  // expected-error @+1 {{result shape must be [1, 64], got '!pto.tile<16x1xf32, vec>'}}
  %r = pto.tile.col_max %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  return
}

// -----

// Reductions keep the element type.
func.func @f(%a: !pto.tile<16x64xf16, vec>) {
  // expected-error @+1 {{result element type 'f32' differs from the source's 'f16'}}
  %r = pto.tile.row_max %a : !pto.tile<16x64xf16, vec> -> !pto.tile<16x1xf32, vec>
  return
}

// -----

// Reductions need rows and columns.
func.func @f(%a: !pto.tile<64xf32, vec>) {
  // expected-error @+1 {{reduces a 2-D (or batched) operand}}
  %r = pto.tile.row_min %a : !pto.tile<64xf32, vec> -> !pto.tile<1xf32, vec>
  return
}

// -----

// row_expand broadcasts an Mx1 tile.
func.func @f(%a: !pto.tile<8x1xf32, vec>) {
  // expected-error @+1 {{row operand must be 16x1 to broadcast over '!pto.tile<16x64xf32, vec>', got '!pto.tile<8x1xf32, vec>'}}
  %r = pto.tile.row_expand %a : !pto.tile<8x1xf32, vec> -> !pto.tile<16x64xf32, vec>
  return
}

// -----

// col_expand_* broadcasts a 1xN tile.
func.func @f(%a: !pto.tile<16x64xf32, vec>, %c: !pto.tile<16x1xf32, vec>) {
  // expected-error @+1 {{column operand must be 1x64}}
  %r = pto.tile.col_expand_mul %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  return
}

// -----

// expdif is exp(lhs - rhs), a float op.
func.func @f(%a: !pto.tile<16x64xi32, vec>, %r: !pto.tile<16x1xi32, vec>) {
  // expected-error @+1 {{needs a float element type, got 'i32'}}
  %e = pto.tile.row_expand_expdif %a, %r : !pto.tile<16x64xi32, vec>, !pto.tile<16x1xi32, vec>
  return
}

// -----

// Broadcasts are between 2-D tiles.
func.func @f(%a: !pto.tile<64xf32, vec>, %r: !pto.tile<1xf32, vec>) {
  // expected-error @+1 {{broadcasts between 2-D tiles}}
  %e = pto.tile.row_expand_add %a, %r : !pto.tile<64xf32, vec>, !pto.tile<1xf32, vec>
  return
}

// -----

// A broadcast keeps the element type.
func.func @f(%r: !pto.tile<16x1xf16, vec>) {
  // expected-error @+1 {{element types differ}}
  %e = pto.tile.row_expand %r : !pto.tile<16x1xf16, vec> -> !pto.tile<16x64xf32, vec>
  return
}

// -----

// Reductions run on UB tiles.
func.func @f(%a: !pto.tile<16x64xf32, acc>) {
  // expected-error @+1 {{source must be a 'vec' tile, got 'acc'}}
  %r = pto.tile.row_sum %a : !pto.tile<16x64xf32, acc> -> !pto.tile<16x1xf32, acc>
  return
}

// -----

// fillpad runs on UB tiles.
func.func @f(%a: !pto.tile<16x64xf16, mat>) {
  // expected-error @+1 {{source must be a 'vec' tile, got 'mat'}}
  %r = pto.tile.fillpad %a, zero : !pto.tile<16x64xf16, mat>
  return
}

// -----

// A stored tile fits the tensor's rank.
func.func @f(%t: !pto.tile<1x64xf32, vec>, %x: !pto.tensor<64xf32>, %i: index) {
  // expected-error @+1 {{has more dimensions than}}
  %o = pto.tile.store %t, %x[%i] : !pto.tile<1x64xf32, vec> -> !pto.tensor<64xf32>
  return
}

// -----

// iota writes 16- or 32-bit elements of the start's type.
func.func @f(%s: i32) {
  // expected-error @+1 {{start of type 'i32' must have the element type 'i16'}}
  %i = pto.tile.iota %s : i32 -> !pto.tile<1x64xi16, vec>
  return
}

// -----

func.func @f(%s: i8) {
  // expected-error @+1 {{needs 16- or 32-bit integer or f16/f32 elements, got 'i8'}}
  %i = pto.tile.iota %s : i8 -> !pto.tile<1x64xi8, vec>
  return
}

// -----

// argmax gives one value and one i32 index per row.
func.func @f(%t: !pto.tile<8x64xf32, vec>) {
  // expected-error @+1 {{indices must have i32 elements}}
  %v, %i = pto.tile.row_argmax %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi16, vec>
  return
}

// -----

func.func @f(%t: !pto.tile<8x64xf32, vec>) {
  // expected-error @+1 {{values must be 8x1 (one per row), got '!pto.tile<8x2xf32, vec>'}}
  %v, %i = pto.tile.row_argmin %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x2xf32, vec>, !pto.tile<8x1xi32, vec>
  return
}

// -----

// sort32 sorts whole blocks of 32 columns of f16 or f32.
func.func @f(%t: !pto.tile<8x48xf32, vec>) {
  // expected-error @+1 {{sorts blocks of 32 columns, but the tile has 48 columns}}
  %v, %i = pto.tile.sort32 %t : !pto.tile<8x48xf32, vec> -> !pto.tile<8x48xf32, vec>, !pto.tile<8x48xi32, vec>
  return
}

// -----

func.func @f(%t: !pto.tile<8x64xi32, vec>) {
  // expected-error @+1 {{needs a float element type, got 'i32'}}
  %v, %i = pto.tile.sort32 %t : !pto.tile<8x64xi32, vec> -> !pto.tile<8x64xi32, vec>, !pto.tile<8x64xi32, vec>
  return
}

// -----

func.func @f(%v: !pto.tile<8x64xf32, vec>, %i: !pto.tile<8x64xi32, vec>) {
  // expected-error @+1 {{block must be positive, got 0}}
  %a, %b = pto.tile.mrgsort %v, %i block 0 : !pto.tile<8x64xf32, vec>, !pto.tile<8x64xi32, vec>
  return
}

// -----

// gather's result has the indices' shape and the source's element type.
func.func @f(%t: !pto.tile<8x64xf32, vec>, %i: !pto.tile<1x64xi32, vec>) {
  // expected-error @+1 {{indices and result must have the same shape}}
  %g = pto.tile.gather %t, %i : !pto.tile<8x64xf32, vec>, !pto.tile<1x64xi32, vec> -> !pto.tile<1x32xf32, vec>
  return
}

// -----

func.func @f(%t: !pto.tile<1x64xf32, vec>, %i: !pto.tile<1x64xi32, vec>, %d: !pto.tile<8x64xf16, vec>) {
  // expected-error @+1 {{destination element type 'f16' differs from the source's 'f32'}}
  %s = pto.tile.scatter %t, %i into %d : !pto.tile<1x64xf32, vec>, !pto.tile<1x64xi32, vec> into !pto.tile<8x64xf16, vec>
  return
}

// -----

func.func @f(%t: !pto.tile<8x64xf32, vec>) {
  // expected-error @+1 {{dimension 2 is out of range for a tile of rank 2}}
  %n = pto.tile.valid_dim %t, 2 : !pto.tile<8x64xf32, vec>
  return
}

// -----

// tanh, sigmoid and erf are float ops.
func.func @f(%t: !pto.tile<8x64xi32, vec>) {
  // expected-error @+1 {{needs a float element type, got 'i32'}}
  %e = pto.tile.erf %t : !pto.tile<8x64xi32, vec>
  return
}

// -----

// scatter writes rows: the destination has the source's columns.
func.func @f(%t: !pto.tile<1x32xf32, vec>, %i: !pto.tile<1x32xi32, vec>, %d: !pto.tile<8x16xf32, vec>) {
  // expected-error @+1 {{scatters rows: the source '!pto.tile<1x32xf32, vec>' and the destination '!pto.tile<8x16xf32, vec>' must be 2-D with the same number of columns}}
  %s = pto.tile.scatter %t, %i into %d : !pto.tile<1x32xf32, vec>, !pto.tile<1x32xi32, vec> into !pto.tile<8x16xf32, vec>
  return
}
