// Tiles at explicit addresses that share bytes while both are live alias
// (the executor's byte pools), which the lowering cannot keep: it refuses
// them at the later tile, with a note at the other. Tiles that share bytes
// but are never live together, as memory planning places them, lower as
// any tiles do and keep every output bit.
// RUN: tilekit-opt %s -split-input-file --convert-pto-to-ascendc -verify-diagnostics
// RUN: tilekit compile %S/Inputs/disjoint_lifetimes.mlir --arch=c220 --verify-each --input y=zeros:2x8:f32 -o %t.c220.mlir 2>&1 | FileCheck %s
// RUN: tilekit compile %S/Inputs/disjoint_lifetimes.mlir --arch=c310 --verify-each --lower-to-l0 --input y=zeros:2x8:f32 -o %t.c310.mlir 2>&1 | FileCheck %s
// CHECK: verify-each: {{[0-9]+}} passes, the outputs equal before and after each

// %a is stored after %b overwrote its last 8 elements.
func.func @partial_overlap(%y: !pto.tensor<2x16xf32>) -> !pto.tensor<2x16xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  // expected-note @below {{the other tile}}
  %a = pto.tile.full %one : f32 -> !pto.tile<1x16xf32, vec, addr = 0>
  // expected-error @below {{a tile at address 32 shares bytes with one at address 0 while both are live}}
  %b = pto.tile.full %two : f32 -> !pto.tile<1x16xf32, vec, addr = 32>
  %o = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<1x16xf32, vec, addr = 0> -> !pto.tensor<2x16xf32>
  return %o : !pto.tensor<2x16xf32>
}

// -----

// A tile written inside a loop over the bytes of the loop's carry, which
// the next trip reads.
func.func @loop_carry(%y: !pto.tensor<1x8xf32>) -> !pto.tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %init = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  // expected-note @below {{the other tile}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (!pto.tile<1x8xf32, vec, addr = 0>) {
    // expected-error @below {{a tile at address 0 shares bytes with one at address 0 while both are live}}
    %b = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
    %d = pto.tile.add %acc, %b : !pto.tile<1x8xf32, vec, addr = 0>, !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tile<1x8xf32, vec, addr = 0>
    scf.yield %d : !pto.tile<1x8xf32, vec, addr = 0>
  }
  %o = pto.tile.store %r, %y[%c0, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<1x8xf32>
  return %o : !pto.tensor<1x8xf32>
}
