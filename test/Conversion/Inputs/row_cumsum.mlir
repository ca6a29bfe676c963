// Prefix sums along the rows of 16-bit tiles: f16 with 13 of 16 rows and 40
// of 48 columns valid (summed in f32, each prefix rounded once), and i16
// (wrapping).
func.func @row_cumsum(%x: !pto.tensor<13x40xf16>, %y: !pto.tensor<13x40xf16>,
                      %n: !pto.tensor<32x16xi16>, %m: !pto.tensor<32x16xi16>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c13 = arith.constant 13 : index
  %c40 = arith.constant 40 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c13, %c40] : !pto.tensor<13x40xf16> -> !pto.tile<16x48xf16, vec>
  %s = pto.tile.row_cumsum %t : !pto.tile<16x48xf16, vec>
  pto.tile.store %s, %y[%c0, %c0] : !pto.tile<16x48xf16, vec> -> !pto.tensor<13x40xf16>
  %tn = pto.tile.load %n[%c0, %c0] : !pto.tensor<32x16xi16> -> !pto.tile<32x16xi16, vec>
  %sn = pto.tile.row_cumsum %tn : !pto.tile<32x16xi16, vec>
  pto.tile.store %sn, %m[%c0, %c0] : !pto.tile<32x16xi16, vec> -> !pto.tensor<32x16xi16>
  return
}
