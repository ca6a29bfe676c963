// Two functions with bodies and no orchestration: --entry must choose.
func.func @copy(%x: !pto.tensor<2x4xf32>, %y: !pto.tensor<2x4xf32>) -> !pto.tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<2x4xf32> -> !pto.tile<2x4xf32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<2x4xf32>
  return %o : !pto.tensor<2x4xf32>
}

func.func @fail(%x: !pto.tensor<2x4xf32>, %y: !pto.tensor<2x4xf32>) -> !pto.tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = pto.tile.load %x[%c2, %c0] : !pto.tensor<2x4xf32> -> !pto.tile<2x4xf32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<2x4xf32>
  return %o : !pto.tensor<2x4xf32>
}
