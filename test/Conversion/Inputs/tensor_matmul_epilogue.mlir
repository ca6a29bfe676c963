// A matmul and its epilogue on whole tensors: y = x @ w (f16 -> f32, the
// product stored straight into y), then z = relu(y + b). The orchestration
// makes no workspace, so it becomes two launches in order: the cube
// kernel's items on a block per AI core, then the vector kernel's on two.
func.func @main(%x: !pto.tensor<50x96xf16>, %w: !pto.tensor<96x80xf16>,
                %b: !pto.tensor<50x80xf32>, %y: !pto.tensor<50x80xf32>,
                %z: !pto.tensor<50x80xf32>)
    -> (!pto.tensor<50x80xf32>, !pto.tensor<50x80xf32>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %m = pto.tensor.matmul %x, %w : !pto.tensor<50x96xf16>, !pto.tensor<96x80xf16> -> !pto.tensor<50x80xf32>
  %y1 = pto.tensor.assemble %m into %y[%c0, %c0] : !pto.tensor<50x80xf32> into !pto.tensor<50x80xf32>
  %s = pto.tensor.add %y1, %b : !pto.tensor<50x80xf32>, !pto.tensor<50x80xf32> -> !pto.tensor<50x80xf32>
  %r = pto.tensor.relu %s : !pto.tensor<50x80xf32> -> !pto.tensor<50x80xf32>
  %z1 = pto.tensor.assemble %r into %z[%c0, %c0] : !pto.tensor<50x80xf32> into !pto.tensor<50x80xf32>
  return %y1, %z1 : !pto.tensor<50x80xf32>, !pto.tensor<50x80xf32>
}
