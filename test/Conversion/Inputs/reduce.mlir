// Folds of a ragged tile: the row sum keeps the valid rows, the column
// maximum folds only them; tensor.dim reads the dynamic extent.
func.func @reduce(%x: !pto.tensor<?x64xf32>, %s: !pto.tensor<?x1xf32>, %m: !pto.tensor<1x64xf32>) -> !pto.tensor<1x64xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %n = pto.tensor.dim %x, 0 : !pto.tensor<?x64xf32>
  %t = pto.tile.load %x[%c0, %c0] valid [%n, %c64] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  %sum = pto.tile.row_sum %t : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %max = pto.tile.col_max %t : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  %s2 = pto.tile.store %sum, %s[%c0, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<?x1xf32>
  %r = pto.tile.store %max, %m[%c0, %c0] : !pto.tile<1x64xf32, vec> -> !pto.tensor<1x64xf32>
  return %r : !pto.tensor<1x64xf32>
}
