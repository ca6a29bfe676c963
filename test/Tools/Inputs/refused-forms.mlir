// An op no pattern takes (the orchestration's pto.tensor.matmul) and ops a
// pattern refuses in their form (a row prefix sum of rows that do not turn
// into whole blocks, a float remainder); the exp of the prefix sums is not
// reported: it only uses what a refused op made.
func.func @forms(%f: !pto.tensor<16x32xf32>, %g: !pto.tensor<4x32xf32>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %u = pto.tile.load %f[%c0, %c0] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec>
  %w = pto.tile.load %f[%c0, %c0] : !pto.tensor<16x32xf32> -> !pto.tile<4x32xf32, vec>
  %s = pto.tile.row_cumsum %w : !pto.tile<4x32xf32, vec>
  %e = pto.tile.exp %s : !pto.tile<4x32xf32, vec>
  %r = pto.tile.rem %u, %u : !pto.tile<16x32xf32, vec>, !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec>
  pto.tile.store %e, %g[%c0, %c0] : !pto.tile<4x32xf32, vec> -> !pto.tensor<4x32xf32>
  return
}

func.func @host(%f: !pto.tensor<16x32xf32>, %g: !pto.tensor<4x32xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  %x = pto.tensor.matmul %f, %f {b_trans} : !pto.tensor<16x32xf32>, !pto.tensor<16x32xf32> -> !pto.tensor<16x16xf32>
  func.call @forms(%f, %g) : (!pto.tensor<16x32xf32>, !pto.tensor<4x32xf32>) -> ()
  return
}
