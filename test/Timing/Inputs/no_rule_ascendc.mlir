// A compiled kernel with an instruction no trace-producer rule takes
// (producer-rules.test).
module attributes {ascendc.arch = "c220"} {
  func.func @k(%n: index) {
    %t = ascendc.local_tensor vecin addr 0 size 256 : <64xf32>
    ascendc.printf "n = %d\n", %n : index
    return
  }
}
