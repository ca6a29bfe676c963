// Ops no pattern takes (shl by a tile) and ops a pattern refuses in their
// form (an f32 transpose, a float remainder); the exp of the transpose is
// not reported: it only uses what a refused op made.
func.func @many(%x: !pto.tensor<8x32xi32>, %f: !pto.tensor<16x32xf32>, %y: !pto.tensor<8x32xi32>, %g: !pto.tensor<32x16xf32>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x32xi32> -> !pto.tile<8x32xi32, vec>
  %l = pto.tile.shl %t, %t : !pto.tile<8x32xi32, vec>
  %u = pto.tile.load %f[%c0, %c0] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec>
  %tr = pto.tile.transpose %u : !pto.tile<16x32xf32, vec> -> !pto.tile<32x16xf32, vec>
  %e = pto.tile.exp %tr : !pto.tile<32x16xf32, vec>
  %r = pto.tile.rem %u, %u : !pto.tile<16x32xf32, vec>, !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec>
  pto.tile.store %l, %y[%c0, %c0] : !pto.tile<8x32xi32, vec> -> !pto.tensor<8x32xi32>
  pto.tile.store %e, %g[%c0, %c0] : !pto.tile<32x16xf32, vec> -> !pto.tensor<32x16xf32>
  return
}
