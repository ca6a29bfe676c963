// A kernel (a function of no kind with tile ops) that reads an element of
// GM directly (tensor_read.mlir reads on
// the host): refused, saying how a kernel reads it.
func.func @k(%x: !pto.tensor<16x64xf32>, %y: !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %s = pto.tensor.read %x[%c0, %c0] : !pto.tensor<16x64xf32>
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %m = pto.tile.muls %t, %s : !pto.tile<16x64xf32, vec>, f32
  %o = pto.tile.store %m, %y[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  return %o : !pto.tensor<16x64xf32>
}
