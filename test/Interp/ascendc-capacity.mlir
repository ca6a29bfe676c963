// A local tensor lies in its buffer: the executor refuses one past the
// buffer's end on every described machine (its byte pools grow only that
// far), planned or not.
// RUN: not tilekit run %s --entry planned 2>&1 | FileCheck %s --check-prefix=PLANNED
// RUN: not tilekit run %s --entry placeholder 2>&1 | FileCheck %s --check-prefix=PLACEHOLDER
// RUN: not tilekit run %s --entry strides --input n=255 --input m=64 2>&1 | FileCheck %s --check-prefix=STRIDES
// STRIDES: error: 'ascendc.sub_l0' op reaches past the 253952 bytes of ub with repeat 255 and strides [2, 255] (in 32-byte blocks) on operand 0
// PLANNED: ascendc-capacity.mlir:[[@LINE+4]]:8: error: 'ascendc.local_tensor' op occupies bytes [2147483647, 2147487743) of l0c, past the 262144 bytes it has on any machine
// PLACEHOLDER: ascendc-capacity.mlir:[[@LINE+8]]:8: error: 'ascendc.local_tensor_auto' op occupies bytes [0, 4000000) of ub, past the 253952 bytes it has on any machine

func.func @planned() {
  %t = ascendc.local_tensor co1 addr 2147483647 size 4096 : !ascendc.local_tensor<31x31xf32>
  return
}

func.func @placeholder() {
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1000000xf32>
  return
}

// An L0 instruction's strides may not carry its lanes past the buffer.
func.func @strides(%n: index, %m: index) {
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf32>
  ascendc.sub_l0 %x, %x, %x mask %m repeat %n strides [2, 2, 2, 255, 255, 255] : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf32>
  return
}

// A view at a run-time offset stays inside its tensor: 8 elements from
// element 12 of a 16-element tensor would read past it.
// RUN: not tilekit run %s --entry view --input off=12 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: tilekit run %s --entry view --input off=8
// VIEW: ascendc-capacity.mlir:[[@LINE+4]]:8: error: 'ascendc.reinterpret_cast' op views 8 elements from element 12 of a 16-element tensor
func.func @view(%off: index) {
  %one = arith.constant 1.0 : f32
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xf32>
  %v = ascendc.reinterpret_cast %t[%off] : !ascendc.local_tensor<16xf32> to !ascendc.local_tensor<8xf32>
  ascendc.duplicate_l2 %v, %one : !ascendc.local_tensor<8xf32>, f32
  return
}

// An address near the top of int64 is refused, not added past it (a
// fuzzer's input).
// RUN: not tilekit run %s --entry top 2>&1 | FileCheck %s --check-prefix=TOP
// TOP: ascendc-capacity.mlir:[[@LINE+2]]:8: error: 'ascendc.local_tensor' op occupies bytes [9223372036854775807, 2^63 and beyond) of ub
func.func @top() {
  %t = ascendc.local_tensor veccalc addr 9223372036854775807 size 512 : !ascendc.local_tensor<128xf32>
  return
}
