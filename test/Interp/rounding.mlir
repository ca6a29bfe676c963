// f16 and bf16 results are computed in f32 and rounded to nearest even
// after every op; casts honour their rounding mode.
// RUN: tilekit run %s --entry f16_add --input y=zeros:1x4:f32 --print y | FileCheck %s --check-prefix=F16
// RUN: tilekit run %s --entry bf16_add --input y=zeros:1x4:f32 --print y | FileCheck %s --check-prefix=BF16
// RUN: tilekit run %s --entry cast_modes --input y=zeros:7x2:f32 --print y | FileCheck %s --check-prefix=MODES
// RUN: tilekit run %s --entry to_int --input y=zeros:4x4:i32 --print y | FileCheck %s --check-prefix=INT

// 1 + 2^-11 is halfway between f16 neighbours 1 and 1 + 2^-10: ties to even
// give 1. 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties to
// even give 1 + 2^-9 = 1.00195. 65504 + 16 overflows to infinity.
// F16: y: f32 [1, 4]
// F16-NEXT: [1, 1.00195, inf, 1.00098]
func.func @f16_add(%y: !pto.tensor<1x4xf32>) -> !pto.tensor<1x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f16
  %max = arith.constant 65504.0 : f16
  %base = pto.tile.full %one : f16 -> !pto.tile<1x4xf16, vec>
  %b1 = pto.tile.write %max, %base[%c0, %c2] : !pto.tile<1x4xf16, vec>
  %half_ulp = arith.constant 4.8828125e-04 : f32     // 2^-11
  %three_half = arith.constant 1.46484375e-03 : f32  // 3 * 2^-11
  %sixteen = arith.constant 16.0 : f32
  %a0 = pto.tile.adds %b1, %half_ulp : !pto.tile<1x4xf16, vec>, f32
  // The scalar is rounded to f16 first: 3 * 2^-11 is exact in f16.
  %a1 = pto.tile.adds %b1, %three_half : !pto.tile<1x4xf16, vec>, f32
  %a2 = pto.tile.adds %b1, %sixteen : !pto.tile<1x4xf16, vec>, f32
  %v0 = pto.tile.read %a0[%c0, %c0] : !pto.tile<1x4xf16, vec>
  %v1 = pto.tile.read %a1[%c0, %c0] : !pto.tile<1x4xf16, vec>
  %v2 = pto.tile.read %a2[%c0, %c2] : !pto.tile<1x4xf16, vec>
  %w0 = pto.tile.write %v0, %a0[%c0, %c0] : !pto.tile<1x4xf16, vec>
  %w1 = pto.tile.write %v1, %w0[%c0, %c1] : !pto.tile<1x4xf16, vec>
  %w2 = pto.tile.write %v2, %w1[%c0, %c2] : !pto.tile<1x4xf16, vec>
  // 1 + 2^-10 is exact.
  %ulp = arith.constant 9.765625e-04 : f16
  %exact = arith.addf %one, %ulp : f16
  %w3 = pto.tile.write %exact, %w2[%c0, %c3] : !pto.tile<1x4xf16, vec>
  %f = pto.tile.cast %w3 : !pto.tile<1x4xf16, vec> -> !pto.tile<1x4xf32, vec>
  %o = pto.tile.store %f, %y[%c0, %c0] : !pto.tile<1x4xf32, vec> -> !pto.tensor<1x4xf32>
  return %o : !pto.tensor<1x4xf32>
}

// bf16 keeps 8 mantissa bits: 1 + 2^-8 ties to 1, 1 + 3 * 2^-8 ties to
// 1 + 2^-6 = 1.01562; a product 1.00781 * 1.00781 = 1.01569 rounds to 1.01562.
// BF16: y: f32 [1, 4]
// BF16-NEXT: [1, 1.01562, 1.01562, 1.00781]
func.func @bf16_add(%y: !pto.tensor<1x4xf32>) -> !pto.tensor<1x4xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %t32 = pto.tile.full %one : f32 -> !pto.tile<1x4xf32, vec>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = arith.constant 1.00390625 : f32   // 1 + 2^-8
  %b = arith.constant 1.01171875 : f32   // 1 + 3 * 2^-8
  %p = arith.constant 1.0078125 : f32    // 1 + 2^-7
  %t1 = pto.tile.write %a, %t32[%c0, %c0] : !pto.tile<1x4xf32, vec>
  %t2 = pto.tile.write %b, %t1[%c0, %c1] : !pto.tile<1x4xf32, vec>
  %t3 = pto.tile.write %p, %t2[%c0, %c2] : !pto.tile<1x4xf32, vec>
  %t4 = pto.tile.write %p, %t3[%c0, %c3] : !pto.tile<1x4xf32, vec>
  %h = pto.tile.cast %t4 : !pto.tile<1x4xf32, vec> -> !pto.tile<1x4xbf16, vec>
  %sq = pto.tile.mul %h, %h : !pto.tile<1x4xbf16, vec>
  %pos2 = pto.tile.read %sq[%c0, %c2] : !pto.tile<1x4xbf16, vec>
  %h2 = pto.tile.write %pos2, %h[%c0, %c2] : !pto.tile<1x4xbf16, vec>
  %f = pto.tile.cast %h2 : !pto.tile<1x4xbf16, vec> -> !pto.tile<1x4xf32, vec>
  %o = pto.tile.store %f, %y[%c0, %c0] : !pto.tile<1x4xf32, vec> -> !pto.tensor<1x4xf32>
  return %o : !pto.tensor<1x4xf32>
}

// Each rounding mode on x = 1 + 2^-11 (a tie) and x = -(1 + 3 * 2^-12)
// (between -1.00098 and -1), cast to f16 and back.
// MODES: y: f32 [7, 2]
// MODES-NEXT: [1, -1.00098]
// MODES-NEXT: [1, -1.00098]
// MODES-NEXT: [1.00098, -1.00098]
// MODES-NEXT: [1, -1.00098]
// MODES-NEXT: [1.00098, -1]
// MODES-NEXT: [1, -1]
// MODES-NEXT: [1.00098, -1.00098]
func.func @cast_modes(%y: !pto.tensor<7x2xf32>) -> !pto.tensor<7x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tie = arith.constant 1.00048828125 : f32
  %neg = arith.constant -1.000732421875 : f32
  %t0 = pto.tile.full %tie : f32 -> !pto.tile<1x2xf32, vec>
  %t = pto.tile.write %neg, %t0[%c0, %c1] : !pto.tile<1x2xf32, vec>
  %m0 = pto.tile.cast %t round none : !pto.tile<1x2xf32, vec> -> !pto.tile<1x2xf16, vec>
  %m1 = pto.tile.cast %t round rint : !pto.tile<1x2xf32, vec> -> !pto.tile<1x2xf16, vec>
  %m2 = pto.tile.cast %t round round : !pto.tile<1x2xf32, vec> -> !pto.tile<1x2xf16, vec>
  %m3 = pto.tile.cast %t round floor : !pto.tile<1x2xf32, vec> -> !pto.tile<1x2xf16, vec>
  %m4 = pto.tile.cast %t round ceil : !pto.tile<1x2xf32, vec> -> !pto.tile<1x2xf16, vec>
  %m5 = pto.tile.cast %t round trunc : !pto.tile<1x2xf32, vec> -> !pto.tile<1x2xf16, vec>
  %m6 = pto.tile.cast %t round odd : !pto.tile<1x2xf32, vec> -> !pto.tile<1x2xf16, vec>
  %f0 = pto.tile.cast %m0 : !pto.tile<1x2xf16, vec> -> !pto.tile<1x2xf32, vec>
  %f1 = pto.tile.cast %m1 : !pto.tile<1x2xf16, vec> -> !pto.tile<1x2xf32, vec>
  %f2 = pto.tile.cast %m2 : !pto.tile<1x2xf16, vec> -> !pto.tile<1x2xf32, vec>
  %f3 = pto.tile.cast %m3 : !pto.tile<1x2xf16, vec> -> !pto.tile<1x2xf32, vec>
  %f4 = pto.tile.cast %m4 : !pto.tile<1x2xf16, vec> -> !pto.tile<1x2xf32, vec>
  %f5 = pto.tile.cast %m5 : !pto.tile<1x2xf16, vec> -> !pto.tile<1x2xf32, vec>
  %f6 = pto.tile.cast %m6 : !pto.tile<1x2xf16, vec> -> !pto.tile<1x2xf32, vec>
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %o0 = pto.tile.store %f0, %y[%c0, %c0] : !pto.tile<1x2xf32, vec> -> !pto.tensor<7x2xf32>
  %o1 = pto.tile.store %f1, %o0[%c1, %c0] : !pto.tile<1x2xf32, vec> -> !pto.tensor<7x2xf32>
  %o2 = pto.tile.store %f2, %o1[%c2, %c0] : !pto.tile<1x2xf32, vec> -> !pto.tensor<7x2xf32>
  %o3 = pto.tile.store %f3, %o2[%c3, %c0] : !pto.tile<1x2xf32, vec> -> !pto.tensor<7x2xf32>
  %o4 = pto.tile.store %f4, %o3[%c4, %c0] : !pto.tile<1x2xf32, vec> -> !pto.tensor<7x2xf32>
  %o5 = pto.tile.store %f5, %o4[%c5, %c0] : !pto.tile<1x2xf32, vec> -> !pto.tensor<7x2xf32>
  %o6 = pto.tile.store %f6, %o5[%c6, %c0] : !pto.tile<1x2xf32, vec> -> !pto.tensor<7x2xf32>
  return %o6 : !pto.tensor<7x2xf32>
}

// Float to integer: rint ties to even, round away, floor, trunc; saturation.
// INT: y: i32 [4, 4]
// INT-NEXT: [2, -2, 2147483647, -2147483648]
// INT-NEXT: [3, -3, 2147483647, -2147483648]
// INT-NEXT: [2, -3, 2147483647, -2147483648]
// INT-NEXT: [2, -2, 2147483647, -2147483648]
func.func @to_int(%y: !pto.tensor<4x4xi32>) -> !pto.tensor<4x4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v0 = arith.constant 2.5 : f32
  %v1 = arith.constant -2.5 : f32
  %v2 = arith.constant 3.0e10 : f32
  %v3 = arith.constant -3.0e10 : f32
  %t0 = pto.tile.full %v0 : f32 -> !pto.tile<1x4xf32, vec>
  %t1 = pto.tile.write %v1, %t0[%c0, %c1] : !pto.tile<1x4xf32, vec>
  %t2 = pto.tile.write %v2, %t1[%c0, %c2] : !pto.tile<1x4xf32, vec>
  %t = pto.tile.write %v3, %t2[%c0, %c3] : !pto.tile<1x4xf32, vec>
  %i0 = pto.tile.cast %t round rint : !pto.tile<1x4xf32, vec> -> !pto.tile<1x4xi32, vec>
  %i1 = pto.tile.cast %t round round : !pto.tile<1x4xf32, vec> -> !pto.tile<1x4xi32, vec>
  %i2 = pto.tile.cast %t round floor : !pto.tile<1x4xf32, vec> -> !pto.tile<1x4xi32, vec>
  %i3 = pto.tile.cast %t round trunc : !pto.tile<1x4xf32, vec> -> !pto.tile<1x4xi32, vec>
  %o0 = pto.tile.store %i0, %y[%c0, %c0] : !pto.tile<1x4xi32, vec> -> !pto.tensor<4x4xi32>
  %o1 = pto.tile.store %i1, %o0[%c1, %c0] : !pto.tile<1x4xi32, vec> -> !pto.tensor<4x4xi32>
  %o2 = pto.tile.store %i2, %o1[%c2, %c0] : !pto.tile<1x4xi32, vec> -> !pto.tensor<4x4xi32>
  %o3 = pto.tile.store %i3, %o2[%c3, %c0] : !pto.tile<1x4xi32, vec> -> !pto.tensor<4x4xi32>
  return %o3 : !pto.tensor<4x4xi32>
}
