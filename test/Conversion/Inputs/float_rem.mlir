// A float remainder (fmod), which no Ascend C vector instruction computes.
func.func @frem(%x: !pto.tensor<8x64xf32>, %y: !pto.tensor<8x64xf32>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %u = pto.tile.load %y[%c0, %c0] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %r = pto.tile.rem %t, %u : !pto.tile<8x64xf32, vec>, !pto.tile<8x64xf32, vec> -> !pto.tile<8x64xf32, vec>
  pto.tile.store %r, %y[%c0, %c0] : !pto.tile<8x64xf32, vec> -> !pto.tensor<8x64xf32>
  return
}
