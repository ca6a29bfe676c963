// RUN: tilekit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(pto-plan-memory))' | FileCheck %s

// Straight line. Every tile is 16x16xf32 = 1024 B (UB aligns to 32 B).
// %a and %b die at the add that defines %c: an elementwise op may write its
// result over an operand it reads last, so %c takes %a's bytes, and %d
// those of %c. 2048 B in all.
// CHECK-LABEL: func.func @straight
// CHECK: pto.tile.full {{.*}} -> !pto.tile<16x16xf32, vec, addr = 0>
// CHECK: pto.tile.full {{.*}} -> !pto.tile<16x16xf32, vec, addr = 1024>
// CHECK: pto.tile.add {{.*}} : !pto.tile<16x16xf32, vec, addr = 0>, !pto.tile<16x16xf32, vec, addr = 1024>{{$}}
// CHECK: pto.tile.exp {{.*}} : !pto.tile<16x16xf32, vec, addr = 0>{{$}}
func.func @straight(%y: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = pto.tile.full %one : f32 -> !pto.tile<16x16xf32, vec>
  %b = pto.tile.full %one : f32 -> !pto.tile<16x16xf32, vec>
  %c = pto.tile.add %a, %b : !pto.tile<16x16xf32, vec>
  %d = pto.tile.exp %c : !pto.tile<16x16xf32, vec>
  %o = pto.tile.store %d, %y[%c0, %c0] : !pto.tile<16x16xf32, vec> -> !pto.tensor<16x16xf32>
  return %o : !pto.tensor<16x16xf32>
}

// -----

// A loop-carried accumulator: the init, the iter_arg, the matmul that
// updates it and the loop's result are one storage (L0C, 64x64xf32 =
// 16 KiB at 0). The loads of one iteration are live together: 64x32xf16
// is 4 KiB, so %b1 goes above %a1 in L1; each L0 buffer holds one tile.
// CHECK-LABEL: func.func @gemm_block
// CHECK: pto.tile.create : !pto.tile<64x64xf32, acc, addr = 0>
// CHECK: scf.for {{.*}} -> (!pto.tile<64x64xf32, acc, addr = 0>)
// CHECK: pto.tile.load {{.*}} -> !pto.tile<64x32xf16, mat, addr = 0>
// CHECK: pto.tile.load {{.*}} -> !pto.tile<32x64xf16, mat, addr = 4096>
// CHECK: pto.tile.move {{.*}} -> !pto.tile<64x32xf16, left, addr = 0>
// CHECK: pto.tile.move {{.*}} -> !pto.tile<32x64xf16, right, addr = 0>
// CHECK: pto.tile.matmul_acc {{.*}} : !pto.tile<64x64xf32, acc, addr = 0>,
// CHECK: scf.yield {{.*}} : !pto.tile<64x64xf32, acc, addr = 0>
// CHECK: pto.tile.store {{.*}} : !pto.tile<64x64xf32, acc, addr = 0>
func.func @gemm_block(%a: !pto.tensor<64x64xf16>, %b: !pto.tensor<64x64xf16>,
                      %c: !pto.tensor<64x64xf32>) -> !pto.tensor<64x64xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %acc0 = pto.tile.create : !pto.tile<64x64xf32, acc>
  %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%p = %acc0) -> (!pto.tile<64x64xf32, acc>) {
    %a1 = pto.tile.load %a[%c0, %k] : !pto.tensor<64x64xf16> -> !pto.tile<64x32xf16, mat>
    %b1 = pto.tile.load %b[%k, %c0] : !pto.tensor<64x64xf16> -> !pto.tile<32x64xf16, mat>
    %a0 = pto.tile.move %a1 : !pto.tile<64x32xf16, mat> -> !pto.tile<64x32xf16, left>
    %b0 = pto.tile.move %b1 : !pto.tile<32x64xf16, mat> -> !pto.tile<32x64xf16, right>
    %first = arith.cmpi eq, %k, %c0 : index
    %n = pto.tile.matmul_acc %p, %a0, %b0 init %first
        : !pto.tile<64x64xf32, acc>, !pto.tile<64x32xf16, left>, !pto.tile<32x64xf16, right>
    scf.yield %n : !pto.tile<64x64xf32, acc>
  }
  %o = pto.tile.store %acc, %c[%c0, %c0] : !pto.tile<64x64xf32, acc> -> !pto.tensor<64x64xf32>
  return %o : !pto.tensor<64x64xf32>
}

// -----

// The two branches of an scf.if run one at a time: their tiles may share
// bytes, and each branch's yield shares the result's storage. Tiles are
// 8x8xf32 = 256 B: %x at 0 (read in both branches); the then-branch's %t
// at 256, and the result (%u, %v) there too, written over %t by the add;
// the else-branch's %e at 512, since the result's storage is taken from
// the first branch on.
// CHECK-LABEL: func.func @branches
// CHECK: pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: scf.if {{.*}} -> (!pto.tile<8x8xf32, vec, addr = 256>)
// CHECK: pto.tile.exp {{.*}} -> !pto.tile<8x8xf32, vec, addr = 256>
// CHECK: pto.tile.add {{.*}} : !pto.tile<8x8xf32, vec, addr = 256>, !pto.tile<8x8xf32, vec, addr = 0>{{$}}
// CHECK: } else {
// CHECK: pto.tile.muls {{.*}} -> !pto.tile<8x8xf32, vec, addr = 512>
// CHECK: pto.tile.sub {{.*}} -> !pto.tile<8x8xf32, vec, addr = 256>
func.func @branches(%y: !pto.tensor<8x8xf32>, %flag: i1) -> !pto.tensor<8x8xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %x = pto.tile.full %one : f32 -> !pto.tile<8x8xf32, vec>
  %r = scf.if %flag -> (!pto.tile<8x8xf32, vec>) {
    %t = pto.tile.exp %x : !pto.tile<8x8xf32, vec>
    %u = pto.tile.add %t, %x : !pto.tile<8x8xf32, vec>
    scf.yield %u : !pto.tile<8x8xf32, vec>
  } else {
    %e = pto.tile.muls %x, %one : !pto.tile<8x8xf32, vec>, f32
    %v = pto.tile.sub %e, %x : !pto.tile<8x8xf32, vec>
    scf.yield %v : !pto.tile<8x8xf32, vec>
  }
  %o = pto.tile.store %r, %y[%c0, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<8x8xf32>
  return %o : !pto.tensor<8x8xf32>
}

// -----

// An online maximum: %m_new is computed while %m_old is still read, so the
// loop hands a copy of %m_new to the next iteration (before the yield).
// 16x1xf32 is 64 B. %m0 / %m_old / the copy / the result: 0; %x: 64;
// %m_new over %x (the max reads it last); %d: 128.
// CHECK-LABEL: func.func @running_max
// CHECK: pto.tile.full {{.*}} -> !pto.tile<16x1xf32, vec, addr = 0>
// CHECK: scf.for {{.*}} -> (!pto.tile<16x1xf32, vec, addr = 0>)
// CHECK: pto.tile.load {{.*}} -> !pto.tile<16x1xf32, vec, addr = 64>
// CHECK: %[[NEW:.+]] = pto.tile.max {{.*}} -> !pto.tile<16x1xf32, vec, addr = 64>
// CHECK: pto.tile.sub {{.*}} -> !pto.tile<16x1xf32, vec, addr = 128>
// CHECK: %[[COPY:.+]] = pto.tile.move %[[NEW]] : !pto.tile<16x1xf32, vec, addr = 64> -> !pto.tile<16x1xf32, vec, addr = 0>
// CHECK: scf.yield %[[COPY]]
func.func @running_max(%src: !pto.tensor<16x64xf32>, %y: !pto.tensor<16x1xf32>,
                       %d_out: !pto.tensor<16x1xf32>) -> !pto.tensor<16x1xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %lowest = arith.constant -1.0e30 : f32
  %m0 = pto.tile.full %lowest : f32 -> !pto.tile<16x1xf32, vec>
  %m = scf.for %j = %c0 to %c64 step %c1 iter_args(%m_old = %m0) -> (!pto.tile<16x1xf32, vec>) {
    %x = pto.tile.load %src[%c0, %j] : !pto.tensor<16x64xf32> -> !pto.tile<16x1xf32, vec>
    %m_new = pto.tile.max %m_old, %x : !pto.tile<16x1xf32, vec>
    %d = pto.tile.sub %m_old, %m_new : !pto.tile<16x1xf32, vec>
    %o = pto.tile.store %d, %d_out[%c0, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<16x1xf32>
    scf.yield %m_new : !pto.tile<16x1xf32, vec>
  }
  %o = pto.tile.store %m, %y[%c0, %c0] : !pto.tile<16x1xf32, vec> -> !pto.tensor<16x1xf32>
  return %o : !pto.tensor<16x1xf32>
}

// -----

// scf.while: the before region hands %t to the after region, whose add
// updates it in place (an elementwise op may write over the operand it reads
// last); all of them and the result are one 256 B storage at 0.
// CHECK-LABEL: func.func @while_loop
// CHECK: pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: scf.while {{.*}} -> (i32, !pto.tile<8x8xf32, vec, addr = 0>)
// CHECK: scf.condition{{.*}} !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: pto.tile.add {{.*}} : !pto.tile<8x8xf32, vec, addr = 0>
// CHECK-NOT: pto.tile.move
// CHECK: pto.tile.store
func.func @while_loop(%y: !pto.tensor<8x8xf32>, %n: i32) -> !pto.tensor<8x8xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %f = arith.constant 1.0 : f32
  %t0 = pto.tile.full %f : f32 -> !pto.tile<8x8xf32, vec>
  %r:2 = scf.while (%i = %zero, %t = %t0) : (i32, !pto.tile<8x8xf32, vec>) -> (i32, !pto.tile<8x8xf32, vec>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %t : i32, !pto.tile<8x8xf32, vec>
  } do {
  ^bb0(%i2: i32, %t2: !pto.tile<8x8xf32, vec>):
    %d = pto.tile.add %t2, %t2 : !pto.tile<8x8xf32, vec>
    %i3 = arith.addi %i2, %one : i32
    scf.yield %i3, %d : i32, !pto.tile<8x8xf32, vec>
  }
  %o = pto.tile.store %r#1, %y[%c0, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<8x8xf32>
  return %o : !pto.tensor<8x8xf32>
}

// -----

// tile.write updates its destination in place, but %t is stored after the
// write: the write updates a copy (at 256), %t keeps 0.
// CHECK-LABEL: func.func @in_place
// CHECK: %[[T:.+]] = pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: %[[C:.+]] = pto.tile.move %[[T]] : !pto.tile<8x8xf32, vec, addr = 0> -> !pto.tile<8x8xf32, vec, addr = 256>
// CHECK: pto.tile.write %{{.*}}, %[[C]][{{.*}}] : !pto.tile<8x8xf32, vec, addr = 256>
// CHECK: pto.tile.store %[[T]]
func.func @in_place(%y: !pto.tensor<8x8xf32>, %z: !pto.tensor<8x8xf32>) -> !pto.tensor<8x8xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %g = arith.constant 2.0 : f32
  %t = pto.tile.full %f : f32 -> !pto.tile<8x8xf32, vec>
  %w = pto.tile.write %g, %t[%c1, %c1] : !pto.tile<8x8xf32, vec>
  %o1 = pto.tile.store %w, %y[%c0, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<8x8xf32>
  %o2 = pto.tile.store %t, %z[%c0, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<8x8xf32>
  return %o1 : !pto.tensor<8x8xf32>
}

// -----

// A given address is kept, and planned tiles live at the same time avoid
// it: %a holds [256, 512), so %b takes [0, 256) and %c [512, 768); %d is
// written over %b, %e over %d.
// CHECK-LABEL: func.func @fixed
// CHECK: pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 256>
// CHECK: pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 512>
// CHECK: pto.tile.add {{.*}} -> !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: pto.tile.add {{.*}} : !pto.tile<8x8xf32, vec, addr = 0>, !pto.tile<8x8xf32, vec, addr = 512>{{$}}
func.func @fixed(%y: !pto.tensor<8x8xf32>) -> !pto.tensor<8x8xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %a = pto.tile.full %f : f32 -> !pto.tile<8x8xf32, vec, addr = 256>
  %b = pto.tile.full %f : f32 -> !pto.tile<8x8xf32, vec>
  %c = pto.tile.full %f : f32 -> !pto.tile<8x8xf32, vec>
  %d = pto.tile.add %a, %b : !pto.tile<8x8xf32, vec, addr = 256>, !pto.tile<8x8xf32, vec> -> !pto.tile<8x8xf32, vec>
  %e = pto.tile.add %d, %c : !pto.tile<8x8xf32, vec>
  %o = pto.tile.store %e, %y[%c0, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<8x8xf32>
  return %o : !pto.tensor<8x8xf32>
}

// -----

// The loop's init is read after the loop: the loop gets a copy of it.
// CHECK-LABEL: func.func @init_kept
// CHECK: %[[X:.+]] = pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: %[[C:.+]] = pto.tile.move %[[X]] : !pto.tile<8x8xf32, vec, addr = 0> -> !pto.tile<8x8xf32, vec, addr = 256>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[C]]) -> (!pto.tile<8x8xf32, vec, addr = 256>)
// CHECK: pto.tile.sub %{{.*}}, %[[X]]
func.func @init_kept(%y: !pto.tensor<8x8xf32>) -> !pto.tensor<8x8xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %x0 = pto.tile.full %f : f32 -> !pto.tile<8x8xf32, vec>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x0) -> (!pto.tile<8x8xf32, vec>) {
    %n = pto.tile.add %a, %a : !pto.tile<8x8xf32, vec>
    scf.yield %n : !pto.tile<8x8xf32, vec>
  }
  %s = pto.tile.sub %r, %x0 : !pto.tile<8x8xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<8x8xf32>
  return %o : !pto.tensor<8x8xf32>
}

// -----

// Nested loops, a cube function and functions the planner leaves alone: an
// orchestration function, and one whose tile parameter has no address (the
// caller's storage).
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK: scf.for
// CHECK: pto.tile.load {{.*}} -> !pto.tile<16x16xf16, mat, addr = 0>
// CHECK: pto.tile.move {{.*}} -> !pto.tile<16x16xf16, left, addr = 0>
// CHECK-LABEL: func.func @orchestrate
// CHECK-NOT: addr =
// CHECK-LABEL: func.func @tile_parameter
// CHECK-NOT: addr =
// CHECK: return
func.func @nested(%x: !pto.tensor<64x64xf16>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c16 {
    scf.for %j = %c0 to %c64 step %c16 {
      %m = pto.tile.load %x[%i, %j] : !pto.tensor<64x64xf16> -> !pto.tile<16x16xf16, mat>
      %l = pto.tile.move %m : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
    }
  }
  return
}
func.func @orchestrate(%x: !pto.tensor<64x64xf16>) attributes {pto.kind = #pto.kind<orchestration>} {
  return
}
func.func @tile_parameter(%t: !pto.tile<8x8xf32, vec>) -> !pto.tile<8x8xf32, vec> {
  %e = pto.tile.exp %t : !pto.tile<8x8xf32, vec>
  return %e : !pto.tile<8x8xf32, vec>
}
