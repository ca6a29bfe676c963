// Folds of a tile whose valid rows are known only at run time, possibly
// none: the row maxima and the column sums of the first %n rows.
func.func @row_max(%x: !pto.tensor<8x64xf32>, %y: !pto.tensor<8x1xf32>, %n: index) -> !pto.tensor<8x1xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%n, %c64] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %m = pto.tile.row_max %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>
  %o = pto.tile.store %m, %y[%c0, %c0] : !pto.tile<8x1xf32, vec> -> !pto.tensor<8x1xf32>
  return %o : !pto.tensor<8x1xf32>
}

func.func @col_sum(%x: !pto.tensor<8x64xf32>, %y: !pto.tensor<1x64xf32>, %n: index) -> !pto.tensor<1x64xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%n, %c64] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %s = pto.tile.col_sum %t : !pto.tile<8x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<1x64xf32, vec> -> !pto.tensor<1x64xf32>
  return %o : !pto.tensor<1x64xf32>
}
