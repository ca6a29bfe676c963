// A slice that may reach past its source's edge, passed to a kernel: the
// executor runs it (the kernel's load clamps to the slice's valid
// region), compile refuses it, sim times the kernel and warns.
func.func @k(%t: !pto.tensor<16x64xf32>, %y: !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %t[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %o = pto.tile.store %a, %y[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  return %o : !pto.tensor<16x64xf32>
}
func.func @main(%x: !pto.tensor<40x64xf32>, %y: !pto.tensor<16x64xf32>, %n: index) -> !pto.tensor<16x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %s = pto.tensor.slice %x[%n, %c0] : !pto.tensor<40x64xf32> -> !pto.tensor<16x64xf32>
  %r = func.call @k(%s, %y) : (!pto.tensor<16x64xf32>, !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
  return %r : !pto.tensor<16x64xf32>
}
