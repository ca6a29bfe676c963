// Ragged tiles padded past their valid rows and columns: f32 rows of one
// repeat (64 lanes, the low mask word), f16 rows of one repeat (128 lanes,
// both words), f32 rows of one 32-byte block and f16 rows of two, padded
// with the minimum, the maximum and zero; a row fold reads the padding. f32
// rows of two repeats (128 lanes): one masked duplicate a repeat, under a
// check that the valid columns leave it a lane. A row sum of the valid
// columns alone (a run-time count, none included: zeros).
func.func @pad(%a: !pto.tensor<16x64xf32>, %b: !pto.tensor<16x128xf16>,
               %d: !pto.tensor<8x8xf32>, %e: !pto.tensor<16x32xf16>,
               %m: !pto.tensor<16x1xf32>, %r: index, %c: index,
               %cb: index, %rd: index, %cd: index,
               %w: !pto.tensor<16x128xf32>, %n: !pto.tensor<16x1xf32>) -> !pto.tensor<16x1xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %ta = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %va = pto.tile.set_validshape %ta[%r, %c] : !pto.tile<16x64xf32, vec>
  %pa = pto.tile.fillpad %va, min : !pto.tile<16x64xf32, vec>
  %ma = pto.tile.row_max %pa : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %na = pto.tile.row_sum %va : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %sn = pto.tile.store %na, %n[%c0, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<16x1xf32>
  %sa = pto.tile.store %pa, %a[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>

  %tb = pto.tile.load %b[%c0, %c0] valid [%r, %cb] : !pto.tensor<16x128xf16> -> !pto.tile<16x128xf16, vec>
  %pb = pto.tile.fillpad %tb, max : !pto.tile<16x128xf16, vec>
  %sb = pto.tile.store %pb, %b[%c0, %c0] : !pto.tile<16x128xf16, vec> -> !pto.tensor<16x128xf16>

  %td = pto.tile.load %d[%c0, %c0] valid [%rd, %cd] : !pto.tensor<8x8xf32> -> !pto.tile<8x8xf32, vec>
  %pd = pto.tile.fillpad %td, max : !pto.tile<8x8xf32, vec>
  %sd = pto.tile.store %pd, %d[%c0, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<8x8xf32>

  %te = pto.tile.load %e[%c0, %c0] valid [%r, %cd] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, vec>
  %pe = pto.tile.fillpad %te, zero : !pto.tile<16x32xf16, vec>
  %se = pto.tile.store %pe, %e[%c0, %c0] : !pto.tile<16x32xf16, vec> -> !pto.tensor<16x32xf16>

  %tw = pto.tile.load %w[%c0, %c0] valid [%r, %cb] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
  %pw = pto.tile.fillpad %tw, min : !pto.tile<16x128xf32, vec>
  %sw = pto.tile.store %pw, %w[%c0, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<16x128xf32>

  %sm = pto.tile.store %ma, %m[%c0, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<16x1xf32>
  return %sm : !pto.tensor<16x1xf32>
}
