// Index sequences, prefix sums down columns and shifts by a constant:
// iota ascending and descending on i32, f16 (through f32) and i16 (one row);
// col_cumsum of f32 and f16 over a ragged tile (13 of 16 rows valid) and of
// i32 (wrapping); shls / shrs on i32 and i16 (arithmetic to the right).
func.func @index(%x: !pto.tensor<13x64xf32>, %sx: !pto.tensor<13x64xf32>,
                 %h: !pto.tensor<13x64xf16>, %sh: !pto.tensor<13x64xf16>,
                 %n: !pto.tensor<8x32xi32>, %sn: !pto.tensor<8x32xi32>,
                 %ia: !pto.tensor<4x64xi32>, %id: !pto.tensor<4x64xf16>,
                 %iw: !pto.tensor<1x128xi16>,
                 %u: !pto.tensor<4x64xi16>, %su: !pto.tensor<4x64xi16>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c13 = arith.constant 13 : index
  %c64 = arith.constant 64 : index
  %start = arith.constant -5 : i32
  %hstart = arith.constant 1000.5 : f16
  %wstart = arith.constant 32760 : i16
  %three = arith.constant 3 : i32
  %eleven = arith.constant 11 : i32
  %five = arith.constant 5 : i16
  %tx = pto.tile.load %x[%c0, %c0] valid [%c13, %c64] : !pto.tensor<13x64xf32> -> !pto.tile<16x64xf32, vec>
  %cx = pto.tile.col_cumsum %tx : !pto.tile<16x64xf32, vec>
  pto.tile.store %cx, %sx[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<13x64xf32>
  %th = pto.tile.load %h[%c0, %c0] valid [%c13, %c64] : !pto.tensor<13x64xf16> -> !pto.tile<16x64xf16, vec>
  %ch = pto.tile.col_cumsum %th : !pto.tile<16x64xf16, vec>
  pto.tile.store %ch, %sh[%c0, %c0] : !pto.tile<16x64xf16, vec> -> !pto.tensor<13x64xf16>
  %tn = pto.tile.load %n[%c0, %c0] : !pto.tensor<8x32xi32> -> !pto.tile<8x32xi32, vec>
  %cn = pto.tile.col_cumsum %tn : !pto.tile<8x32xi32, vec>
  %ln = pto.tile.shls %cn, %three : !pto.tile<8x32xi32, vec>, i32
  %rn = pto.tile.shrs %ln, %eleven : !pto.tile<8x32xi32, vec>, i32
  pto.tile.store %rn, %sn[%c0, %c0] : !pto.tile<8x32xi32, vec> -> !pto.tensor<8x32xi32>
  %ua = pto.tile.iota %start : i32 -> !pto.tile<4x64xi32, vec>
  pto.tile.store %ua, %ia[%c0, %c0] : !pto.tile<4x64xi32, vec> -> !pto.tensor<4x64xi32>
  %ud = pto.tile.iota %hstart descending : f16 -> !pto.tile<4x64xf16, vec>
  pto.tile.store %ud, %id[%c0, %c0] : !pto.tile<4x64xf16, vec> -> !pto.tensor<4x64xf16>
  %uw = pto.tile.iota %wstart : i16 -> !pto.tile<1x128xi16, vec>
  pto.tile.store %uw, %iw[%c0, %c0] : !pto.tile<1x128xi16, vec> -> !pto.tensor<1x128xi16>
  %tu = pto.tile.load %u[%c0, %c0] : !pto.tensor<4x64xi16> -> !pto.tile<4x64xi16, vec>
  %ru = pto.tile.shrs %tu, %five : !pto.tile<4x64xi16, vec>, i16
  pto.tile.store %ru, %su[%c0, %c0] : !pto.tile<4x64xi16, vec> -> !pto.tensor<4x64xi16>
  return
}
