// Kernels of test/Dialect/PTO/plan-memory.mlir, run before and after
// planning by test/Interp/planned-kernels.test.

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
