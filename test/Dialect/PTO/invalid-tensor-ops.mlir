// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// One size per dynamic dimension.
func.func @f(%n: index) {
  // expected-error @+1 {{expects 1 size operands (one per '?' of '!pto.tensor<?x64xf32>'), got 0}}
  %t = pto.tensor.create : !pto.tensor<?x64xf32>
  return
}

// -----

// A fill value of the element family.
func.func @f(%v: f32) {
  // expected-error @+1 {{scalar of type 'f32' does not match element type 'i32'}}
  %t = pto.tensor.full %v : f32 -> !pto.tensor<4x4xi32>
  return
}

// -----

// A view keeps the element count.
func.func @f(%t: !pto.tensor<16x64xf32>) {
  // expected-error @+1 {{cannot view 1024 elements as 2048}}
  %v = pto.tensor.view %t : !pto.tensor<16x64xf32> -> !pto.tensor<32x64xf32>
  return
}

// -----

// A view keeps the element type.
func.func @f(%t: !pto.tensor<16x64xf32>) {
  // expected-error @+1 {{a view keeps the element type}}
  %v = pto.tensor.view %t : !pto.tensor<16x64xf32> -> !pto.tensor<16x64xi32>
  return
}

// -----

// A slice materializes a static box.
func.func @f(%t: !pto.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{the requested slice shape must be static, got '!pto.tensor<?x64xf32>'}}
  %s = pto.tensor.slice %t[%i, %i] : !pto.tensor<?x64xf32> -> !pto.tensor<?x64xf32>
  return
}

// -----

// A slice has one offset per dimension.
func.func @f(%t: !pto.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{expects 2 offsets (one per dimension), got 1}}
  %s = pto.tensor.slice %t[%i] : !pto.tensor<?x64xf32> -> !pto.tensor<16x64xf32>
  return
}

// -----

// assemble writes a tensor of the target's rank.
func.func @f(%s: !pto.tensor<64xf32>, %t: !pto.tensor<16x64xf32>, %i: index) {
  // expected-error @+1 {{must have the rank and element type of the target}}
  %a = pto.tensor.assemble %s into %t[%i, %i] : !pto.tensor<64xf32> into !pto.tensor<16x64xf32>
  return
}

// -----

// read takes one index per dimension.
func.func @f(%t: !pto.tensor<16x64xf32>, %i: index) {
  // expected-error @+1 {{expects 2 indices (one per dimension), got 1}}
  %v = pto.tensor.read %t[%i] : !pto.tensor<16x64xf32>
  return
}

// -----

// write stores a value of the element type.
// expected-note @+1 {{prior use here}}
func.func @f(%t: !pto.tensor<16x64xf32>, %i: index, %v: f16) {
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'f32' vs 'f16'}}
  %w = pto.tensor.write %v, %t[%i, %i] : !pto.tensor<16x64xf32>
  return
}

// -----

// K agrees, after the transposes.
func.func @f(%a: !pto.tensor<16x32xf16>, %b: !pto.tensor<32x64xf16>) {
  // expected-error @+1 {{contraction sizes differ: lhs has K = 32, rhs has K = 64}}
  %c = pto.tensor.matmul %a, %b {b_trans} : !pto.tensor<16x32xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<16x32xf32>
  return
}

// -----

// The result is MxN.
func.func @f(%a: !pto.tensor<16x32xf16>, %b: !pto.tensor<32x64xf16>) {
  // expected-error @+1 {{does not match the product's shape}}
  %c = pto.tensor.matmul %a, %b : !pto.tensor<16x32xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<16x32xf32>
  return
}

// -----

// out_dtype fits the inputs.
func.func @f(%a: !pto.tensor<16x32xf16>, %b: !pto.tensor<32x64xf16>) {
  // expected-error @+1 {{out_dtype 'i32' does not fit 'f16' inputs}}
  %c = pto.tensor.matmul %a, %b : !pto.tensor<16x32xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<16x64xi32>
  return
}

// -----

// Batch dimensions agree.
func.func @f(%a: !pto.tensor<2x16x32xf16>, %b: !pto.tensor<3x32x64xf16>) {
  // expected-error @+1 {{batch dimension 0 differs}}
  %c = pto.tensor.matmul %a, %b : !pto.tensor<2x16x32xf16>, !pto.tensor<3x32x64xf16> -> !pto.tensor<2x16x64xf32>
  return
}

// -----

// The accumulator has the result's shape.
func.func @f(%acc: !pto.tensor<16x32xf32>, %a: !pto.tensor<16x32xf16>, %b: !pto.tensor<32x64xf16>) {
  // expected-error @+1 {{accumulator and result must have the same shape and element type}}
  %c = pto.tensor.matmul_acc %acc, %a, %b : !pto.tensor<16x32xf32>, !pto.tensor<16x32xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<16x64xf32>
  return
}

// -----

// Elementwise tensor operands agree.
func.func @f(%a: !pto.tensor<16x64xf32>, %b: !pto.tensor<16x32xf32>) {
  // expected-error @+1 {{operands must have the same shape and element type}}
  %c = pto.tensor.add %a, %b : !pto.tensor<16x64xf32>, !pto.tensor<16x32xf32>
  return
}

// -----

// Tensor row reductions shrink the last dimension.
func.func @f(%a: !pto.tensor<?x64xf32>) {
  // expected-error @+1 {{result shape must be [?, 1]}}
  %c = pto.tensor.row_sum %a : !pto.tensor<?x64xf32> -> !pto.tensor<1x64xf32>
  return
}

// -----

// A cast keeps the shape.
func.func @f(%a: !pto.tensor<16x64xf32>) {
  // expected-error @+1 {{source and result must have the same shape}}
  %c = pto.tensor.cast %a : !pto.tensor<16x64xf32> -> !pto.tensor<64x16xf16>
  return
}

// -----

// dim names an existing dimension.
func.func @f(%a: !pto.tensor<?x64xf32>) {
  // expected-error @+1 {{dimension 2 is out of range for a 2-D tensor}}
  %d = pto.tensor.dim %a, 2 : !pto.tensor<?x64xf32>
  return
}

// -----

// A slice keeps the rank and element type.
func.func @f(%t: !pto.tensor<?x64xf32>, %i: index) {
  // expected-error @+1 {{must keep the rank and element type of}}
  %s = pto.tensor.slice %t[%i, %i] : !pto.tensor<?x64xf32> -> !pto.tensor<16x64xf16>
  return
}

// -----

// Matmuls need matrices.
func.func @f(%a: !pto.tensor<32xf16>, %b: !pto.tensor<32xf16>) {
  // expected-error @+1 {{expects operands and result of one rank (2 or more)}}
  %c = pto.tensor.matmul %a, %b : !pto.tensor<32xf16>, !pto.tensor<32xf16> -> !pto.tensor<32xf32>
  return
}

// -----

// Matmul operands share an element type.
func.func @f(%a: !pto.tensor<16x32xf16>, %b: !pto.tensor<32x64xbf16>) {
  // expected-error @+1 {{lhs and rhs element types differ: 'f16' and 'bf16'}}
  %c = pto.tensor.matmul %a, %b : !pto.tensor<16x32xf16>, !pto.tensor<32x64xbf16> -> !pto.tensor<16x64xf32>
  return
}
