// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-refine-cube-position))' -verify-diagnostics | FileCheck %s

// An a1 tensor takes the L1 position its consumer's destination needs:
// L0A keeps a1, L0B makes b1, the bias table makes c1. Unconsumed tensors
// and tensors already elsewhere are left alone.
// CHECK-LABEL: func.func @refine(
func.func @refine() {
  // CHECK: ascendc.local_tensor_auto a1 : <16x32xf16>
  %a = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x32xf16>
  // CHECK: ascendc.local_tensor_auto b1 : <32x16xf16>
  %b = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<32x16xf16>
  // CHECK: ascendc.local_tensor_auto c1 : <16xf32>
  %bias = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16xf32>
  // CHECK: ascendc.local_tensor_auto a1 : <16x16xf16>
  %unused = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
  // CHECK: ascendc.local_tensor_auto b1 : <16x16xf16>
  %fixed = ascendc.local_tensor_auto b1 : !ascendc.local_tensor<16x16xf16>
  %a2 = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x32xf16>
  %b2 = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x16xf16>
  %c2 = ascendc.local_tensor_auto c2 : !ascendc.local_tensor<16xf32>
  ascendc.load_data %a2, %a : !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<16x32xf16>
  ascendc.load_data %b2, %b transpose : !ascendc.local_tensor<32x16xf16>, !ascendc.local_tensor<32x16xf16>
  ascendc.data_copy %c2, %bias : !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  return
}

// -----

// A tensor loaded into both L0A and L0B has no single L1 position.
func.func @conflict() {
  // expected-error @+1 {{has consumers that need it at both a1 and b1; an L1 tensor has one role}}
  %a = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
  %a2 = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
  %b2 = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
  // expected-note @+1 {{first consumer}}
  ascendc.load_data %a2, %a : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  // expected-note @+1 {{conflicting consumer}}
  ascendc.load_data %b2, %a : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  return
}

// -----

// A load into L0B through reinterpret casts, on either side, still makes
// the a1 placeholder b1.
// CHECK-LABEL: func.func @through_casts(
// CHECK: ascendc.local_tensor_auto b1 : <32x16xf16>
func.func @through_casts() {
  %b = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<32x16xf16>
  %view = ascendc.reinterpret_cast %b : !ascendc.local_tensor<32x16xf16> to !ascendc.local_tensor<16x32xf16>
  %b2 = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<32x16xf16>
  %b2view = ascendc.reinterpret_cast %b2 : !ascendc.local_tensor<32x16xf16> to !ascendc.local_tensor<16x32xf16>
  ascendc.load_data %b2view, %view : !ascendc.local_tensor<16x32xf16>, !ascendc.local_tensor<16x32xf16>
  return
}
