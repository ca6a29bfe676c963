// The orchestration's compute on a whole tensor of dynamic shape has no
// AscendC lowering: compile writes a kernel for it only when the result's
// shape is static (it needs a workspace, whose shape is).
func.func @host(%x: !pto.tensor<?x128xf32>) -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %e = pto.tensor.exp %x : !pto.tensor<?x128xf32>
  return %e : !pto.tensor<?x128xf32>
}
