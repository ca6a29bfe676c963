// exp of a whole tensor in an orchestration, assembled into the output:
// two launches of kernels compile writes (pto-outline-tensor-compute).
func.func @m(%x: !pto.tensor<40x96xf32>, %y: !pto.tensor<40x96xf32>) -> !pto.tensor<40x96xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %e = pto.tensor.exp %x : !pto.tensor<40x96xf32>
  %o = pto.tensor.assemble %e into %y[%c0, %c0] : !pto.tensor<40x96xf32> into !pto.tensor<40x96xf32>
  return %o : !pto.tensor<40x96xf32>
}
