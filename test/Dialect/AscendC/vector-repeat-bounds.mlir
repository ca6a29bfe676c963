// Vector instructions at L0 with the operands fill-asc-operands gives them
// stay inside their tensors and leave no gaps: odd element counts, f16 next
// to f32 (a cast), a compare into a bit mask, counts below one repeat and
// over many. Checked by arithmetic written from the machine's repeat rules
// (Inputs/check_vector_repeats.py), on the output of allocation plus
// operand filling, and on the whole C220 pipeline with L0 lowering.
// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-allocate-tensor,ascendc-fill-asc-operands))' | %python %S/Inputs/check_vector_repeats.py | FileCheck %s
// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-allocate-tensor,ascendc-fill-asc-operands))' | FileCheck %s --check-prefix=IR
// RUN: tilekit-opt %examples/ascendc/matmul_relu.mlir '-ascendc-c220-pipeline=lower-to-l0=true' | %python %S/Inputs/check_vector_repeats.py | FileCheck %s --check-prefix=EXAMPLE
// RUN: sed 's/"c220"/"c310"/' %examples/ascendc/matmul_relu.mlir | tilekit-opt '-ascendc-c310-pipeline=lower-to-l0=true' | %python %S/Inputs/check_vector_repeats.py | FileCheck %s --check-prefix=EXAMPLE
// EXAMPLE: ok maxs_l0 repeat 64 mask 64

// 333 f16: 128 per repeat, 3 repeats = 768 bytes; the tensor takes 768
// (the seed's 32-byte rounding gave 672, and the next tensor began there).
// IR-LABEL: func.func @odd_f16(
// IR: ascendc.local_tensor veccalc addr 0 size 768 : <333xf16>
// IR: ascendc.local_tensor veccalc addr 768 size 768 : <333xf16>
// CHECK: ok relu_l0 repeat 3 mask 128
func.func @odd_f16() {
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf16>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf16>
  ascendc.relu_l0 %b, %a : !ascendc.local_tensor<333xf16>, !ascendc.local_tensor<333xf16>
  return
}

// f16 -> f32: 64 per repeat (the f32 side's 256 bytes), so the f16 source
// advances 128 bytes (4 blocks) per repeat, not 8.
// IR-LABEL: func.func @widening_cast(
// IR: ascendc.cast_l0 {{.*}} strides [1, 1, 8, 4] : <333xf32>, <333xf16>
// CHECK: ok cast_l0 repeat 6 mask 64
func.func @widening_cast() {
  %h = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf16>
  %f = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<333xf32>
  ascendc.cast_l0 %f, %h, none : !ascendc.local_tensor<333xf32>, !ascendc.local_tensor<333xf16>
  return
}

// A compare writes a bit mask; its inputs repeat over 64 f32.
// CHECK: ok compare_l0 repeat 2 mask 64
func.func @compare() {
  %m = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xui8>
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<100xf32>
  %y = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<100xf32>
  ascendc.compare_l0 %m, %x, %y, ge : !ascendc.local_tensor<16xui8>, !ascendc.local_tensor<100xf32>, !ascendc.local_tensor<100xf32>
  return
}

// One partial repeat, and many full ones.
// CHECK: ok adds_l0 repeat 1 mask 20
// CHECK: ok add_l0 repeat 63 mask 64
func.func @sizes(%s: f32) {
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<20xf32>
  ascendc.adds_l0 %t, %t, %s : !ascendc.local_tensor<20xf32>, !ascendc.local_tensor<20xf32>, f32
  %x = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<4000xf32>
  ascendc.add_l0 %x, %x, %x : !ascendc.local_tensor<4000xf32>, !ascendc.local_tensor<4000xf32>, !ascendc.local_tensor<4000xf32>
  return
}
