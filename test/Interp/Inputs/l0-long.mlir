// Vector instructions over more than 255 repeats (16448 f32: 257 repeats):
// exp of the whole tensor, then adds over a count known only at run time
// (%n). Ascend C's repeatTimes is a uint8_t, so -ascendc-lower-to-l0 gives
// each at most 255 repeats, on views from their first repeat.
module attributes {ascendc.arch = "c220"} {
  func.func @long(%x: !ascendc.global_tensor<16448xf32>, %y: !ascendc.global_tensor<16448xf32>, %n: index) {
    %one = arith.constant 1.0 : f32
    %in = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16448xf32>
    %out = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<16448xf32>
    ascendc.data_copy %in, %x : !ascendc.local_tensor<16448xf32>, !ascendc.global_tensor<16448xf32>
    ascendc.exp_l2 %out, %in : !ascendc.local_tensor<16448xf32>, !ascendc.local_tensor<16448xf32>
    ascendc.adds_l2 %out, %out, %one, %n : !ascendc.local_tensor<16448xf32>, !ascendc.local_tensor<16448xf32>, f32
    ascendc.data_copy %y, %out : !ascendc.global_tensor<16448xf32>, !ascendc.local_tensor<16448xf32>
    return
  }
}
