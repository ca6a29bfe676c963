// RUN: tilekit-opt %s | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s --mlir-print-op-generic | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s -emit-bytecode | tilekit-opt | FileCheck %s

// Round trip of every pto.tensor op.

// Creation, views, slices, element access.
// CHECK-LABEL: func.func @construction
// CHECK-SAME: (%{{.*}}: !pto.tensor<?x64xf32>, %{{.*}}: index, %{{.*}}: index) -> f32 attributes {pto.kind = #pto.kind<orchestration>}
// CHECK: %{{.*}} = arith.constant 0 : index
// CHECK: %{{.*}} = pto.tensor.create : !pto.tensor<128x64xf32>
// CHECK: %{{.*}} = pto.tensor.create[%{{.*}}] : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = arith.constant 0.000000e+00 : f32
// CHECK: %{{.*}} = pto.tensor.full %{{.*}} : f32 -> !pto.tensor<128x64xf32>
// CHECK: %{{.*}} = pto.tensor.full %{{.*}}[%{{.*}}] : f32 -> !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.view %{{.*}} : !pto.tensor<128x64xf32> -> !pto.tensor<64x128xf32>
// CHECK: %{{.*}} = pto.tensor.view %{{.*}}[%{{.*}}] : !pto.tensor<?x64xf32> -> !pto.tensor<?x32xf32>
// CHECK: %{{.*}} = pto.tensor.slice %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tensor<?x64xf32> -> !pto.tensor<16x64xf32>
// CHECK: %{{.*}} = pto.tensor.slice %{{.*}}[%{{.*}}, %{{.*}}] valid [%{{.*}}, %{{.*}}] : !pto.tensor<?x64xf32> -> !pto.tensor<16x64xf32>
// CHECK: %{{.*}} = pto.tensor.assemble %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tensor<16x64xf32> into !pto.tensor<128x64xf32>
// CHECK: %{{.*}} = pto.tensor.read %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tensor<128x64xf32>
// CHECK: %{{.*}} = pto.tensor.write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tensor<128x64xf32>
// CHECK: %{{.*}} = pto.tensor.cast %{{.*}} round rint : !pto.tensor<128x64xf32> -> !pto.tensor<128x64xf16>
// CHECK: return %{{.*}} : f32
func.func @construction(%x: !pto.tensor<?x64xf32>, %n: index, %i: index) -> f32 attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %t = pto.tensor.create : !pto.tensor<128x64xf32>
  %d = pto.tensor.create [%n] : !pto.tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %f = pto.tensor.full %zero : f32 -> !pto.tensor<128x64xf32>
  %fd = pto.tensor.full %zero [%n] : f32 -> !pto.tensor<?x64xf32>
  %v = pto.tensor.view %t : !pto.tensor<128x64xf32> -> !pto.tensor<64x128xf32>
  %vd = pto.tensor.view %x [%n] : !pto.tensor<?x64xf32> -> !pto.tensor<?x32xf32>
  %s = pto.tensor.slice %x[%i, %c0] : !pto.tensor<?x64xf32> -> !pto.tensor<16x64xf32>
  %sv = pto.tensor.slice %x[%i, %c0] valid [%n, %n] : !pto.tensor<?x64xf32> -> !pto.tensor<16x64xf32>
  %a = pto.tensor.assemble %s into %t[%c0, %c0] : !pto.tensor<16x64xf32> into !pto.tensor<128x64xf32>
  %e = pto.tensor.read %a[%c0, %c0] : !pto.tensor<128x64xf32>
  %w = pto.tensor.write %e, %a[%i, %c0] : !pto.tensor<128x64xf32>
  %c = pto.tensor.cast %w round rint : !pto.tensor<128x64xf32> -> !pto.tensor<128x64xf16>
  return %e : f32
}

// Elementwise tensor ops and their scalar forms.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%{{.*}}: !pto.tensor<?x64xf32>, %{{.*}}: !pto.tensor<?x64xf32>, %{{.*}}: !pto.tensor<8x8xi32>, %{{.*}}: f32, %{{.*}}: i32)
// CHECK: %{{.*}} = pto.tensor.add %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.sub %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.mul %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.div %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.max %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.min %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.rem %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.and %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>
// CHECK: %{{.*}} = pto.tensor.or %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>
// CHECK: %{{.*}} = pto.tensor.xor %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>
// CHECK: %{{.*}} = pto.tensor.shl %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>
// CHECK: %{{.*}} = pto.tensor.shr %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>
// CHECK: %{{.*}} = pto.tensor.adds %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>, f32
// CHECK: %{{.*}} = pto.tensor.subs %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>, f32
// CHECK: %{{.*}} = pto.tensor.muls %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>, f32
// CHECK: %{{.*}} = pto.tensor.divs %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>, f32
// CHECK: %{{.*}} = pto.tensor.maxs %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>, f32
// CHECK: %{{.*}} = pto.tensor.mins %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>, f32
// CHECK: %{{.*}} = pto.tensor.rems %{{.*}}, %{{.*}} : !pto.tensor<?x64xf32>, f32
// CHECK: %{{.*}} = pto.tensor.ands %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>, i32
// CHECK: %{{.*}} = pto.tensor.ors %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>, i32
// CHECK: %{{.*}} = pto.tensor.xors %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>, i32
// CHECK: %{{.*}} = pto.tensor.shls %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>, i32
// CHECK: %{{.*}} = pto.tensor.shrs %{{.*}}, %{{.*}} : !pto.tensor<8x8xi32>, i32
// CHECK: %{{.*}} = pto.tensor.neg %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.exp %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.log %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.sqrt %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.rsqrt %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.recip %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.abs %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.relu %{{.*}} : !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.not %{{.*}} : !pto.tensor<8x8xi32>
// CHECK: return
func.func @elementwise(%a: !pto.tensor<?x64xf32>, %b: !pto.tensor<?x64xf32>, %k: !pto.tensor<8x8xi32>, %s: f32, %n: i32) {
  %0 = pto.tensor.add %a, %b : !pto.tensor<?x64xf32>
  %1 = pto.tensor.sub %a, %b : !pto.tensor<?x64xf32>
  %2 = pto.tensor.mul %a, %b : !pto.tensor<?x64xf32>
  %3 = pto.tensor.div %a, %b : !pto.tensor<?x64xf32>
  %4 = pto.tensor.max %a, %b : !pto.tensor<?x64xf32>
  %5 = pto.tensor.min %a, %b : !pto.tensor<?x64xf32>
  %6 = pto.tensor.rem %a, %b : !pto.tensor<?x64xf32>
  %7 = pto.tensor.and %k, %k : !pto.tensor<8x8xi32>
  %8 = pto.tensor.or %k, %k : !pto.tensor<8x8xi32>
  %9 = pto.tensor.xor %k, %k : !pto.tensor<8x8xi32>
  %10 = pto.tensor.shl %k, %k : !pto.tensor<8x8xi32>
  %11 = pto.tensor.shr %k, %k : !pto.tensor<8x8xi32>
  %12 = pto.tensor.adds %a, %s : !pto.tensor<?x64xf32>, f32
  %13 = pto.tensor.subs %a, %s : !pto.tensor<?x64xf32>, f32
  %14 = pto.tensor.muls %a, %s : !pto.tensor<?x64xf32>, f32
  %15 = pto.tensor.divs %a, %s : !pto.tensor<?x64xf32>, f32
  %16 = pto.tensor.maxs %a, %s : !pto.tensor<?x64xf32>, f32
  %17 = pto.tensor.mins %a, %s : !pto.tensor<?x64xf32>, f32
  %18 = pto.tensor.rems %a, %s : !pto.tensor<?x64xf32>, f32
  %19 = pto.tensor.ands %k, %n : !pto.tensor<8x8xi32>, i32
  %20 = pto.tensor.ors %k, %n : !pto.tensor<8x8xi32>, i32
  %21 = pto.tensor.xors %k, %n : !pto.tensor<8x8xi32>, i32
  %22 = pto.tensor.shls %k, %n : !pto.tensor<8x8xi32>, i32
  %23 = pto.tensor.shrs %k, %n : !pto.tensor<8x8xi32>, i32
  %24 = pto.tensor.neg %a : !pto.tensor<?x64xf32>
  %25 = pto.tensor.exp %a : !pto.tensor<?x64xf32>
  %26 = pto.tensor.log %a : !pto.tensor<?x64xf32>
  %27 = pto.tensor.sqrt %a : !pto.tensor<?x64xf32>
  %28 = pto.tensor.rsqrt %a : !pto.tensor<?x64xf32>
  %29 = pto.tensor.recip %a : !pto.tensor<?x64xf32>
  %30 = pto.tensor.abs %a : !pto.tensor<?x64xf32>
  %31 = pto.tensor.relu %a : !pto.tensor<?x64xf32>
  %32 = pto.tensor.not %k : !pto.tensor<8x8xi32>
  return
}

// Reductions over rows (last dim) and columns (second-to-last dim).
// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%{{.*}}: !pto.tensor<4x?x64xf32>)
// CHECK: %{{.*}} = pto.tensor.row_sum %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
// CHECK: %{{.*}} = pto.tensor.row_max %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
// CHECK: %{{.*}} = pto.tensor.row_min %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
// CHECK: %{{.*}} = pto.tensor.row_prod %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
// CHECK: %{{.*}} = pto.tensor.col_sum %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
// CHECK: %{{.*}} = pto.tensor.col_max %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
// CHECK: %{{.*}} = pto.tensor.col_min %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
// CHECK: %{{.*}} = pto.tensor.col_prod %{{.*}} : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
// CHECK: return
func.func @reductions(%a: !pto.tensor<4x?x64xf32>) {
  %0 = pto.tensor.row_sum %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
  %1 = pto.tensor.row_max %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
  %2 = pto.tensor.row_min %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
  %3 = pto.tensor.row_prod %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x?x1xf32>
  %4 = pto.tensor.col_sum %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
  %5 = pto.tensor.col_max %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
  %6 = pto.tensor.col_min %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
  %7 = pto.tensor.col_prod %a : !pto.tensor<4x?x64xf32> -> !pto.tensor<4x1x64xf32>
  return
}

// Matmuls with transposed operands, out_dtype and init_cond.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%{{.*}}: !pto.tensor<?x32xf16>, %{{.*}}: !pto.tensor<32x64xf16>, %{{.*}}: !pto.tensor<64x32xf16>, %{{.*}}: !pto.tensor<?x64xf32>, %{{.*}}: i1)
// CHECK: %{{.*}} = pto.tensor.matmul %{{.*}}, %{{.*}} : !pto.tensor<?x32xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tensor.matmul %{{.*}}, %{{.*}} {b_trans} : !pto.tensor<?x32xf16>, !pto.tensor<64x32xf16> -> !pto.tensor<?x64xf16>
// CHECK: %{{.*}} = pto.tensor.matmul %{{.*}}, %{{.*}} {a_trans} : !pto.tensor<32x64xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<64x64xbf16>
// CHECK: %{{.*}} = pto.tensor.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} init %{{.*}} : !pto.tensor<?x64xf32>, !pto.tensor<?x32xf16>, !pto.tensor<32x64xf16>
// CHECK: %{{.*}} = pto.tensor.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} {b_trans} : !pto.tensor<?x64xf32>, !pto.tensor<?x32xf16>, !pto.tensor<64x32xf16>
// CHECK: return
func.func @matmul(%a: !pto.tensor<?x32xf16>, %b: !pto.tensor<32x64xf16>, %bt: !pto.tensor<64x32xf16>, %acc: !pto.tensor<?x64xf32>, %p: i1) {
  %0 = pto.tensor.matmul %a, %b : !pto.tensor<?x32xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<?x64xf32>
  %1 = pto.tensor.matmul %a, %bt {b_trans} : !pto.tensor<?x32xf16>, !pto.tensor<64x32xf16> -> !pto.tensor<?x64xf16>
  %2 = pto.tensor.matmul %b, %b {a_trans} : !pto.tensor<32x64xf16>, !pto.tensor<32x64xf16> -> !pto.tensor<64x64xbf16>
  %3 = pto.tensor.matmul_acc %acc, %a, %b init %p : !pto.tensor<?x64xf32>, !pto.tensor<?x32xf16>, !pto.tensor<32x64xf16>
  %4 = pto.tensor.matmul_acc %acc, %a, %bt {b_trans} : !pto.tensor<?x64xf32>, !pto.tensor<?x32xf16>, !pto.tensor<64x32xf16>
  return
}

// Extents of dynamic tensors, in any function.
// CHECK-LABEL: func.func @dims
// CHECK-SAME: (%{{.*}}: !pto.tensor<4x?x64xf32>) -> (index, index) attributes {pto.kind = #pto.kind<incore>}
// CHECK: %{{.*}} = pto.tensor.dim %{{.*}}, 1 : !pto.tensor<4x?x64xf32>
// CHECK: %{{.*}} = pto.tensor.dim %{{.*}}, 2 : !pto.tensor<4x?x64xf32>
// CHECK: return %{{.*}}, %{{.*}} : index, index
func.func @dims(%a: !pto.tensor<4x?x64xf32>) -> (index, index) attributes {pto.kind = #pto.kind<incore>} {
  %0 = pto.tensor.dim %a, 1 : !pto.tensor<4x?x64xf32>
  %1 = pto.tensor.dim %a, 2 : !pto.tensor<4x?x64xf32>
  return %0, %1 : index, index
}

