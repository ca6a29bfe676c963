// RUN: tilekit-opt %s -split-input-file -ascendc-dispatch-alloc -verify-diagnostics | FileCheck %s

// C220 (the default) uses TPipe.
// CHECK: module attributes {ascendc.alloc_strategy = "tpipe"}
module {
}

// -----

// C310 without a broadcast allocates statically.
// CHECK: module attributes {ascendc.alloc_strategy = "static", ascendc.arch = "c310"}
module attributes {ascendc.arch = "c310"} {
}

// -----

// The module attribute decides when present.
// CHECK: module attributes {ascendc.alloc_strategy = "static", ascendc.static_alloc = true}
module attributes {ascendc.static_alloc = true} {
}

// -----

// CHECK: module attributes {ascendc.alloc_strategy = "tpipe", ascendc.arch = "c310", ascendc.static_alloc = false}
module attributes {ascendc.arch = "c310", ascendc.static_alloc = false} {
}

// -----

// A broadcast needs TPipe's temporary buffer, even on C310.
// CHECK: module attributes {ascendc.alloc_strategy = "tpipe", ascendc.arch = "c310"}
module attributes {ascendc.arch = "c310"} {
  func.func @f() {
    %row = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x64xf32>
    %all = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf32>
    ascendc.broadcast %all, %row axis 0 : !ascendc.local_tensor<8x64xf32>, !ascendc.local_tensor<1x64xf32>
    return
  }
}

// -----

// expected-error @+1 {{asks for static allocation (ascendc.static_alloc = true), but it holds an ascendc.broadcast, whose temporary buffer only TPipe provides}}
module attributes {ascendc.static_alloc = true} {
  func.func @f() {
    %row = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x64xf32>
    %all = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf32>
    // expected-note @+1 {{the ascendc.broadcast}}
    ascendc.broadcast %all, %row axis 0 : !ascendc.local_tensor<8x64xf32>, !ascendc.local_tensor<1x64xf32>
    return
  }
}

// -----

// So does a reduction (the advanced API's ReduceSum and kin).
// CHECK: module attributes {ascendc.alloc_strategy = "tpipe", ascendc.arch = "c310"}
module attributes {ascendc.arch = "c310"} {
  func.func @f() {
    %all = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf32>
    %sums = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x1xf32>
    ascendc.reduce_sum %sums, %all axis 1 : !ascendc.local_tensor<8x1xf32>, !ascendc.local_tensor<8x64xf32>
    return
  }
}

// -----

// expected-error @+1 {{has ascendc.arch = "c100"; expected "c220" or "c310"}}
module attributes {ascendc.arch = "c100"} {
}
