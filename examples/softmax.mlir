// Row-wise softmax of an M x 128 f32 matrix, 16 rows per tile.
//
//   y[i, :] = exp(x[i, :] - max_j x[i, j]) / sum_j exp(x[i, j] - max_j x[i, j])
//
// M is dynamic: the last tile's valid shape covers only the rows present, so
// the reductions ignore the zero padding below it and the store writes only
// the valid rows.

// One 16-row tile of the softmax.
func.func @softmax_tile(%x: !pto.tensor<?x128xf32>, %y: !pto.tensor<?x128xf32>,
                        %row: index, %rows: index) -> !pto.tensor<?x128xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %t = pto.tile.load %x[%row, %c0] valid [%rows, %c128]
      : !pto.tensor<?x128xf32> -> !pto.tile<16x128xf32, vec>
  %max = pto.tile.row_max %t : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  %e = pto.tile.row_expand_expdif %t, %max
      : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  %sum = pto.tile.row_sum %e : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  %p = pto.tile.row_expand_div %e, %sum
      : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  %out = pto.tile.store %p, %y[%row, %c0]
      : !pto.tile<16x128xf32, vec> -> !pto.tensor<?x128xf32>
  return %out : !pto.tensor<?x128xf32>
}

// Walks the rows in tiles of 16.
func.func @softmax(%x: !pto.tensor<?x128xf32>, %y: !pto.tensor<?x128xf32>)
    -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x128xf32>
  %result = scf.for %row = %c0 to %m step %c16
      iter_args(%out = %y) -> (!pto.tensor<?x128xf32>) {
    %left = arith.subi %m, %row : index
    %rows = arith.minui %left, %c16 : index
    %next = func.call @softmax_tile(%x, %out, %row, %rows)
        : (!pto.tensor<?x128xf32>, !pto.tensor<?x128xf32>, index, index)
        -> !pto.tensor<?x128xf32>
    scf.yield %next : !pto.tensor<?x128xf32>
  }
  return %result : !pto.tensor<?x128xf32>
}
