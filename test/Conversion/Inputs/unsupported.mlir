// The orchestration's compute on a whole tensor has no AscendC lowering
// (the host launches kernels; it computes nothing itself).
func.func @host(%x: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %e = pto.tensor.exp %x : !pto.tensor<16x128xf32>
  return %e : !pto.tensor<16x128xf32>
}
