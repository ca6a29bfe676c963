// A vector instruction on i1 tensors (a byte each): the C++ emission
// divided by the element's whole bytes, 0 for i1 (a fuzzer's input).
func.func @relu_i1() {
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xi1>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xi1>
  ascendc.relu_l0 %b, %a : !ascendc.local_tensor<333xi1>, !ascendc.local_tensor<333xi1>
  return
}
