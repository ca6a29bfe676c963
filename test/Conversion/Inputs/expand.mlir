// Row expansion: x - rowmax, exp of the difference, times a column.
func.func @expand(%x: !pto.tensor<16x64xf32>, %m: !pto.tensor<16x1xf32>, %y: !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %col = pto.tile.load %m[%c0, %c0] : !pto.tensor<16x1xf32> -> !pto.tile<16x1xf32, vec>
  %e = pto.tile.row_expand_expdif %t, %col : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %p = pto.tile.row_expand_mul %e, %col : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %r = pto.tile.store %p, %y[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  return %r : !pto.tensor<16x64xf32>
}
