// An L0 instruction whose repeat count, known only at run time, is past
// 255: Ascend C's repeatTimes is a uint8_t, so the executor stops at the op
// rather than run what the machine would not (ascendc-vector.test).
module attributes {ascendc.arch = "c220"} {
  func.func @k(%x: !ascendc.global_tensor<16448xf32>, %y: !ascendc.global_tensor<16448xf32>, %r: index) {
    %c64 = arith.constant 64 : index
    %in = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16448xf32>
    ascendc.data_copy %in, %x : !ascendc.local_tensor<16448xf32>, !ascendc.global_tensor<16448xf32>
    ascendc.exp_l0 %in, %in mask %c64 repeat %r : !ascendc.local_tensor<16448xf32>, !ascendc.local_tensor<16448xf32>
    ascendc.data_copy %y, %in : !ascendc.global_tensor<16448xf32>, !ascendc.local_tensor<16448xf32>
    return
  }
}
