// Two ops that do not compile to AscendC and two that do.
func.func @host(%x: !pto.tensor<8x32xf32>, %y: !pto.tensor<8x32xf32>) -> !pto.tensor<8x32xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<8x32xf32>
  %e = pto.tensor.exp %x : !pto.tensor<8x32xf32>
  %flat = pto.tensor.view %e : !pto.tensor<8x32xf32> -> !pto.tensor<256xf32>
  %s = pto.tensor.add %e, %y : !pto.tensor<8x32xf32>
  return %s : !pto.tensor<8x32xf32>
}
