// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// The cube reads A from L0A.
func.func @f(%a: !pto.tile<16x16xf16, mat>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{lhs must be a 'left' tile, got 'mat'}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x16xf16, mat>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// The cube reads B from L0B.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, left>) {
  // expected-error @+1 {{rhs must be a 'right' tile, got 'left'}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, left> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// The cube writes L0C.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{result must be a 'acc' tile, got 'vec'}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, vec>
  return
}

// -----

// K agrees between A and B.
func.func @f(%a: !pto.tile<16x32xf16, left>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{contraction sizes differ: lhs has K = 32, rhs has K = 16}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x32xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// C is MxN.
func.func @f(%a: !pto.tile<16x32xf16, left>, %b: !pto.tile<32x64xf16, right>) {
  // expected-error @+1 {{result must be 16x64}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x32xf16, left>, !pto.tile<32x64xf16, right> -> !pto.tile<16x32xf32, acc>
  return
}

// -----

// A and B share an element type.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xbf16, right>) {
  // expected-error @+1 {{lhs and rhs element types differ: 'f16' and 'bf16'}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// i8 products accumulate in i32.
func.func @f(%a: !pto.tile<16x32xi8, left>, %b: !pto.tile<32x16xi8, right>) {
  // expected-error @+1 {{'i8' products accumulate in 'i32', not 'f32'}}
  %c = pto.tile.matmul %a, %b : !pto.tile<16x32xi8, left>, !pto.tile<32x16xi8, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// The accumulator of matmul_acc lives in L0C.
func.func @f(%acc: !pto.tile<16x16xf32, vec>, %a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{accumulator must be a 'acc' tile, got 'vec'}}
  %c = pto.tile.matmul_acc %acc, %a, %b : !pto.tile<16x16xf32, vec>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// The accumulator has the result's box.
func.func @f(%acc: !pto.tile<16x32xf32, acc>, %a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{accumulator and result must have the same shape and element type}}
  %c = pto.tile.matmul_acc %acc, %a, %b : !pto.tile<16x32xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// init_cond is a 1-bit scalar.
// expected-note @+1 {{prior use here}}
func.func @f(%acc: !pto.tile<16x16xf32, acc>, %a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>, %k: i32) {
  // expected-error @+1 {{use of value '%k' expects different type than prior uses: 'i1' vs 'i32'}}
  %c = pto.tile.matmul_acc %acc, %a, %b init %k : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  return
}

// -----

// The bias is a 1xN row in the bias table.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x32xf16, right>, %bias: !pto.tile<1x16xf32, bias>) {
  // expected-error @+1 {{bias must be 1x32}}
  %c = pto.tile.matmul_bias %a, %b, %bias : !pto.tile<16x16xf16, left>, !pto.tile<16x32xf16, right>, !pto.tile<1x16xf32, bias> -> !pto.tile<16x32xf32, acc>
  return
}

// -----

// The bias comes from the bias table.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x32xf16, right>, %bias: !pto.tile<1x32xf32, vec>) {
  // expected-error @+1 {{bias must be a 'bias' tile, got 'vec'}}
  %c = pto.tile.matmul_bias %a, %b, %bias : !pto.tile<16x16xf16, left>, !pto.tile<16x32xf16, right>, !pto.tile<1x32xf32, vec> -> !pto.tile<16x32xf32, acc>
  return
}

// -----

// Batched matmuls take rank-3 tiles.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{expects rank-3 tiles}}
  %c = pto.tile.batch_matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// Batch sizes agree.
func.func @f(%a: !pto.tile<2x16x16xf16, left>, %b: !pto.tile<4x16x16xf16, right>) {
  // expected-error @+1 {{batch sizes differ: 2, 4 and 2}}
  %c = pto.tile.batch_matmul %a, %b : !pto.tile<2x16x16xf16, left>, !pto.tile<4x16x16xf16, right> -> !pto.tile<2x16x16xf32, acc>
  return
}

// -----

// GEMV has one row.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{lhs of a GEMV has one row}}
  %c = pto.tile.gemv %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}

// -----

// GEMV-acc checks its accumulator too.
func.func @f(%acc: !pto.tile<1x32xf32, acc>, %a: !pto.tile<1x16xf16, left>, %b: !pto.tile<16x16xf16, right>) {
  // expected-error @+1 {{accumulator and result must have the same shape and element type}}
  %c = pto.tile.gemv_acc %acc, %a, %b : !pto.tile<1x32xf32, acc>, !pto.tile<1x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<1x16xf32, acc>
  return
}

// -----

// The bias has the accumulator's element type.
func.func @f(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x32xf16, right>, %bias: !pto.tile<1x32xf16, bias>) {
  // expected-error @+1 {{bias element type 'f16' differs from the accumulator's 'f32'}}
  %c = pto.tile.matmul_bias %a, %b, %bias : !pto.tile<16x16xf16, left>, !pto.tile<16x32xf16, right>, !pto.tile<1x32xf16, bias> -> !pto.tile<16x32xf32, acc>
  return
}
