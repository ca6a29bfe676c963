// RMSNorm over the last dimension of an M x 256 f32 matrix, 8 rows per tile:
//
//   y[i, :] = x[i, :] * rsqrt(mean_j x[i, j]^2 + eps) * gamma
//
// gamma is a 1 x 256 row broadcast down the columns.

// One 8-row tile.
func.func @rmsnorm_tile(%x: !pto.tensor<?x256xf32>, %gamma: !pto.tensor<1x256xf32>,
                        %y: !pto.tensor<?x256xf32>, %row: index, %rows: index)
    -> !pto.tensor<?x256xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %inv_n = arith.constant 3.906250e-03 : f32  // 1 / 256
  %eps = arith.constant 1.000000e-06 : f32
  %t = pto.tile.load %x[%row, %c0] valid [%rows, %c256]
      : !pto.tensor<?x256xf32> -> !pto.tile<8x256xf32, vec>
  %g = pto.tile.load %gamma[%c0, %c0]
      : !pto.tensor<1x256xf32> -> !pto.tile<1x256xf32, vec>
  %sq = pto.tile.mul %t, %t : !pto.tile<8x256xf32, vec>
  %ss = pto.tile.row_sum %sq : !pto.tile<8x256xf32, vec> -> !pto.tile<8x1xf32, vec>
  %ms = pto.tile.muls %ss, %inv_n : !pto.tile<8x1xf32, vec>, f32
  %var = pto.tile.adds %ms, %eps : !pto.tile<8x1xf32, vec>, f32
  %r = pto.tile.rsqrt %var : !pto.tile<8x1xf32, vec>
  %n = pto.tile.row_expand_mul %t, %r
      : !pto.tile<8x256xf32, vec>, !pto.tile<8x1xf32, vec>
  %scaled = pto.tile.col_expand_mul %n, %g
      : !pto.tile<8x256xf32, vec>, !pto.tile<1x256xf32, vec>
  %out = pto.tile.store %scaled, %y[%row, %c0]
      : !pto.tile<8x256xf32, vec> -> !pto.tensor<?x256xf32>
  return %out : !pto.tensor<?x256xf32>
}

func.func @rmsnorm(%x: !pto.tensor<?x256xf32>, %gamma: !pto.tensor<1x256xf32>,
                   %y: !pto.tensor<?x256xf32>) -> !pto.tensor<?x256xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x256xf32>
  %result = scf.for %row = %c0 to %m step %c8
      iter_args(%out = %y) -> (!pto.tensor<?x256xf32>) {
    %left = arith.subi %m, %row : index
    %rows = arith.minui %left, %c8 : index
    %next = func.call @rmsnorm_tile(%x, %gamma, %out, %row, %rows)
        : (!pto.tensor<?x256xf32>, !pto.tensor<1x256xf32>, !pto.tensor<?x256xf32>,
           index, index) -> !pto.tensor<?x256xf32>
    scf.yield %next : !pto.tensor<?x256xf32>
  }
  return %result : !pto.tensor<?x256xf32>
}
