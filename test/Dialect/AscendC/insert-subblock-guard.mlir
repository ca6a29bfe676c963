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

// -----

// A compiled orchestration's vector launch beside its mixed one, and the
// work item it calls (which returns its tensor), run on every vector core:
// left alone. The mixed launch is guarded.
// CHECK-LABEL: func.func @item(
// CHECK-NOT: ascendc.subblock_guard
// CHECK-LABEL: func.func @vector_launch(
// CHECK-NOT: ascendc.subblock_guard
// CHECK-LABEL: func.func @mixed_launch(
// CHECK-NEXT: ascendc.subblock_guard
module attributes {ascendc.kernel_type = "mixed"} {
  func.func @item(%t: !ascendc.global_tensor<16xf32>) -> !ascendc.global_tensor<16xf32>
      attributes {ascendc.device} {
    return %t : !ascendc.global_tensor<16xf32>
  }
  func.func @vector_launch(%t: !ascendc.global_tensor<16xf32>) attributes {ascendc.launched_by = @host} {
    %r = func.call @item(%t) : (!ascendc.global_tensor<16xf32>) -> !ascendc.global_tensor<16xf32>
    return
  }
  func.func @mixed_launch() attributes {ascendc.launched_by = @host} {
    ascendc.if_aic {
    }
    ascendc.if_aiv {
    }
    return
  }
  // A vector kernel the host launches itself.
  // CHECK-LABEL: func.func @plain(
  // CHECK-NOT: ascendc.subblock_guard
  // CHECK: return
  func.func @plain(%t: !ascendc.global_tensor<16xf32>) -> !ascendc.global_tensor<16xf32> {
    return %t : !ascendc.global_tensor<16xf32>
  }
  func.func @host(%t: !ascendc.global_tensor<16xf32>) attributes {ascendc.host} {
    %r = func.call @plain(%t) : (!ascendc.global_tensor<16xf32>) -> !ascendc.global_tensor<16xf32>
    return
  }
}
