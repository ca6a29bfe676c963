// row_argmax / row_argmin of f32 (NaN, both zeros, ties, a row of NaN, a
// row of -inf) and of f16 rows of which 5 are valid. The lowering finds
// the first column equal to the fold with a compare and a select.
func.func @argreduce(%x: !pto.tensor<16x64xf32>, %v: !pto.tensor<16x1xf32>, %i: !pto.tensor<16x1xi32>,
                     %w: !pto.tensor<16x1xf32>, %j: !pto.tensor<16x1xi32>,
                     %h: !pto.tensor<5x128xf16>, %hv: !pto.tensor<5x1xf16>, %hi: !pto.tensor<5x1xi32>,
                     %hw: !pto.tensor<5x1xf16>, %hj: !pto.tensor<5x1xi32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c128 = arith.constant 128 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %m, %mi = pto.tile.row_argmax %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>, !pto.tile<16x1xi32, vec>
  %n, %ni = pto.tile.row_argmin %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>, !pto.tile<16x1xi32, vec>
  pto.tile.store %m, %v[%c0, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<16x1xf32>
  pto.tile.store %mi, %i[%c0, %c0] : !pto.tile<16x1xi32, vec> -> !pto.tensor<16x1xi32>
  pto.tile.store %n, %w[%c0, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<16x1xf32>
  pto.tile.store %ni, %j[%c0, %c0] : !pto.tile<16x1xi32, vec> -> !pto.tensor<16x1xi32>
  %g = pto.tile.load %h[%c0, %c0] valid [%c5, %c128] : !pto.tensor<5x128xf16> -> !pto.tile<8x128xf16, vec>
  %gm, %gmi = pto.tile.row_argmax %g : !pto.tile<8x128xf16, vec> -> !pto.tile<8x1xf16, vec>, !pto.tile<8x1xi32, vec>
  %gn, %gni = pto.tile.row_argmin %g : !pto.tile<8x128xf16, vec> -> !pto.tile<8x1xf16, vec>, !pto.tile<8x1xi32, vec>
  pto.tile.store %gm, %hv[%c0, %c0] : !pto.tile<8x1xf16, vec> -> !pto.tensor<5x1xf16>
  pto.tile.store %gmi, %hi[%c0, %c0] : !pto.tile<8x1xi32, vec> -> !pto.tensor<5x1xi32>
  pto.tile.store %gn, %hw[%c0, %c0] : !pto.tile<8x1xf16, vec> -> !pto.tensor<5x1xf16>
  pto.tile.store %gni, %hj[%c0, %c0] : !pto.tile<8x1xi32, vec> -> !pto.tensor<5x1xi32>
  return
}
