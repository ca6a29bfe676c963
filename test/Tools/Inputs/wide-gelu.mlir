// A GELU-like tile kernel on 64x256xf32 tiles (64 KiB each): x, x^2 and
// x^3 are live at once (x^2 and x are read again later) with a 16 KiB bias
// tile, 208 KiB in all. It fits a
// 950PR's 248 KiB UB but not a 910B's 192 KiB.
func.func @wide_gelu(%x: !pto.tensor<64x256xf32>, %bias: !pto.tensor<16x256xf32>,
                     %y: !pto.tensor<64x256xf32>) -> !pto.tensor<64x256xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %k = arith.constant 0.044715 : f32
  %b = pto.tile.load %bias[%c0, %c0] : !pto.tensor<16x256xf32> -> !pto.tile<16x256xf32, vec>
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<64x256xf32> -> !pto.tile<64x256xf32, vec>
  %t2 = pto.tile.mul %t, %t : !pto.tile<64x256xf32, vec>
  %t3 = pto.tile.mul %t2, %t : !pto.tile<64x256xf32, vec>
  %kt3 = pto.tile.muls %t3, %k : !pto.tile<64x256xf32, vec>, f32
  %w = pto.tile.add %kt3, %t2 : !pto.tile<64x256xf32, vec>
  %u = pto.tile.add %t, %w : !pto.tile<64x256xf32, vec>
  %v = pto.tile.tanh %u : !pto.tile<64x256xf32, vec>
  %o = pto.tile.store %v, %y[%c0, %c0] : !pto.tile<64x256xf32, vec> -> !pto.tensor<64x256xf32>
  %o2 = pto.tile.store %b, %o[%c0, %c0] : !pto.tile<16x256xf32, vec> -> !pto.tensor<64x256xf32>
  return %o2 : !pto.tensor<64x256xf32>
}
