// RUN: tilekit-opt %s -split-input-file -ascendc-insert-subblock-guard -verify-diagnostics | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: tilekit-opt %s -split-input-file -ascendc-insert-subblock-guard -ascendc-insert-subblock-guard -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @kernel(
// CHECK-NEXT: ascendc.subblock_guard
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NOT: ascendc.subblock_guard
// CHECK: func.func private @declared()
module attributes {ascendc.kernel_type = "mixed"} {
  func.func @kernel() {
    ascendc.pipe_barrier all
    return
  }
  func.func private @declared()
}

// -----

// Cube and vector kernels are left alone.
// CHECK-LABEL: func.func @vector_kernel(
// CHECK-NOT: ascendc.subblock_guard
module attributes {ascendc.kernel_type = "vector"} {
  func.func @vector_kernel() {
    return
  }
}

// -----

module attributes {ascendc.kernel_type = "mixed"} {
  // expected-error @+1 {{returns values, so it cannot return early on the sub-blocks a mixed kernel guards}}
  func.func @returns() -> index {
    %c0 = arith.constant 0 : index
    return %c0 : index
  }
}

// -----

func.func @misplaced() {
  ascendc.pipe_barrier all
  // expected-error @+1 {{must be the first op of a function}}
  ascendc.subblock_guard
  return
}
