// RUN: tilekit-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(pto-plan-memory{ub-bytes=1024}))'

// Three 512 B tiles live at once need 1536 B of a 1024 B UB: %a and %b are
// read again after the add that makes %c.
// expected-error @+1 {{@too_big needs 1536 bytes of ub, more than its capacity of 1024 bytes; at the peak 1536 bytes are live in 3 tiles}}
func.func @too_big(%y: !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-note @+1 {{live at the peak: '!pto.tile<8x16xf32, vec>', 512 bytes}}
  %a = pto.tile.full %f : f32 -> !pto.tile<8x16xf32, vec>
  // expected-note @+1 {{live at the peak: '!pto.tile<8x16xf32, vec>', 512 bytes}}
  %b = pto.tile.full %f : f32 -> !pto.tile<8x16xf32, vec>
  // expected-note @+1 {{live at the peak: '!pto.tile<8x16xf32, vec>', 512 bytes}}
  %c = pto.tile.add %a, %b : !pto.tile<8x16xf32, vec>
  %d = pto.tile.sub %c, %a : !pto.tile<8x16xf32, vec>
  %e = pto.tile.mul %d, %b : !pto.tile<8x16xf32, vec>
  %o = pto.tile.store %e, %y[%c0, %c0] : !pto.tile<8x16xf32, vec> -> !pto.tensor<8x16xf32>
  return %o : !pto.tensor<8x16xf32>
}

// -----

// Carried tiles that trade places cannot share storage without a temporary.
func.func @swap(%y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %g = arith.constant 2.0 : f32
  // expected-note @+1 {{the other tile}}
  %x0 = pto.tile.full %f : f32 -> !pto.tile<4x8xf32, vec>
  // expected-error @+1 {{cannot plan memory: this tile must take the storage of another that is still needed afterwards, and no copy separates them}}
  %y0 = pto.tile.full %g : f32 -> !pto.tile<4x8xf32, vec>
  // expected-note @+1 {{still used here}}
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x0, %b = %y0) -> (!pto.tile<4x8xf32, vec>, !pto.tile<4x8xf32, vec>) {
    scf.yield %b, %a : !pto.tile<4x8xf32, vec>, !pto.tile<4x8xf32, vec>
  }
  %s = pto.tile.sub %r#0, %r#1 : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}

// -----

// An accumulator still stored after the loop that accumulates into it would
// need a copy, and L0C has no copy within itself.
func.func @acc_kept(%a: !pto.tensor<16x16xf16>, %c: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-note @+1 {{the other tile}}
  %acc0 = pto.tile.create : !pto.tile<16x16xf32, acc>
  %m = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %l = pto.tile.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
  %r = pto.tile.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
  // expected-error @+1 {{cannot plan memory: this tile must take the storage of another that is still needed afterwards, and a tile in l0c cannot be copied within its buffer}}
  %acc = scf.for %k = %c0 to %c2 step %c1 iter_args(%p = %acc0) -> (!pto.tile<16x16xf32, acc>) {
    %n = pto.tile.matmul_acc %p, %l, %r : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
    scf.yield %n : !pto.tile<16x16xf32, acc>
  }
  %o1 = pto.tile.store %acc, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  // expected-note @+1 {{still used here}}
  %o2 = pto.tile.store %acc0, %o1[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return %o2 : !pto.tensor<16x16xf32>
}

// -----

// L0A holds 512 B fractals: addresses are multiples of 512.
func.func @misaligned(%a: !pto.tensor<16x16xf16>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %m = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  // expected-error @+1 {{address 32 is not a multiple of 512 bytes, the alignment of l0a}}
  %l = pto.tile.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left, addr = 32>
  return
}

// -----

// A given address past the capacity of the machine in use.
func.func @past_capacity(%y: !pto.tensor<8x8xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{the tile at address 1024 (256 bytes) runs past the end of ub (1024 bytes)}}
  %a = pto.tile.full %f : f32 -> !pto.tile<8x8xf32, vec, addr = 1024>
  return
}
