// LayerNorm of an M x 128 f16 matrix, computed in f32 and rounded back to f16:
//
//   mu  = mean_j x[i, j]
//   var = mean_j (x[i, j] - mu)^2
//   y[i, :] = (x[i, :] - mu) * rsqrt(var + eps) * gamma + beta
//
// 16 rows per tile; the last tile's valid shape covers the rows present.

func.func @layernorm_tile(%x: !pto.tensor<?x128xf16>, %gamma: !pto.tensor<1x128xf32>,
                          %beta: !pto.tensor<1x128xf32>, %y: !pto.tensor<?x128xf16>,
                          %row: index, %rows: index) -> !pto.tensor<?x128xf16>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %inv_n = arith.constant 7.812500e-03 : f32  // 1 / 128
  %eps = arith.constant 1.000000e-05 : f32
  %h = pto.tile.load %x[%row, %c0] valid [%rows, %c128]
      : !pto.tensor<?x128xf16> -> !pto.tile<16x128xf16, vec>
  %t = pto.tile.cast %h : !pto.tile<16x128xf16, vec> -> !pto.tile<16x128xf32, vec>
  %g = pto.tile.load %gamma[%c0, %c0] : !pto.tensor<1x128xf32> -> !pto.tile<1x128xf32, vec>
  %b = pto.tile.load %beta[%c0, %c0] : !pto.tensor<1x128xf32> -> !pto.tile<1x128xf32, vec>
  %sum = pto.tile.row_sum %t : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  %mu = pto.tile.muls %sum, %inv_n : !pto.tile<16x1xf32, vec>, f32
  %d = pto.tile.row_expand_sub %t, %mu : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  %d2 = pto.tile.mul %d, %d : !pto.tile<16x128xf32, vec>
  %ss = pto.tile.row_sum %d2 : !pto.tile<16x128xf32, vec> -> !pto.tile<16x1xf32, vec>
  %var = pto.tile.muls %ss, %inv_n : !pto.tile<16x1xf32, vec>, f32
  %var_eps = pto.tile.adds %var, %eps : !pto.tile<16x1xf32, vec>, f32
  %rstd = pto.tile.rsqrt %var_eps : !pto.tile<16x1xf32, vec>
  %n = pto.tile.row_expand_mul %d, %rstd : !pto.tile<16x128xf32, vec>, !pto.tile<16x1xf32, vec>
  %ng = pto.tile.col_expand_mul %n, %g : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
  %nb = pto.tile.col_expand_add %ng, %b : !pto.tile<16x128xf32, vec>, !pto.tile<1x128xf32, vec>
  %o = pto.tile.cast %nb round rint : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf16, vec>
  %out = pto.tile.store %o, %y[%row, %c0] : !pto.tile<16x128xf16, vec> -> !pto.tensor<?x128xf16>
  return %out : !pto.tensor<?x128xf16>
}

func.func @layernorm(%x: !pto.tensor<?x128xf16>, %gamma: !pto.tensor<1x128xf32>,
                     %beta: !pto.tensor<1x128xf32>, %y: !pto.tensor<?x128xf16>)
    -> !pto.tensor<?x128xf16> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x128xf16>
  %result = scf.for %row = %c0 to %m step %c16
      iter_args(%out = %y) -> (!pto.tensor<?x128xf16>) {
    %left = arith.subi %m, %row : index
    %rows = arith.minui %left, %c16 : index
    %next = func.call @layernorm_tile(%x, %gamma, %beta, %out, %row, %rows)
        : (!pto.tensor<?x128xf16>, !pto.tensor<1x128xf32>, !pto.tensor<1x128xf32>,
           !pto.tensor<?x128xf16>, index, index) -> !pto.tensor<?x128xf16>
    scf.yield %next : !pto.tensor<?x128xf16>
  }
  return %result : !pto.tensor<?x128xf16>
}
