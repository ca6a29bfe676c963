// Two kernels, each moving data on a path only one machine has: an L1 ->
// GM copy (A2/A3, C220) and an L0C -> UB fixpipe (950, C310). Each
// pipeline refuses the other's. For compile-runtime-tests.test.
func.func @l1_gm(%y: !ascendc.global_tensor<16x16xf32>) {
  %l1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf32>
  ascendc.data_copy %y, %l1 : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  return
}

func.func @l0c_ub(%y: !ascendc.global_tensor<256xf32>) {
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<16x16xf32>
  ascendc.fixpipe %ub, %acc : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  return
}
