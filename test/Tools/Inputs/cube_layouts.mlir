// AscendC cube kernels whose loads take every fractal path of the C++:
// A and B as they are (with k ragged inside its tile), B transposed by its
// load (L1 holds N x K), A transposed by its load (L1 holds K x M).

// C (16x16) = A (16x20) x B (20x16): the 16x32 and 32x16 tiles hold 20
// valid columns and rows.
func.func @ragged_k(%a: !ascendc.global_tensor<16x20xf16>,
                    %b: !ascendc.global_tensor<20x16xf16>,
                    %c: !ascendc.global_tensor<16x16xf32>) {
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %c32 = arith.constant 32 : index
  %al1 = ascendc.local_tensor a1 addr 0 size 1024 : !ascendc.local_tensor<16x32xf16>
  ascendc.data_copy %al1, %a window [%c16, %c20] strides [%c20, %c32] : !ascendc.local_tensor<16x32xf16>, !ascendc.global_tensor<16x20xf16>
  %bl1 = ascendc.local_tensor b1 addr 1024 size 1024 : !ascendc.local_tensor<32x16xf16>
  ascendc.data_copy %bl1, %b window [%c20, %c16] strides [%c16, %c16] : !ascendc.local_tensor<32x16xf16>, !ascendc.global_tensor<20x16xf16>
  ascendc.set_flag mte2 -> mte1, event 0
  ascendc.wait_flag mte2 -> mte1, event 0
  %a2 = ascendc.local_tensor a2 addr 0 size 1024 : !ascendc.local_tensor<16x32xf16>
  ascendc.load_data %a2, %al1 : !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<16x32xf16>
  %b2 = ascendc.local_tensor b2 addr 0 size 1024 : !ascendc.local_tensor<32x16xf16>
  ascendc.load_data %b2, %bl1 : !ascendc.local_tensor<32x16xf16>, !ascendc.local_tensor<32x16xf16>
  ascendc.set_flag mte1 -> m, event 0
  ascendc.wait_flag mte1 -> m, event 0
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  ascendc.mmad %acc, %a2, %b2 m %c16 n %c16 k %c20 : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<32x16xf16>
  ascendc.set_flag m -> fix, event 0
  ascendc.wait_flag m -> fix, event 0
  ascendc.fixpipe %c, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  return
}

// C (16x48) = A (16x32) x Bt^T, Bt (48x32) in GM and in L1.
func.func @b_transposed(%a: !ascendc.global_tensor<16x32xf16>,
                        %bt: !ascendc.global_tensor<48x32xf16>,
                        %c: !ascendc.global_tensor<16x48xf32>) {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %al1 = ascendc.local_tensor a1 addr 0 size 1024 : !ascendc.local_tensor<16x32xf16>
  ascendc.data_copy %al1, %a : !ascendc.local_tensor<16x32xf16>, !ascendc.global_tensor<16x32xf16>
  %bl1 = ascendc.local_tensor b1 addr 1024 size 3072 : !ascendc.local_tensor<48x32xf16>
  ascendc.data_copy %bl1, %bt : !ascendc.local_tensor<48x32xf16>, !ascendc.global_tensor<48x32xf16>
  ascendc.set_flag mte2 -> mte1, event 0
  ascendc.wait_flag mte2 -> mte1, event 0
  %a2 = ascendc.local_tensor a2 addr 0 size 1024 : !ascendc.local_tensor<16x32xf16>
  ascendc.load_data %a2, %al1 : !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<16x32xf16>
  %b2 = ascendc.local_tensor b2 addr 0 size 3072 : !ascendc.local_tensor<32x48xf16>
  ascendc.load_data %b2, %bl1 transpose : !ascendc.local_tensor<32x48xf16>, !ascendc.local_tensor<48x32xf16>
  ascendc.set_flag mte1 -> m, event 0
  ascendc.wait_flag mte1 -> m, event 0
  %acc = ascendc.local_tensor co1 addr 0 size 3072 : !ascendc.local_tensor<16x48xf32>
  ascendc.mmad %acc, %a2, %b2 m %c16 n %c48 k %c32 : !ascendc.local_tensor<16x48xf32>, !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<32x48xf16>
  ascendc.set_flag m -> fix, event 0
  ascendc.wait_flag m -> fix, event 0
  ascendc.fixpipe %c, %acc : !ascendc.global_tensor<16x48xf32>, !ascendc.local_tensor<16x48xf32>
  return
}

// C (32x16) = At^T x B, At (16x32: K x M) in GM and in L1, B (16x16).
func.func @a_transposed(%at: !ascendc.global_tensor<16x32xf16>,
                        %b: !ascendc.global_tensor<16x16xf16>,
                        %c: !ascendc.global_tensor<32x16xf32>) {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %al1 = ascendc.local_tensor a1 addr 0 size 1024 : !ascendc.local_tensor<16x32xf16>
  ascendc.data_copy %al1, %at : !ascendc.local_tensor<16x32xf16>, !ascendc.global_tensor<16x32xf16>
  %bl1 = ascendc.local_tensor b1 addr 1024 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.data_copy %bl1, %b : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
  ascendc.set_flag mte2 -> mte1, event 0
  ascendc.wait_flag mte2 -> mte1, event 0
  %a2 = ascendc.local_tensor a2 addr 0 size 1024 : !ascendc.local_tensor<32x16xf16>
  ascendc.load_data %a2, %al1 transpose : !ascendc.local_tensor<32x16xf16>, !ascendc.local_tensor<16x32xf16>
  %b2 = ascendc.local_tensor b2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.load_data %b2, %bl1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  ascendc.set_flag mte1 -> m, event 0
  ascendc.wait_flag mte1 -> m, event 0
  %acc = ascendc.local_tensor co1 addr 0 size 2048 : !ascendc.local_tensor<32x16xf32>
  ascendc.mmad %acc, %a2, %b2 m %c32 n %c16 k %c16 : !ascendc.local_tensor<32x16xf32>, !ascendc.local_tensor<32x16xf16>, !ascendc.local_tensor<16x16xf16>
  ascendc.set_flag m -> fix, event 0
  ascendc.wait_flag m -> fix, event 0
  ascendc.fixpipe %c, %acc : !ascendc.global_tensor<32x16xf32>, !ascendc.local_tensor<32x16xf32>
  return
}
