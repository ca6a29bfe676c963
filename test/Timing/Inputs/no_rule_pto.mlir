// A PTO kernel with an op no trace-producer rule takes (producer-rules.test).
func.func @main(%w: !pto.tensor<128x64xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  %c = pto.tensor.cast %w round rint : !pto.tensor<128x64xf32> -> !pto.tensor<128x64xf16>
  return
}
