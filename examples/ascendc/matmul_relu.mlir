// A cube matmul with bias whose result the vector core rectifies, at the
// AscendC level before memory planning: every local tensor is a
// placeholder at a position; the L1 tensors all start at a1.
//
//   tilekit-opt examples/ascendc/matmul_relu.mlir -ascendc-refine-cube-position \
//     -ascendc-reuse-ub-allocation -ascendc-allocate-tensor \
//     -ascendc-unify-bias-tensor -ascendc-compute-memory-consumption=check-capacity=true
module attributes {ascendc.arch = "c220"} {
  func.func @matmul_relu(%x: !ascendc.global_tensor<64x128xf16>,
                         %w: !ascendc.global_tensor<128x64xf16>,
                         %bias: !ascendc.global_tensor<64xf32>,
                         %y: !ascendc.global_tensor<64x64xf32>) {
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %zero = arith.constant 0.0 : f32
    ascendc.if_aic {
      %xl1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<64x128xf16>
      %wl1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<128x64xf16>
      %bl1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<64xf32>
      ascendc.data_copy %xl1, %x : !ascendc.local_tensor<64x128xf16>, !ascendc.global_tensor<64x128xf16>
      ascendc.data_copy %wl1, %w : !ascendc.local_tensor<128x64xf16>, !ascendc.global_tensor<128x64xf16>
      ascendc.data_copy %bl1, %bias : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
      %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<64x128xf16>
      %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<128x64xf16>
      %bt = ascendc.local_tensor_auto c2 : !ascendc.local_tensor<64xf32>
      ascendc.load_data %a, %xl1 : !ascendc.local_tensor<64x128xf16>, !ascendc.local_tensor<64x128xf16>
      ascendc.load_data %b, %wl1 : !ascendc.local_tensor<128x64xf16>, !ascendc.local_tensor<128x64xf16>
      ascendc.data_copy %bt, %bl1 : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
      %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<64x64xf32>
      ascendc.mmad %acc, %a, %b bias %bt m %c64 n %c64 k %c128
          : !ascendc.local_tensor<64x64xf32>, !ascendc.local_tensor<64x128xf16>,
            !ascendc.local_tensor<128x64xf16>, !ascendc.local_tensor<64xf32>
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<64x64xf32>
    }
    ascendc.if_aiv {
      %in = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<64x64xf32>
      ascendc.data_copy %in, %y : !ascendc.local_tensor<64x64xf32>, !ascendc.global_tensor<64x64xf32>
      %out = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<64x64xf32>
      ascendc.maxs_l2 %out, %in, %zero, %c4096
          : !ascendc.local_tensor<64x64xf32>, !ascendc.local_tensor<64x64xf32>, f32
      ascendc.data_copy %y, %out : !ascendc.global_tensor<64x64xf32>, !ascendc.local_tensor<64x64xf32>
    }
    return
  }
}
