// RUN: tilekit-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(pto-plan-memory))' | FileCheck %s

// Straight line. Every tile is 16x16xf32 = 1024 B (UB aligns to 32 B).
// %a and %b die at the add that defines %c, which therefore needs a third
// slot (an op never writes over its operands); %d, defined at the exp where
// %c dies, takes the first free slot: %a's.
// CHECK-LABEL: func.func @straight
// CHECK: pto.tile.full {{.*}} -> !pto.tile<16x16xf32, vec, addr = 0>
// CHECK: pto.tile.full {{.*}} -> !pto.tile<16x16xf32, vec, addr = 1024>
// CHECK: pto.tile.add {{.*}} -> !pto.tile<16x16xf32, vec, addr = 2048>
// CHECK: pto.tile.exp {{.*}} -> !pto.tile<16x16xf32, vec, addr = 0>
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
// at 256; the result (%u, %v) at 512, since %u is defined while %t is
// read; the else-branch's %e at 256 again, the bytes of %t.
// CHECK-LABEL: func.func @branches
// CHECK: pto.tile.full {{.*}} -> !pto.tile<8x8xf32, vec, addr = 0>
// CHECK: scf.if {{.*}} -> (!pto.tile<8x8xf32, vec, addr = 512>)
// CHECK: pto.tile.exp {{.*}} -> !pto.tile<8x8xf32, vec, addr = 256>
// CHECK: pto.tile.add {{.*}} -> !pto.tile<8x8xf32, vec, addr = 512>
// CHECK: } else {
// CHECK: pto.tile.muls {{.*}} -> !pto.tile<8x8xf32, vec, addr = 256>
// CHECK: pto.tile.sub {{.*}} -> !pto.tile<8x8xf32, vec, addr = 512>
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
// %m_new: 128; %d: 64 again (%x is dead after the max).
// CHECK-LABEL: func.func @running_max
// CHECK: pto.tile.full {{.*}} -> !pto.tile<16x1xf32, vec, addr = 0>
// CHECK: scf.for {{.*}} -> (!pto.tile<16x1xf32, vec, addr = 0>)
// CHECK: pto.tile.load {{.*}} -> !pto.tile<16x1xf32, vec, addr = 64>
// CHECK: %[[NEW:.+]] = pto.tile.max {{.*}} -> !pto.tile<16x1xf32, vec, addr = 128>
// CHECK: pto.tile.sub {{.*}} -> !pto.tile<16x1xf32, vec, addr = 64>
// CHECK: %[[COPY:.+]] = pto.tile.move %[[NEW]] : !pto.tile<16x1xf32, vec, addr = 128> -> !pto.tile<16x1xf32, vec, addr = 0>
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
