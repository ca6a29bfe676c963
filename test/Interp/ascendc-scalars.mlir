// A vector op's scalar is converted to the elements' kind as the tile ops
// convert it: for floats rounded (an infinity stays one), for integers
// truncated and saturated, NaN to 0. (fuzz-verify-each found the float
// path converting an infinite scalar to an integer it never used.)
// RUN: tilekit run %s --entry float_inf --input x=rand:8:f32 --input y=zeros:8:f32 --print y | FileCheck %s --check-prefix=FLOAT
// RUN: tilekit run %s --entry int_huge --input y=zeros:8:i32 --print y | FileCheck %s --check-prefix=INT
// FLOAT: y: f32 [8]
// FLOAT-NEXT: [-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf]
// INT: y: i32 [8]
// INT-NEXT: [2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647]

func.func @float_inf(%x: !ascendc.global_tensor<8xf32>, %y: !ascendc.global_tensor<8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<8xf32>
  %b = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<8xf32>
  ascendc.data_copy %a, %x : !ascendc.local_tensor<8xf32>, !ascendc.global_tensor<8xf32>
  ascendc.pipe_barrier all
  ascendc.mins_l2 %b, %a, %ninf : !ascendc.local_tensor<8xf32>, !ascendc.local_tensor<8xf32>, f32
  ascendc.pipe_barrier all
  ascendc.data_copy %y, %b : !ascendc.global_tensor<8xf32>, !ascendc.local_tensor<8xf32>
  return
}

// 1e10 saturates to the i32 maximum before it is added to zeros.
func.func @int_huge(%y: !ascendc.global_tensor<8xi32>) {
  %zero = arith.constant 0 : i32
  %huge = arith.constant 1.0e10 : f32
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8xi32>
  %b = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<8xi32>
  ascendc.duplicate_l2 %a, %zero : !ascendc.local_tensor<8xi32>, i32
  ascendc.pipe_barrier all
  ascendc.adds_l2 %b, %a, %huge : !ascendc.local_tensor<8xi32>, !ascendc.local_tensor<8xi32>, f32
  ascendc.pipe_barrier all
  ascendc.data_copy %y, %b : !ascendc.global_tensor<8xi32>, !ascendc.local_tensor<8xi32>
  return
}
