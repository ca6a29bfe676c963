// RUN: tilekit-opt %s | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s --mlir-print-op-generic | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s -emit-bytecode | tilekit-opt | FileCheck %s

// Round trip of every pto.tile op.

// Data movement and construction.
// CHECK-LABEL: func.func @data_movement
// CHECK-SAME: (%{{.*}}: !pto.tensor<?x64xf32>, %{{.*}}: !pto.tensor<?x64xf32>, %{{.*}}: index, %{{.*}}: index) -> !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = arith.constant 0 : index
// CHECK: %{{.*}} = pto.tile.load %{{.*}}[%{{.*}}, %{{.*}}] valid [%{{.*}}, %{{.*}}] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, mat>
// CHECK: %{{.*}} = pto.tile.create : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.create valid [%{{.*}}, %{{.*}}] : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = arith.constant 1.000000e+00 : f32
// CHECK: %{{.*}} = pto.tile.full %{{.*}} : f32 -> !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.full %{{.*}} valid [%{{.*}}, %{{.*}}] : f32 -> !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.slice %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.slice %{{.*}}[%{{.*}}, %{{.*}}] valid [%{{.*}}, %{{.*}}] pad max : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.assemble %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tile<8x64xf32, vec> into !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.fillpad %{{.*}}, zero : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.fillpad %{{.*}}, min : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.fillpad %{{.*}}, max : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec, pad = max>
// CHECK: %{{.*}} = pto.tile.set_validshape %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.reshape %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<32x32xf32, vec>
// CHECK: %{{.*}} = pto.tile.transpose %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<64x16xf32, vec>
// CHECK: %{{.*}} = pto.tile.read %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.move %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec, addr = 4096>
// CHECK: %{{.*}} = pto.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tile<16x64xf32, vec, addr = 4096> -> !pto.tensor<?x64xf32>
// CHECK: %{{.*}} = pto.tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] atomic_add : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
// CHECK: return %{{.*}} : !pto.tensor<?x64xf32>
func.func @data_movement(%x: !pto.tensor<?x64xf32>, %out: !pto.tensor<?x64xf32>, %i: index, %v: index) -> !pto.tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%i, %c0] valid [%v, %v] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  %full = pto.tile.load %x[%i, %c0] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  %m = pto.tile.load %x[%i, %c0] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, mat>
  %n = pto.tile.create : !pto.tile<16x64xf32, vec>
  %nv = pto.tile.create valid [%v, %v] : !pto.tile<16x64xf32, vec>
  %one = arith.constant 1.0 : f32
  %f = pto.tile.full %one : f32 -> !pto.tile<16x64xf32, vec>
  %fv = pto.tile.full %one valid [%v, %v] : f32 -> !pto.tile<16x64xf32, vec>
  %s = pto.tile.slice %t[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf32, vec>
  %sv = pto.tile.slice %t[%c0, %c0] valid [%v, %v] pad max : !pto.tile<16x64xf32, vec> -> !pto.tile<8x64xf32, vec>
  %a = pto.tile.assemble %s into %t[%c0, %c0] : !pto.tile<8x64xf32, vec> into !pto.tile<16x64xf32, vec>
  %p0 = pto.tile.fillpad %t, zero : !pto.tile<16x64xf32, vec>
  %p1 = pto.tile.fillpad %t, min : !pto.tile<16x64xf32, vec>
  %p2 = pto.tile.fillpad %t, max : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec, pad = max>
  %vs = pto.tile.set_validshape %t[%v, %v] : !pto.tile<16x64xf32, vec>
  %r = pto.tile.reshape %t : !pto.tile<16x64xf32, vec> -> !pto.tile<32x32xf32, vec>
  %tr = pto.tile.transpose %t : !pto.tile<16x64xf32, vec> -> !pto.tile<64x16xf32, vec>
  %e = pto.tile.read %t[%c0, %c0] : !pto.tile<16x64xf32, vec>
  %w = pto.tile.write %e, %t[%c0, %c0] : !pto.tile<16x64xf32, vec>
  %mv = pto.tile.move %w : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec, addr = 4096>
  %o = pto.tile.store %mv, %out[%i, %c0] : !pto.tile<16x64xf32, vec, addr = 4096> -> !pto.tensor<?x64xf32>
  %o2 = pto.tile.store %t, %o[%i, %c0] atomic_add : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  return %o2 : !pto.tensor<?x64xf32>
}

// Elementwise tile-tile ops on floats.
// CHECK-LABEL: func.func @binary_float
// CHECK-SAME: (%{{.*}}: !pto.tile<16x64xf32, vec>, %{{.*}}: !pto.tile<16x64xf32, vec>)
// CHECK: %{{.*}} = pto.tile.add %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.sub %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.mul %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.div %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.max %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.min %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.rem %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.add %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec, addr = 0>
// CHECK: return
func.func @binary_float(%a: !pto.tile<16x64xf32, vec>, %b: !pto.tile<16x64xf32, vec>) {
  %0 = pto.tile.add %a, %b : !pto.tile<16x64xf32, vec>
  %1 = pto.tile.sub %a, %b : !pto.tile<16x64xf32, vec>
  %2 = pto.tile.mul %a, %b : !pto.tile<16x64xf32, vec>
  %3 = pto.tile.div %a, %b : !pto.tile<16x64xf32, vec>
  %4 = pto.tile.max %a, %b : !pto.tile<16x64xf32, vec>
  %5 = pto.tile.min %a, %b : !pto.tile<16x64xf32, vec>
  %6 = pto.tile.rem %a, %b : !pto.tile<16x64xf32, vec>
  %7 = pto.tile.add %a, %b : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec, addr = 0>
  return
}

// Elementwise tile-tile ops on integers, including the bitwise ones.
// CHECK-LABEL: func.func @binary_int
// CHECK-SAME: (%{{.*}}: !pto.tile<16x64xi32, vec>, %{{.*}}: !pto.tile<16x64xi32, vec>)
// CHECK: %{{.*}} = pto.tile.and %{{.*}}, %{{.*}} : !pto.tile<16x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.or %{{.*}}, %{{.*}} : !pto.tile<16x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.xor %{{.*}}, %{{.*}} : !pto.tile<16x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.shl %{{.*}}, %{{.*}} : !pto.tile<16x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.shr %{{.*}}, %{{.*}} : !pto.tile<16x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.rem %{{.*}}, %{{.*}} : !pto.tile<16x64xi32, vec>
// CHECK: return
func.func @binary_int(%a: !pto.tile<16x64xi32, vec>, %b: !pto.tile<16x64xi32, vec>) {
  %0 = pto.tile.and %a, %b : !pto.tile<16x64xi32, vec>
  %1 = pto.tile.or %a, %b : !pto.tile<16x64xi32, vec>
  %2 = pto.tile.xor %a, %b : !pto.tile<16x64xi32, vec>
  %3 = pto.tile.shl %a, %b : !pto.tile<16x64xi32, vec>
  %4 = pto.tile.shr %a, %b : !pto.tile<16x64xi32, vec>
  %5 = pto.tile.rem %a, %b : !pto.tile<16x64xi32, vec>
  return
}

// Tile-scalar forms.
// CHECK-LABEL: func.func @scalar_forms
// CHECK-SAME: (%{{.*}}: !pto.tile<16x64xf16, vec>, %{{.*}}: !pto.tile<16x64xi16, vec>, %{{.*}}: f32, %{{.*}}: i16)
// CHECK: %{{.*}} = pto.tile.adds %{{.*}}, %{{.*}} : !pto.tile<16x64xf16, vec>, f32
// CHECK: %{{.*}} = pto.tile.subs %{{.*}}, %{{.*}} : !pto.tile<16x64xf16, vec>, f32
// CHECK: %{{.*}} = pto.tile.muls %{{.*}}, %{{.*}} : !pto.tile<16x64xf16, vec>, f32
// CHECK: %{{.*}} = pto.tile.divs %{{.*}}, %{{.*}} : !pto.tile<16x64xf16, vec>, f32
// CHECK: %{{.*}} = pto.tile.maxs %{{.*}}, %{{.*}} : !pto.tile<16x64xf16, vec>, f32
// CHECK: %{{.*}} = pto.tile.mins %{{.*}}, %{{.*}} : !pto.tile<16x64xf16, vec>, f32
// CHECK: %{{.*}} = pto.tile.rems %{{.*}}, %{{.*}} : !pto.tile<16x64xf16, vec>, f32
// CHECK: %{{.*}} = pto.tile.ands %{{.*}}, %{{.*}} : !pto.tile<16x64xi16, vec>, i16
// CHECK: %{{.*}} = pto.tile.ors %{{.*}}, %{{.*}} : !pto.tile<16x64xi16, vec>, i16
// CHECK: %{{.*}} = pto.tile.xors %{{.*}}, %{{.*}} : !pto.tile<16x64xi16, vec>, i16
// CHECK: %{{.*}} = pto.tile.shls %{{.*}}, %{{.*}} : !pto.tile<16x64xi16, vec>, i16
// CHECK: %{{.*}} = pto.tile.shrs %{{.*}}, %{{.*}} : !pto.tile<16x64xi16, vec>, i16
// CHECK: return
func.func @scalar_forms(%a: !pto.tile<16x64xf16, vec>, %k: !pto.tile<16x64xi16, vec>, %s: f32, %n: i16) {
  %0 = pto.tile.adds %a, %s : !pto.tile<16x64xf16, vec>, f32
  %1 = pto.tile.subs %a, %s : !pto.tile<16x64xf16, vec>, f32
  %2 = pto.tile.muls %a, %s : !pto.tile<16x64xf16, vec>, f32
  %3 = pto.tile.divs %a, %s : !pto.tile<16x64xf16, vec>, f32
  %4 = pto.tile.maxs %a, %s : !pto.tile<16x64xf16, vec>, f32
  %5 = pto.tile.mins %a, %s : !pto.tile<16x64xf16, vec>, f32
  %6 = pto.tile.rems %a, %s : !pto.tile<16x64xf16, vec>, f32
  %7 = pto.tile.ands %k, %n : !pto.tile<16x64xi16, vec>, i16
  %8 = pto.tile.ors %k, %n : !pto.tile<16x64xi16, vec>, i16
  %9 = pto.tile.xors %k, %n : !pto.tile<16x64xi16, vec>, i16
  %10 = pto.tile.shls %k, %n : !pto.tile<16x64xi16, vec>, i16
  %11 = pto.tile.shrs %k, %n : !pto.tile<16x64xi16, vec>, i16
  return
}

// Unary ops.
// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%{{.*}}: !pto.tile<16x64xbf16, vec>, %{{.*}}: !pto.tile<16x64xi8, vec>)
// CHECK: %{{.*}} = pto.tile.neg %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.exp %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.log %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.sqrt %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.rsqrt %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.recip %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.abs %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.relu %{{.*}} : !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.not %{{.*}} : !pto.tile<16x64xi8, vec>
// CHECK: return
func.func @unary(%a: !pto.tile<16x64xbf16, vec>, %k: !pto.tile<16x64xi8, vec>) {
  %0 = pto.tile.neg %a : !pto.tile<16x64xbf16, vec>
  %1 = pto.tile.exp %a : !pto.tile<16x64xbf16, vec>
  %2 = pto.tile.log %a : !pto.tile<16x64xbf16, vec>
  %3 = pto.tile.sqrt %a : !pto.tile<16x64xbf16, vec>
  %4 = pto.tile.rsqrt %a : !pto.tile<16x64xbf16, vec>
  %5 = pto.tile.recip %a : !pto.tile<16x64xbf16, vec>
  %6 = pto.tile.abs %a : !pto.tile<16x64xbf16, vec>
  %7 = pto.tile.relu %a : !pto.tile<16x64xbf16, vec>
  %8 = pto.tile.not %k : !pto.tile<16x64xi8, vec>
  return
}

// Casts, comparisons and selects.
// CHECK-LABEL: func.func @cast_cmp_sel
// CHECK-SAME: (%{{.*}}: !pto.tile<16x64xf32, vec>, %{{.*}}: !pto.tile<16x64xf32, vec>, %{{.*}}: f32)
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf16, vec>
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} round rint : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xbf16, vec>
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} round trunc : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} round odd : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf16, vec>
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} round round : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi8, vec>
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} round floor : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi16, vec>
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} round ceil : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi64, vec>
// CHECK: %{{.*}} = pto.tile.cast %{{.*}} round none : !pto.tile<16x64xi32, vec> -> !pto.tile<16x64xui8, vec>
// CHECK: %{{.*}} = pto.tile.cmp eq, %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
// CHECK: %{{.*}} = pto.tile.cmp ne, %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
// CHECK: %{{.*}} = pto.tile.cmp lt, %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
// CHECK: %{{.*}} = pto.tile.cmp le, %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
// CHECK: %{{.*}} = pto.tile.cmp gt, %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
// CHECK: %{{.*}} = pto.tile.cmps ge, %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, f32 -> !pto.tile<16x64xi1, vec>
// CHECK: %{{.*}} = pto.tile.sel %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile<16x64xi1, vec>, !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.sels %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile<16x64xi1, vec>, !pto.tile<16x64xf32, vec>, f32
// CHECK: return
func.func @cast_cmp_sel(%a: !pto.tile<16x64xf32, vec>, %b: !pto.tile<16x64xf32, vec>, %s: f32) {
  %c0 = pto.tile.cast %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf16, vec>
  %c1 = pto.tile.cast %a round rint : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xbf16, vec>
  %c2 = pto.tile.cast %a round trunc : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi32, vec>
  %c3 = pto.tile.cast %a round odd : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf16, vec>
  %c4 = pto.tile.cast %a round round : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi8, vec>
  %c5 = pto.tile.cast %a round floor : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi16, vec>
  %c6 = pto.tile.cast %a round ceil : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi64, vec>
  %c7 = pto.tile.cast %c2 round none : !pto.tile<16x64xi32, vec> -> !pto.tile<16x64xui8, vec>
  %m0 = pto.tile.cmp eq, %a, %b : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
  %m1 = pto.tile.cmp ne, %a, %b : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
  %m2 = pto.tile.cmp lt, %a, %b : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
  %m3 = pto.tile.cmp le, %a, %b : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
  %m4 = pto.tile.cmp gt, %a, %b : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
  %m5 = pto.tile.cmps ge, %a, %s : !pto.tile<16x64xf32, vec>, f32 -> !pto.tile<16x64xi1, vec>
  %s0 = pto.tile.sel %m0, %a, %b : !pto.tile<16x64xi1, vec>, !pto.tile<16x64xf32, vec>
  %s1 = pto.tile.sels %m5, %a, %s : !pto.tile<16x64xi1, vec>, !pto.tile<16x64xf32, vec>, f32
  return
}

// Row and column reductions and broadcasts.
// CHECK-LABEL: func.func @reduce_expand
// CHECK-SAME: (%{{.*}}: !pto.tile<16x64xf32, vec>, %{{.*}}: !pto.tile<16x1xf32, vec>, %{{.*}}: !pto.tile<1x64xf32, vec>)
// CHECK: %{{.*}} = pto.tile.row_sum %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_max %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_min %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_prod %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_sum %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_max %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_min %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_prod %{{.*}} : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand %{{.*}} : !pto.tile<16x1xf32, vec> -> !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand %{{.*}} : !pto.tile<1x64xf32, vec> -> !pto.tile<16x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand_add %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand_sub %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand_mul %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand_div %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand_max %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand_min %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.row_expand_expdif %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand_add %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand_sub %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand_mul %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand_div %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand_max %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand_min %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_expand_expdif %{{.*}}, %{{.*}} : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
// CHECK: return
func.func @reduce_expand(%a: !pto.tile<16x64xf32, vec>, %r: !pto.tile<16x1xf32, vec>, %c: !pto.tile<1x64xf32, vec>) {
  %0 = pto.tile.row_sum %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %1 = pto.tile.row_max %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %2 = pto.tile.row_min %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %3 = pto.tile.row_prod %a : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
  %4 = pto.tile.col_sum %a : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  %5 = pto.tile.col_max %a : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  %6 = pto.tile.col_min %a : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  %7 = pto.tile.col_prod %a : !pto.tile<16x64xf32, vec> -> !pto.tile<1x64xf32, vec>
  %8 = pto.tile.row_expand %r : !pto.tile<16x1xf32, vec> -> !pto.tile<16x64xf32, vec>
  %9 = pto.tile.col_expand %c : !pto.tile<1x64xf32, vec> -> !pto.tile<16x64xf32, vec>
  %10 = pto.tile.row_expand_add %a, %r : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %11 = pto.tile.row_expand_sub %a, %r : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %12 = pto.tile.row_expand_mul %a, %r : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %13 = pto.tile.row_expand_div %a, %r : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %14 = pto.tile.row_expand_max %a, %r : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %15 = pto.tile.row_expand_min %a, %r : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %16 = pto.tile.row_expand_expdif %a, %r : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
  %17 = pto.tile.col_expand_add %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  %18 = pto.tile.col_expand_sub %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  %19 = pto.tile.col_expand_mul %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  %20 = pto.tile.col_expand_div %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  %21 = pto.tile.col_expand_max %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  %22 = pto.tile.col_expand_min %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  %23 = pto.tile.col_expand_expdif %a, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
  return
}

// Cube ops: matmul family with and without init_cond, moves along the cube paths.
// CHECK-LABEL: func.func @cube
// CHECK-SAME: (%{{.*}}: !pto.tensor<64x64xf16>, %{{.*}}: !pto.tile<64x64xf32, acc>, %{{.*}}: index)
// CHECK: %{{.*}} = arith.constant 0 : index
// CHECK: %{{.*}} = pto.tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !pto.tensor<64x64xf16> -> !pto.tile<64x64xf16, mat>
// CHECK: %{{.*}} = pto.tile.move %{{.*}} : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
// CHECK: %{{.*}} = pto.tile.move %{{.*}} : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
// CHECK: %{{.*}} = pto.tile.matmul %{{.*}}, %{{.*}} : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc>
// CHECK: %{{.*}} = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK: %{{.*}} = pto.tile.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} init %{{.*}} : !pto.tile<64x64xf32, acc>, !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right>
// CHECK: %{{.*}} = pto.tile.matmul_acc %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile<64x64xf32, acc>, !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc, addr = 0>
// CHECK: %{{.*}} = pto.tile.create : !pto.tile<1x64xf32, bias>
// CHECK: %{{.*}} = pto.tile.matmul_bias %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right>, !pto.tile<1x64xf32, bias> -> !pto.tile<64x64xf32, acc>
// CHECK: %{{.*}} = pto.tile.move %{{.*}} : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.move %{{.*}} : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf16, mat>
// CHECK: return
func.func @cube(%x: !pto.tensor<64x64xf16>, %acc: !pto.tile<64x64xf32, acc>, %k: index) {
  %c0 = arith.constant 0 : index
  %l1 = pto.tile.load %x[%c0, %c0] : !pto.tensor<64x64xf16> -> !pto.tile<64x64xf16, mat>
  %a = pto.tile.move %l1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
  %b = pto.tile.move %l1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
  %c = pto.tile.matmul %a, %b : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc>
  %first = arith.cmpi eq, %k, %c0 : index
  %d = pto.tile.matmul_acc %c, %a, %b init %first : !pto.tile<64x64xf32, acc>, !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right>
  %e = pto.tile.matmul_acc %d, %a, %b : !pto.tile<64x64xf32, acc>, !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc, addr = 0>
  %bias = pto.tile.create : !pto.tile<1x64xf32, bias>
  %f = pto.tile.matmul_bias %a, %b, %bias : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right>, !pto.tile<1x64xf32, bias> -> !pto.tile<64x64xf32, acc>
  %v = pto.tile.move %f : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
  %h = pto.tile.move %f : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf16, mat>
  return
}

// Batched matmul and GEMV.
// CHECK-LABEL: func.func @batch_gemv
// CHECK-SAME: (%{{.*}}: !pto.tile<4x32x32xf16, left>, %{{.*}}: !pto.tile<4x32x32xf16, right>, %{{.*}}: !pto.tile<4x32x32xf32, acc>, %{{.*}}: !pto.tile<1x32xi8, left>, %{{.*}}: !pto.tile<32x32xi8, right>, %{{.*}}: !pto.tile<1x32xi32, acc>, %{{.*}}: i1)
// CHECK: %{{.*}} = pto.tile.batch_matmul %{{.*}}, %{{.*}} : !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right> -> !pto.tile<4x32x32xf32, acc>
// CHECK: %{{.*}} = pto.tile.batch_matmul_acc %{{.*}}, %{{.*}}, %{{.*}} init %{{.*}} : !pto.tile<4x32x32xf32, acc>, !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right>
// CHECK: %{{.*}} = pto.tile.batch_matmul_acc %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile<4x32x32xf32, acc>, !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right>
// CHECK: %{{.*}} = pto.tile.gemv %{{.*}}, %{{.*}} : !pto.tile<1x32xi8, left>, !pto.tile<32x32xi8, right> -> !pto.tile<1x32xi32, acc>
// CHECK: %{{.*}} = pto.tile.gemv_acc %{{.*}}, %{{.*}}, %{{.*}} init %{{.*}} : !pto.tile<1x32xi32, acc>, !pto.tile<1x32xi8, left>, !pto.tile<32x32xi8, right>
// CHECK: %{{.*}} = pto.tile.gemv_acc %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile<1x32xi32, acc>, !pto.tile<1x32xi8, left>, !pto.tile<32x32xi8, right>
// CHECK: return
func.func @batch_gemv(%a: !pto.tile<4x32x32xf16, left>, %b: !pto.tile<4x32x32xf16, right>, %acc: !pto.tile<4x32x32xf32, acc>,
                      %va: !pto.tile<1x32xi8, left>, %vb: !pto.tile<32x32xi8, right>, %vacc: !pto.tile<1x32xi32, acc>, %p: i1) {
  %0 = pto.tile.batch_matmul %a, %b : !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right> -> !pto.tile<4x32x32xf32, acc>
  %1 = pto.tile.batch_matmul_acc %acc, %a, %b init %p : !pto.tile<4x32x32xf32, acc>, !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right>
  %2 = pto.tile.batch_matmul_acc %acc, %a, %b : !pto.tile<4x32x32xf32, acc>, !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right>
  %3 = pto.tile.gemv %va, %vb : !pto.tile<1x32xi8, left>, !pto.tile<32x32xi8, right> -> !pto.tile<1x32xi32, acc>
  %4 = pto.tile.gemv_acc %vacc, %va, %vb init %p : !pto.tile<1x32xi32, acc>, !pto.tile<1x32xi8, left>, !pto.tile<32x32xi8, right>
  %5 = pto.tile.gemv_acc %vacc, %va, %vb : !pto.tile<1x32xi32, acc>, !pto.tile<1x32xi8, left>, !pto.tile<32x32xi8, right>
  return
}

// Block and lane queries.
// CHECK-LABEL: func.func @queries
// CHECK-SAME: () -> (index, index, index)
// CHECK: %{{.*}} = pto.tile.get_subblock_idx
// CHECK: %{{.*}} = pto.tile.get_block_idx
// CHECK: %{{.*}} = pto.tile.get_block_num
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : index, index, index
func.func @queries() -> (index, index, index) {
  %0 = pto.tile.get_subblock_idx
  %1 = pto.tile.get_block_idx
  %2 = pto.tile.get_block_num
  return %0, %1, %2 : index, index, index
}


// -----
// Index sequences, scans, selection, sorting, gather, scatter, valid shape,
// and the tanh/sigmoid/erf unary ops.
// CHECK-LABEL: func.func @index_ops
// CHECK: %{{.*}} = pto.tile.iota %{{.*}} : i32 -> !pto.tile<1x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.iota %{{.*}} descending : i32 -> !pto.tile<1x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.row_cumsum %{{.*}} : !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.col_cumsum %{{.*}} : !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}}, %{{.*}} = pto.tile.row_argmax %{{.*}} : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
// CHECK: %{{.*}}, %{{.*}} = pto.tile.row_argmin %{{.*}} : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
// CHECK: %{{.*}}, %{{.*}} = pto.tile.sort32 %{{.*}} : !pto.tile<8x64xf32, vec> -> !pto.tile<8x64xf32, vec>, !pto.tile<8x64xi32, vec>
// CHECK: %{{.*}}, %{{.*}} = pto.tile.mrgsort %{{.*}}, %{{.*}} block 32 : !pto.tile<8x64xf32, vec>, !pto.tile<8x64xi32, vec>
// CHECK: %{{.*}} = pto.tile.gather %{{.*}}, %{{.*}} : !pto.tile<8x64xf32, vec>, !pto.tile<1x64xi32, vec> -> !pto.tile<1x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.scatter %{{.*}}, %{{.*}} into %{{.*}} : !pto.tile<1x64xf32, vec>, !pto.tile<1x64xi32, vec> into !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.valid_dim %{{.*}}, 1 : !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.tanh %{{.*}} : !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.sigmoid %{{.*}} : !pto.tile<8x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.erf %{{.*}} : !pto.tile<8x64xf32, vec>
func.func @index_ops(%t: !pto.tile<8x64xf32, vec>, %s: i32) -> index {
  %i = pto.tile.iota %s : i32 -> !pto.tile<1x64xi32, vec>
  %d = pto.tile.iota %s descending : i32 -> !pto.tile<1x64xi32, vec>
  %rc = pto.tile.row_cumsum %t : !pto.tile<8x64xf32, vec>
  %cc = pto.tile.col_cumsum %t : !pto.tile<8x64xf32, vec>
  %mx, %mxi = pto.tile.row_argmax %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
  %mn, %mni = pto.tile.row_argmin %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
  %sv, %si = pto.tile.sort32 %t : !pto.tile<8x64xf32, vec> -> !pto.tile<8x64xf32, vec>, !pto.tile<8x64xi32, vec>
  %mv, %mi = pto.tile.mrgsort %sv, %si block 32 : !pto.tile<8x64xf32, vec>, !pto.tile<8x64xi32, vec>
  %g = pto.tile.gather %t, %i : !pto.tile<8x64xf32, vec>, !pto.tile<1x64xi32, vec> -> !pto.tile<1x64xf32, vec>
  %sc = pto.tile.scatter %g, %i into %t : !pto.tile<1x64xf32, vec>, !pto.tile<1x64xi32, vec> into !pto.tile<8x64xf32, vec>
  %n = pto.tile.valid_dim %sc, 1 : !pto.tile<8x64xf32, vec>
  %th = pto.tile.tanh %t : !pto.tile<8x64xf32, vec>
  %sg = pto.tile.sigmoid %t : !pto.tile<8x64xf32, vec>
  %ef = pto.tile.erf %t : !pto.tile<8x64xf32, vec>
  return %n : index
}
