// compare_l2 writes a bit mask: bit i (byte i / 8, the lowest bit first)
// is lhs[i] <mode> rhs[i]; the last byte's bits past the count are zero.
// compare_l0 is refused at the op (its per-repeat mask layout is not
// modelled).
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([1, 5, 3, 7, 2, 2, 9, 0, 4, 6], np.float32)); np.save('%t.y.npy', np.array([2, 4, 3, 8, 1, 2, 10, -1, 5, 6], np.float32))"
// RUN: tilekit run %s --entry lt --input x=%t.x.npy --input y=%t.y.npy --input z=zeros:2:ui8 --print z | FileCheck %s --check-prefix=LT
// RUN: tilekit run %s --entry eq --input x=%t.x.npy --input y=%t.y.npy --input z=zeros:2:ui8 --print z | FileCheck %s --check-prefix=EQ
// RUN: not tilekit run %s --entry low --input x=%t.x.npy --input y=%t.y.npy --input z=zeros:2:ui8 2>&1 | FileCheck %s --check-prefix=LOW
// x < y at 0, 3, 6, 8: 0b01001001 = 73, then 0b01 = 1.
// LT: z: ui8 [2]
// LT-NEXT: [73, 1]
// x == y at 2, 5, 9: 0b00100100 = 36, then 0b10 = 2.
// EQ: [36, 2]
// LOW: error: 'ascendc.compare_l0' op is not executed: the layout of its bit mask per repeat is not modelled; use compare_l2

func.func @lt(%x: !ascendc.global_tensor<10xf32>, %y: !ascendc.global_tensor<10xf32>, %z: !ascendc.global_tensor<2xui8>) {
  %c10 = arith.constant 10 : index
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16xf32>
  %b = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16xf32>
  %m = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<32xui8>
  ascendc.data_copy %a, %x, %c10 : !ascendc.local_tensor<16xf32>, !ascendc.global_tensor<10xf32>
  ascendc.data_copy %b, %y, %c10 : !ascendc.local_tensor<16xf32>, !ascendc.global_tensor<10xf32>
  ascendc.pipe_barrier all
  ascendc.compare_l2 %m, %a, %b, lt, %c10 : !ascendc.local_tensor<32xui8>, !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  ascendc.pipe_barrier all
  %c2 = arith.constant 2 : index
  ascendc.data_copy %z, %m, %c2 : !ascendc.global_tensor<2xui8>, !ascendc.local_tensor<32xui8>
  return
}

func.func @eq(%x: !ascendc.global_tensor<10xf32>, %y: !ascendc.global_tensor<10xf32>, %z: !ascendc.global_tensor<2xui8>) {
  %c10 = arith.constant 10 : index
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16xf32>
  %b = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16xf32>
  %m = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<32xui8>
  ascendc.data_copy %a, %x, %c10 : !ascendc.local_tensor<16xf32>, !ascendc.global_tensor<10xf32>
  ascendc.data_copy %b, %y, %c10 : !ascendc.local_tensor<16xf32>, !ascendc.global_tensor<10xf32>
  ascendc.pipe_barrier all
  ascendc.compare_l2 %m, %a, %b, eq, %c10 : !ascendc.local_tensor<32xui8>, !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  ascendc.pipe_barrier all
  %c2 = arith.constant 2 : index
  ascendc.data_copy %z, %m, %c2 : !ascendc.global_tensor<2xui8>, !ascendc.local_tensor<32xui8>
  return
}

func.func @low(%x: !ascendc.global_tensor<10xf32>, %y: !ascendc.global_tensor<10xf32>, %z: !ascendc.global_tensor<2xui8>) {
  %c1 = arith.constant 1 : index
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16xf32>
  %m = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<32xui8>
  ascendc.compare_l0 %m, %a, %a, lt mask %c1 repeat %c1 : !ascendc.local_tensor<32xui8>, !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  return
}
