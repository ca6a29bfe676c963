// A kernel with an op no trace-producer rule takes (producer-rules.test):
// a placeholder tensor, which ascendc-dispatch-alloc plans away before a
// compiled kernel is timed (every op of a planned kernel has a rule:
// unittests/OpCoverageTest.cpp).
module attributes {ascendc.arch = "c220"} {
  func.func @k(%n: index) {
    %t = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<64xf32>
    ascendc.duplicate_l2 %t, %n : !ascendc.local_tensor<64xf32>, index
    return
  }
}
