// Three blocks of cube matmul -> GM -> vector rectify on one set of tensors
// (from benchmarks/ascendc_pipeline_scale.py): the cube writes GM y again
// while the vector core may still read the previous block's y.
func.func @scale(%x: !ascendc.global_tensor<16x16xf16>, %w: !ascendc.global_tensor<16x16xf16>, %y: !ascendc.global_tensor<16x16xf32>, %z: !ascendc.global_tensor<16x16xf32>) {
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %xl1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
    %wl1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
    %a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
    %b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
    %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
    %in = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<16x16xf32>
    %out = ascendc.local_tensor_auto vecout output : !ascendc.local_tensor<16x16xf32>
    ascendc.if_aic {
      ascendc.data_copy %xl1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.data_copy %wl1, %w : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.load_data %a, %xl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.load_data %b, %wl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.mmad %acc, %a, %b m %c16 n %c16 k %c16 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.data_copy %in, %y : !ascendc.local_tensor<16x16xf32>, !ascendc.global_tensor<16x16xf32>
      ascendc.maxs_l2 %out, %in, %zero, %c256 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>, f32
      ascendc.data_copy %z, %out : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aic {
      ascendc.data_copy %xl1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.data_copy %wl1, %w : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.load_data %a, %xl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.load_data %b, %wl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.mmad %acc, %a, %b m %c16 n %c16 k %c16 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.data_copy %in, %y : !ascendc.local_tensor<16x16xf32>, !ascendc.global_tensor<16x16xf32>
      ascendc.maxs_l2 %out, %in, %zero, %c256 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>, f32
      ascendc.data_copy %z, %out : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aic {
      ascendc.data_copy %xl1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.data_copy %wl1, %w : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
      ascendc.load_data %a, %xl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.load_data %b, %wl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.mmad %acc, %a, %b m %c16 n %c16 k %c16 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.data_copy %in, %y : !ascendc.local_tensor<16x16xf32>, !ascendc.global_tensor<16x16xf32>
      ascendc.maxs_l2 %out, %in, %zero, %c256 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>, f32
      ascendc.data_copy %z, %out : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    return
  }
