// A PTO kernel with an op no trace-producer rule takes (producer-rules.test):
// a matmul of whole tensors with a transposed operand, which compile writes
// no kernel for.
func.func @main(%w: !pto.tensor<128x64xf32>, %v: !pto.tensor<32x64xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  %m = pto.tensor.matmul %w, %v {b_trans} : !pto.tensor<128x64xf32>, !pto.tensor<32x64xf32> -> !pto.tensor<128x32xf32>
  return
}
