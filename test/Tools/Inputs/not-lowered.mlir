// Two ops that do not compile to AscendC (whole-tensor compute on tensors of
// dynamic shape) and three that do.
func.func @host(%x: !pto.tensor<?x32xf32>, %y: !pto.tensor<?x32xf32>) -> !pto.tensor<?x32xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x32xf32>
  %e = pto.tensor.exp %x : !pto.tensor<?x32xf32>
  %flat = pto.tensor.view %e[%rows] : !pto.tensor<?x32xf32> -> !pto.tensor<?x32xf32>
  %s = pto.tensor.add %flat, %y : !pto.tensor<?x32xf32>
  return %s : !pto.tensor<?x32xf32>
}
