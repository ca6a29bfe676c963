// Element reads and writes of GM in a kernel: an f32 read at a constant
// index, doubled and written at a run-time one; an f16 read back from a
// tensor a tile store just wrote and written beside it (the DMA orders
// them); an i64 kept exact. A function without a kind runs as a kernel.
func.func @elements(%src: !pto.tensor<4x10xf32>, %i: index, %out: !pto.tensor<40xf32>,
                    %h: !pto.tensor<3x16xf16>, %big: !pto.tensor<2xi64>)
    {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %v = pto.tensor.read %src[%c2, %c7] : !pto.tensor<4x10xf32>
  %d = arith.addf %v, %v : f32
  %o = pto.tensor.write %d, %out[%i] : !pto.tensor<40xf32>
  %one = arith.constant 1.0 : f16
  %t = pto.tile.full %one : f16 -> !pto.tile<3x16xf16, vec>
  %s = pto.tile.store %t, %h[%c0, %c0] : !pto.tile<3x16xf16, vec> -> !pto.tensor<3x16xf16>
  %x = pto.tensor.read %s[%c1, %c2] : !pto.tensor<3x16xf16>
  %y = arith.addf %x, %x : f16
  %w = pto.tensor.write %y, %s[%c2, %c7] : !pto.tensor<3x16xf16>
  %b = pto.tensor.read %big[%c0] : !pto.tensor<2xi64>
  %b1 = arith.addi %b, %b : i64
  %bw = pto.tensor.write %b1, %big[%c1] : !pto.tensor<2xi64>
  return
}
