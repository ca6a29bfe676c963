// Returns its i64 tensor unchanged (test/Tools/npy-exact.test).
func.func @main(%x: !pto.tensor<3xi64>) -> !pto.tensor<3xi64>
    attributes {pto.kind = #pto.kind<orchestration>} {
  return %x : !pto.tensor<3xi64>
}
