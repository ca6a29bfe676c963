// Row argmax / argmin of tiles with fewer valid columns than their own: an
// f32 tile of 37 valid columns in 64 (and a run-time count of valid rows),
// an f16 tile of 100 in 128, an f32 tile of a run-time count (100) in 128
// (rows of two vector repeats). Only the valid columns count.
func.func @argmax_ragged(%x: !pto.tensor<8x64xf32>, %rows: index, %mv: !pto.tensor<8x1xf32>,
                         %mi: !pto.tensor<8x1xi32>, %h: !pto.tensor<4x128xf16>,
                         %nv: !pto.tensor<4x1xf16>, %ni: !pto.tensor<4x1xi32>,
                         %g: !pto.tensor<4x128xf32>, %gv: !pto.tensor<4x1xf32>,
                         %gi: !pto.tensor<4x1xi32>, %cols: index)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c37 = arith.constant 37 : index
  %c100 = arith.constant 100 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%rows, %c37] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %v, %i = pto.tile.row_argmax %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
  pto.tile.store %v, %mv[%c0, %c0] : !pto.tile<8x1xf32, vec> -> !pto.tensor<8x1xf32>
  pto.tile.store %i, %mi[%c0, %c0] : !pto.tile<8x1xi32, vec> -> !pto.tensor<8x1xi32>
  %th = pto.tile.load %h[%c0, %c0] valid [%c4, %c100] : !pto.tensor<4x128xf16> -> !pto.tile<4x128xf16, vec>
  %w, %j = pto.tile.row_argmin %th : !pto.tile<4x128xf16, vec> -> !pto.tile<4x1xf16, vec>, !pto.tile<4x1xi32, vec>
  pto.tile.store %w, %nv[%c0, %c0] : !pto.tile<4x1xf16, vec> -> !pto.tensor<4x1xf16>
  pto.tile.store %j, %ni[%c0, %c0] : !pto.tile<4x1xi32, vec> -> !pto.tensor<4x1xi32>
  %tg = pto.tile.load %g[%c0, %c0] valid [%c4, %cols] : !pto.tensor<4x128xf32> -> !pto.tile<4x128xf32, vec>
  %u, %k = pto.tile.row_argmax %tg : !pto.tile<4x128xf32, vec> -> !pto.tile<4x1xf32, vec>, !pto.tile<4x1xi32, vec>
  pto.tile.store %u, %gv[%c0, %c0] : !pto.tile<4x1xf32, vec> -> !pto.tensor<4x1xf32>
  pto.tile.store %k, %gi[%c0, %c0] : !pto.tile<4x1xi32, vec> -> !pto.tensor<4x1xi32>
  return
}
