// A vector -> GM -> cube transfer (for verify-sync.mlir).
module attributes {ascendc.arch = "c310"} {
  func.func @v2c(%x: !ascendc.global_tensor<16x16xf16>, %y: !ascendc.global_tensor<16x16xf32>) {
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f16
    %c16 = arith.constant 16 : index
    ascendc.if_aiv {
      %in = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<16x16xf16>
      ascendc.data_copy %in, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      %out = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<16x16xf16>
      ascendc.maxs_l2 %out, %in, %zero, %c256 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>, f16
      ascendc.data_copy %x, %out : !ascendc.global_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    }
    ascendc.if_aic {
      %l1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
      ascendc.data_copy %l1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      %r1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
      ascendc.data_copy %r1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
      %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
      ascendc.load_data %a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.load_data %b, %r1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
      ascendc.mmad %acc, %a, %b m %c16 n %c16 k %c16 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    return
  }
}
