// A cube-only kernel (no core groups after promote-cv-block): the fixpipe
// writes GM on FIX, then MTE2 reads it back; the pipeline's FIX -> MTE2
// flags order them on the cube (a found case: the executor once applied
// flags outside groups to the vector core).
module attributes {ascendc.arch = "c220"} {
  func.func @cube_only(%y: !ascendc.global_tensor<16x16xf32>) {
    %c16 = arith.constant 16 : index
    ascendc.if_aic {
      %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
      %l1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf32>
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
      ascendc.data_copy %l1, %y : !ascendc.local_tensor<16x16xf32>, !ascendc.global_tensor<16x16xf32>
    }
    return
  }
}
