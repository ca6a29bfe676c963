// Vector instructions whose counts are not whole repeats: a count known
// only at run time (%n) on exp and a widening cast, a constant 100 (64 and
// a tail of 36) on adds. -ascendc-lower-to-l0 turns each into full repeats
// and a tail instruction on views after them.
module attributes {ascendc.arch = "c220"} {
  func.func @counted(%x: !ascendc.global_tensor<1024xf32>, %h: !ascendc.global_tensor<1024xf16>,
                     %y: !ascendc.global_tensor<1024xf32>, %z: !ascendc.global_tensor<1024xf32>, %n: index) {
    %c100 = arith.constant 100 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %in = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<1024xf32>
    %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1024xf32>
    %hin = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<1024xf16>
    %w = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<1024xf32>
    ascendc.data_copy %in, %x : !ascendc.local_tensor<1024xf32>, !ascendc.global_tensor<1024xf32>
    ascendc.data_copy %hin, %h : !ascendc.local_tensor<1024xf16>, !ascendc.global_tensor<1024xf16>
    ascendc.duplicate_l2 %t, %zero : !ascendc.local_tensor<1024xf32>, f32
    ascendc.exp_l2 %t, %in, %n : !ascendc.local_tensor<1024xf32>, !ascendc.local_tensor<1024xf32>
    ascendc.adds_l2 %t, %t, %one, %c100 : !ascendc.local_tensor<1024xf32>, !ascendc.local_tensor<1024xf32>, f32
    ascendc.data_copy %y, %t : !ascendc.global_tensor<1024xf32>, !ascendc.local_tensor<1024xf32>
    ascendc.duplicate_l2 %w, %zero : !ascendc.local_tensor<1024xf32>, f32
    ascendc.cast_l2 %w, %hin, none, %n : !ascendc.local_tensor<1024xf32>, !ascendc.local_tensor<1024xf16>
    ascendc.data_copy %z, %w : !ascendc.global_tensor<1024xf32>, !ascendc.local_tensor<1024xf32>
    return
  }
}
