// Two ops that do not compile to AscendC (a row fold of rows whose length
// is known at run time only, a float matmul_acc) and three that do.
func.func @host(%x: !pto.tensor<?x?xf32>, %c: !pto.tensor<32x32xf32>, %a: !pto.tensor<32x64xf16>, %b: !pto.tensor<64x32xf16>, %k: index) -> !pto.tensor<?x1xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x?xf32>
  %s = pto.tensor.row_sum %x : !pto.tensor<?x?xf32> -> !pto.tensor<?x1xf32>
  %e = pto.tensor.exp %s : !pto.tensor<?x1xf32>
  %m = pto.tensor.matmul_acc %c, %a, %b : !pto.tensor<32x32xf32>, !pto.tensor<32x64xf16>, !pto.tensor<64x32xf16> -> !pto.tensor<32x32xf32>
  return %e : !pto.tensor<?x1xf32>
}
