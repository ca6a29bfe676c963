// A scan has no AscendC lowering yet.
func.func @scan(%x: !pto.tensor<16x128xf32>, %y: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
  %m = pto.tile.row_cumsum %t : !pto.tile<16x128xf32, vec>
  %r = pto.tile.store %m, %y[%c0, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<16x128xf32>
  return %r : !pto.tensor<16x128xf32>
}
