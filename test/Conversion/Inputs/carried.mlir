// Tiles carried across loop trips, each trip a new one: a running sum and
// a running maximum of the row tiles of x, kept in home tensors.
func.func @carried(%x: !pto.tensor<64x128xf32>, %sum: !pto.tensor<16x128xf32>, %max: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -1.0e+30 : f32
  %s0 = pto.tile.full %zero : f32 -> !pto.tile<16x128xf32, vec>
  %m0 = pto.tile.full %low : f32 -> !pto.tile<16x128xf32, vec>
  %s, %m = scf.for %r = %c0 to %c64 step %c16 iter_args(%acc = %s0, %top = %m0) -> (!pto.tile<16x128xf32, vec>, !pto.tile<16x128xf32, vec>) {
    %t = pto.tile.load %x[%r, %c0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
    %next = pto.tile.add %acc, %t : !pto.tile<16x128xf32, vec>
    %higher = pto.tile.max %top, %t : !pto.tile<16x128xf32, vec>
    scf.yield %next, %higher : !pto.tile<16x128xf32, vec>, !pto.tile<16x128xf32, vec>
  }
  %o1 = pto.tile.store %s, %sum[%c0, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<16x128xf32>
  %o2 = pto.tile.store %m, %max[%c0, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<16x128xf32>
  return %o2 : !pto.tensor<16x128xf32>
}
