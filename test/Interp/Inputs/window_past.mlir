// A window of 4 rows 40 elements apart at element 100 of a 200-element
// tensor ends past it (element 260).
func.func @past(%g: !ascendc.global_tensor<200xf32>) {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c40 = arith.constant 40 : index
  %c100 = arith.constant 100 : index
  %t = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<32xf32>
  %v = ascendc.global_tensor.subindex %g[%c100] : <200xf32> to <200xf32>
  ascendc.data_copy %t, %v window [%c4, %c8] strides [%c40, %c8] : !ascendc.local_tensor<32xf32>, !ascendc.global_tensor<200xf32>
  return
}
