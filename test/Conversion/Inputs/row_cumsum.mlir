// Prefix sums along the rows: f16 with 13 of 16 rows and 40 of 48 columns
// valid (summed in f32, each prefix rounded once), i16 (wrapping), both
// turned by Ascend C's Transpose; f32 with 5 of 8 rows and 13 of 24 columns
// valid and i32 (wrapping), turned by the scalar unit.
func.func @row_cumsum(%x: !pto.tensor<13x40xf16>, %y: !pto.tensor<13x40xf16>,
                      %n: !pto.tensor<32x16xi16>, %m: !pto.tensor<32x16xi16>,
                      %a: !pto.tensor<5x13xf32>, %b: !pto.tensor<5x13xf32>,
                      %c: !pto.tensor<8x16xi32>, %d: !pto.tensor<8x16xi32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c13 = arith.constant 13 : index
  %c40 = arith.constant 40 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c13, %c40] : !pto.tensor<13x40xf16> -> !pto.tile<16x48xf16, vec>
  %s = pto.tile.row_cumsum %t : !pto.tile<16x48xf16, vec>
  pto.tile.store %s, %y[%c0, %c0] : !pto.tile<16x48xf16, vec> -> !pto.tensor<13x40xf16>
  %tn = pto.tile.load %n[%c0, %c0] : !pto.tensor<32x16xi16> -> !pto.tile<32x16xi16, vec>
  %sn = pto.tile.row_cumsum %tn : !pto.tile<32x16xi16, vec>
  pto.tile.store %sn, %m[%c0, %c0] : !pto.tile<32x16xi16, vec> -> !pto.tensor<32x16xi16>
  %ta = pto.tile.load %a[%c0, %c0] valid [%c5, %c13] : !pto.tensor<5x13xf32> -> !pto.tile<8x24xf32, vec>
  %sa = pto.tile.row_cumsum %ta : !pto.tile<8x24xf32, vec>
  pto.tile.store %sa, %b[%c0, %c0] : !pto.tile<8x24xf32, vec> -> !pto.tensor<5x13xf32>
  %tc = pto.tile.load %c[%c0, %c0] : !pto.tensor<8x16xi32> -> !pto.tile<8x16xi32, vec>
  %sc = pto.tile.row_cumsum %tc : !pto.tile<8x16xi32, vec>
  pto.tile.store %sc, %d[%c0, %c0] : !pto.tile<8x16xi32, vec> -> !pto.tensor<8x16xi32>
  return
}
