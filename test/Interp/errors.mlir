// Runtime errors name the op and its location, and the run exits non-zero.
// RUN: not tilekit run %s --entry load_outside --input x=zeros:4x8:f32 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not tilekit run %s --entry store_past_end --input x=zeros:4x8:f32 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not tilekit run %s --entry store_far --input x=zeros:4x8:f32 --input i=9223372036854775807 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: not tilekit run %s --entry assemble_far --input i=9223372036854775807 2>&1 | FileCheck %s --check-prefix=ASSEMBLEFAR
// RUN: not tilekit run %s --entry bad_valid_shape --input n=5 2>&1 | FileCheck %s --check-prefix=VALID
// RUN: not tilekit run %s --entry slice_outside --input n=4 2>&1 | FileCheck %s --check-prefix=SLICE
// RUN: not tilekit run %s --entry assemble_past_target 2>&1 | FileCheck %s --check-prefix=ASSEMBLE
// RUN: not tilekit run %s --entry reshape_partial --input n=2 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RUN: not tilekit run %s --entry read_outside --input n=4 2>&1 | FileCheck %s --check-prefix=READ
// RUN: not tilekit run %s --entry divide_by_zero 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: tilekit run %s --entry divide_by_zero_outside_valid --input y=zeros:1x8:i32 --print y | FileCheck %s --check-prefix=DIVPAD
// RUN: not tilekit run %s --entry zero_step --input n=0 2>&1 | FileCheck %s --check-prefix=STEP
// RUN: not tilekit run %s --entry scalar_divide_by_zero --input n=0 2>&1 | FileCheck %s --check-prefix=SDIV
// RUN: not tilekit run %s --entry tensor_read_outside --input x=zeros:4x8:f32 --input i=4 2>&1 | FileCheck %s --check-prefix=TREAD
// RUN: not tilekit run %s --entry unsupported_op 2>&1 | FileCheck %s --check-prefix=NOSUPPORT
// RUN: not tilekit run %s --entry unsupported_type 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tilekit run %s --entry caller --input x=zeros:4x8:f32 2>&1 | FileCheck %s --check-prefix=CALL

// LOAD: errors.mlir:[[@LINE+4]]:8: error: 'pto.tile.load' op offset [4, 0] is outside the tensor of shape [4, 8]
func.func @load_outside(%x: !pto.tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c4, %c0] : !pto.tensor<4x8xf32> -> !pto.tile<1x8xf32, vec>
  return
}

// STORE: errors.mlir:[[@LINE+5]]:8: error: 'pto.tile.store' op writes the valid region [2, 8] at offset [3, 0], past the end of the tensor of shape [4, 8]
func.func @store_past_end(%x: !pto.tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %t = pto.tile.create : !pto.tile<2x8xf32, vec>
  %o = pto.tile.store %t, %x[%c3, %c0] : !pto.tile<2x8xf32, vec> -> !pto.tensor<4x8xf32>
  return
}

// Offsets near 2^63 are past the end, not an overflow (found by fuzz-run).
// FAR: errors.mlir:[[@LINE+4]]:8: error: 'pto.tile.store' op writes the valid region [2, 8] at offset [9223372036854775807, 0], past the end of the tensor of shape [4, 8]
func.func @store_far(%x: !pto.tensor<4x8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %t = pto.tile.create : !pto.tile<2x8xf32, vec>
  %o = pto.tile.store %t, %x[%i, %c0] : !pto.tile<2x8xf32, vec> -> !pto.tensor<4x8xf32>
  return
}

// ASSEMBLEFAR: errors.mlir:[[@LINE+5]]:8: error: 'pto.tile.assemble' op writes the valid region [2, 8] at offset [9223372036854775807, 0], past the target box [4, 8]
func.func @assemble_far(%i: index) {
  %c0 = arith.constant 0 : index
  %s = pto.tile.create : !pto.tile<2x8xf32, vec>
  %t = pto.tile.create : !pto.tile<4x8xf32, vec>
  %a = pto.tile.assemble %s into %t[%i, %c0] : !pto.tile<2x8xf32, vec> into !pto.tile<4x8xf32, vec>
  return
}

// VALID: errors.mlir:[[@LINE+3]]:8: error: 'pto.tile.create' op valid shape [5, 1] does not fit the box [4, 8]
func.func @bad_valid_shape(%n: index) {
  %c1 = arith.constant 1 : index
  %t = pto.tile.create valid [%n, %c1] : !pto.tile<4x8xf32, vec>
  return
}

// SLICE: errors.mlir:[[@LINE+4]]:8: error: 'pto.tile.slice' op offset [4, 0] is outside the source box [4, 8]
func.func @slice_outside(%n: index) {
  %c0 = arith.constant 0 : index
  %t = pto.tile.create : !pto.tile<4x8xf32, vec>
  %s = pto.tile.slice %t[%n, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tile<2x8xf32, vec>
  return
}

// ASSEMBLE: errors.mlir:[[@LINE+6]]:8: error: 'pto.tile.assemble' op writes the valid region [2, 8] at offset [3, 0], past the target box [4, 8]
func.func @assemble_past_target() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %s = pto.tile.create : !pto.tile<2x8xf32, vec>
  %t = pto.tile.create : !pto.tile<4x8xf32, vec>
  %a = pto.tile.assemble %s into %t[%c3, %c0] : !pto.tile<2x8xf32, vec> into !pto.tile<4x8xf32, vec>
  return
}

// RESHAPE: errors.mlir:[[@LINE+4]]:8: error: 'pto.tile.reshape' op reshapes a tile whose valid shape [2, 8] is not its whole box [4, 8]
func.func @reshape_partial(%n: index) {
  %c8 = arith.constant 8 : index
  %t = pto.tile.create valid [%n, %c8] : !pto.tile<4x8xf32, vec>
  %r = pto.tile.reshape %t : !pto.tile<4x8xf32, vec> -> !pto.tile<32xf32, vec>
  return
}

// READ: errors.mlir:[[@LINE+4]]:8: error: 'pto.tile.read' op index [0, 4] is outside the box [4, 4]
func.func @read_outside(%n: index) {
  %c0 = arith.constant 0 : index
  %t = pto.tile.create : !pto.tile<4x4xf32, vec>
  %v = pto.tile.read %t[%c0, %n] : !pto.tile<4x4xf32, vec>
  return
}

// DIV: errors.mlir:[[@LINE+5]]:8: error: 'pto.tile.div' op divides by zero in the valid region
func.func @divide_by_zero() {
  %one = arith.constant 1 : i32
  %a = pto.tile.full %one : i32 -> !pto.tile<1x8xi32, vec>
  %b = pto.tile.create : !pto.tile<1x8xi32, vec>
  %q = pto.tile.div %a, %b : !pto.tile<1x8xi32, vec>
  return
}

// Outside the valid region a zero divisor is padding, not an error.
// DIVPAD: y: i32 [1, 8]
// DIVPAD-NEXT: [2, 2, 0, 0, 0, 0, 0, 0]
func.func @divide_by_zero_outside_valid(%y: !pto.tensor<1x8xi32>) -> !pto.tensor<1x8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %six = arith.constant 6 : i32
  %three = arith.constant 3 : i32
  %a = pto.tile.full %six valid [%c1, %c2] : i32 -> !pto.tile<1x8xi32, vec>
  %b = pto.tile.full %three valid [%c1, %c2] : i32 -> !pto.tile<1x8xi32, vec>
  %bz = pto.tile.fillpad %b, zero : !pto.tile<1x8xi32, vec>
  %q = pto.tile.div %a, %bz : !pto.tile<1x8xi32, vec>
  %all = pto.tile.fillpad %q, zero : !pto.tile<1x8xi32, vec>
  %o = pto.tile.store %all, %y[%c0, %c0] : !pto.tile<1x8xi32, vec> -> !pto.tensor<1x8xi32>
  return %o : !pto.tensor<1x8xi32>
}

// STEP: errors.mlir:[[@LINE+4]]:3: error: 'scf.for' op has step 0; it must be positive
func.func @zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %n {
  }
  return
}

// SDIV: errors.mlir:[[@LINE+3]]:8: error: 'arith.divsi' op divides by zero
func.func @scalar_divide_by_zero(%n: index) {
  %c4 = arith.constant 4 : index
  %q = arith.divsi %c4, %n : index
  return
}

// TREAD: errors.mlir:[[@LINE+3]]:8: error: 'pto.tensor.read' op index [4, 0] is outside the tensor of shape [4, 8]
func.func @tensor_read_outside(%x: !pto.tensor<4x8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %v = pto.tensor.read %x[%i, %c0] : !pto.tensor<4x8xf32>
  return
}

// NOSUPPORT: errors.mlir:[[@LINE+2]]:3: error: 'scf.execute_region' op is not supported by the executor
func.func @unsupported_op() {
  scf.execute_region {
    scf.yield
  }
  return
}

// RUN: not tilekit run %s --entry pipe_outside_group 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: errors.mlir:[[@LINE+3]]:3: error: 'pto.tile.tpush_to_aiv' op runs outside a group launch; cross-core pipes connect the functions of a group called from orchestration
func.func @pipe_outside_group() {
  %t = pto.tile.create : !pto.tile<16x16xf32, acc>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<16x16xf32, acc>
  return
}

// TYPE: errors.mlir:[[@LINE+2]]:8: error: 'arith.constant' op produces a value of type 'f64', which the executor does not support
func.func @unsupported_type() {
  %d = arith.constant 1.0 : f64
  return
}

// An error in a callee is reported where it happens and at the call.
// CALL: errors.mlir:{{[0-9]+}}:8: error: 'pto.tile.load' op offset [4, 0]
// CALL: errors.mlir:[[@LINE+2]]:3: error: 'func.call' op failed in its call of '@load_outside'
func.func @caller(%x: !pto.tensor<4x8xf32>) {
  func.call @load_outside(%x) : (!pto.tensor<4x8xf32>) -> ()
  return
}

// RUN: not tilekit run %s --entry bad_set_validshape --input n=9 2>&1 | FileCheck %s --check-prefix=SETVALID
// SETVALID: errors.mlir:[[@LINE+4]]:8: error: 'pto.tile.set_validshape' op valid shape [9, 1] does not fit the box [4, 8]
func.func @bad_set_validshape(%n: index) {
  %c1 = arith.constant 1 : index
  %t = pto.tile.create : !pto.tile<4x8xf32, vec>
  %v = pto.tile.set_validshape %t[%n, %c1] : !pto.tile<4x8xf32, vec>
  return
}

// RUN: not tilekit run %s --entry tensor_view_mismatch --input x=zeros:4x8:f32 --input n=5 2>&1 | FileCheck %s --check-prefix=VIEW
// VIEW: errors.mlir:[[@LINE+2]]:8: error: 'pto.tensor.view' op views 32 elements as [5, 8]
func.func @tensor_view_mismatch(%x: !pto.tensor<?x8xf32>, %n: index) {
  %v = pto.tensor.view %x [%n] : !pto.tensor<?x8xf32> -> !pto.tensor<?x8xf32>
  return
}

// RUN: not tilekit run %s --entry tensor_assemble_past --input x=zeros:4x8:f32 --input s=zeros:2x8:f32 --input i=3 2>&1 | FileCheck %s --check-prefix=TASSEMBLE
// TASSEMBLE: errors.mlir:[[@LINE+3]]:8: error: 'pto.tensor.assemble' op writes the valid region [2, 8] at offset [3, 0], past the target of shape [4, 8]
func.func @tensor_assemble_past(%x: !pto.tensor<4x8xf32>, %s: !pto.tensor<2x8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %a = pto.tensor.assemble %s into %x[%i, %c0] : !pto.tensor<2x8xf32> into !pto.tensor<4x8xf32>
  return
}

// RUN: not tilekit run %s --entry tensor_matmul_mismatch --input a=zeros:4x8:f16 --input b=zeros:6x4:f16 2>&1 | FileCheck %s --check-prefix=TMATMUL
// TMATMUL: errors.mlir:[[@LINE+2]]:8: error: 'pto.tensor.matmul' op multiplies tensors of shapes [4, 8] and [6, 4]
func.func @tensor_matmul_mismatch(%a: !pto.tensor<?x?xf16>, %b: !pto.tensor<?x?xf16>) {
  %c = pto.tensor.matmul %a, %b : !pto.tensor<?x?xf16>, !pto.tensor<?x?xf16> -> !pto.tensor<?x?xf32>
  return
}

// RUN: not tilekit run %s --entry negative_size --input n=-2 2>&1 | FileCheck %s --check-prefix=NEGSIZE
// NEGSIZE: errors.mlir:[[@LINE+2]]:8: error: 'pto.tensor.create' op has a negative size in [-2, 8]
func.func @negative_size(%n: index) {
  %t = pto.tensor.create [%n] : !pto.tensor<?x8xf32>
  return
}
