// Tiles at one address that are never live together (as memory planning
// places them): a tile stored before the next is written over it, and a
// loop whose carry is updated in place. They lower as any tiles do.
func.func @disjoint(%y: !pto.tensor<2x8xf32>) -> !pto.tensor<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = pto.tile.full %one : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %o0 = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<2x8xf32>
  %b = pto.tile.full %two : f32 -> !pto.tile<1x8xf32, vec, addr = 0>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %b) -> (!pto.tile<1x8xf32, vec, addr = 0>) {
    %d = pto.tile.add %acc, %acc : !pto.tile<1x8xf32, vec, addr = 0>, !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tile<1x8xf32, vec, addr = 0>
    scf.yield %d : !pto.tile<1x8xf32, vec, addr = 0>
  }
  %o1 = pto.tile.store %r, %o0[%c1, %c0] : !pto.tile<1x8xf32, vec, addr = 0> -> !pto.tensor<2x8xf32>
  return %o1 : !pto.tensor<2x8xf32>
}
