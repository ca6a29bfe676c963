// An f16 tensor computed in f32 and rounded back toward zero.
func.func @widen(%x: !pto.tensor<16x64xf16>, %y: !pto.tensor<16x64xf16>) -> !pto.tensor<16x64xf16> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %s = arith.constant 0.1 : f32
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf16> -> !pto.tile<16x64xf16, vec>
  %w = pto.tile.cast %t : !pto.tile<16x64xf16, vec> -> !pto.tile<16x64xf32, vec>
  %m = pto.tile.muls %w, %s : !pto.tile<16x64xf32, vec>, f32 -> !pto.tile<16x64xf32, vec>
  %n = pto.tile.cast %m round trunc : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf16, vec>
  %r = pto.tile.store %n, %y[%c0, %c0] : !pto.tile<16x64xf16, vec> -> !pto.tensor<16x64xf16>
  return %r : !pto.tensor<16x64xf16>
}
