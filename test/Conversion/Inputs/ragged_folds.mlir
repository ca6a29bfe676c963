// Row folds of tiles whose valid columns are fewer than their own: the
// band's rows clamp at the tensor's end (a run-time count), its columns at
// the tensor's width. f32 rows of 50 in tiles of 64 (copied into rows of
// 56 first), f16 rows of 21 in tiles of 32 (already whole blocks; a sum the
// API takes in f32 only is widened, then copied into rows of 24), rows of 3
// in tiles of 8 (already whole blocks), and f32 rows of a tensor whose width
// is known at run time only (70 in tiles of 128: copied into rows of 72, a
// pitch the kernel computes).
func.func @ragged_folds(%x: !pto.tensor<?x50xf32>, %h: !pto.tensor<?x21xf16>,
                        %q: !pto.tensor<?x3xf32>,
                        %sx: !pto.tensor<?x1xf32>, %mx: !pto.tensor<?x1xf32>,
                        %nx: !pto.tensor<?x1xf32>, %sh: !pto.tensor<?x1xf16>,
                        %mh: !pto.tensor<?x1xf16>, %pq: !pto.tensor<?x1xf32>,
                        %y: !pto.tensor<?x?xf32>, %sy: !pto.tensor<?x1xf32>,
                        %my: !pto.tensor<?x1xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = pto.tensor.dim %x, 0 : !pto.tensor<?x50xf32>
  scf.for %b = %c0 to %n step %c16 {
    %t = pto.tile.load %x[%b, %c0] : !pto.tensor<?x50xf32> -> !pto.tile<16x64xf32, vec>
    %s = pto.tile.row_sum %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
    %m = pto.tile.row_max %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
    %mn = pto.tile.row_min %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
    %1 = pto.tile.store %s, %sx[%b, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<?x1xf32>
    %2 = pto.tile.store %m, %mx[%b, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<?x1xf32>
    %3 = pto.tile.store %mn, %nx[%b, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<?x1xf32>
    %th = pto.tile.load %h[%b, %c0] : !pto.tensor<?x21xf16> -> !pto.tile<16x32xf16, vec>
    %hs = pto.tile.row_sum %th : !pto.tile<16x32xf16, vec> -> !pto.tile<16x1xf16, vec>
    %hm = pto.tile.row_max %th : !pto.tile<16x32xf16, vec> -> !pto.tile<16x1xf16, vec>
    %4 = pto.tile.store %hs, %sh[%b, %c0] : !pto.tile<16x1xf16, vec> -> !pto.tensor<?x1xf16>
    %5 = pto.tile.store %hm, %mh[%b, %c0] : !pto.tile<16x1xf16, vec> -> !pto.tensor<?x1xf16>
    %tq = pto.tile.load %q[%b, %c0] : !pto.tensor<?x3xf32> -> !pto.tile<16x8xf32, vec>
    %p = pto.tile.row_prod %tq : !pto.tile<16x8xf32, vec> -> !pto.tile<16x1xf32, vec>
    %6 = pto.tile.store %p, %pq[%b, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<?x1xf32>
    %ty = pto.tile.load %y[%b, %c0] : !pto.tensor<?x?xf32> -> !pto.tile<16x128xf32, vec>
    %ys = pto.tile.row_sum %ty : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
    %ym = pto.tile.row_max %ty : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
    %7 = pto.tile.store %ys, %sy[%b, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<?x1xf32>
    %8 = pto.tile.store %ym, %my[%b, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<?x1xf32>
  }
  return
}
