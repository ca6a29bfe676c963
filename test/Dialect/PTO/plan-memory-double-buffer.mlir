// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(pto-plan-memory{double-buffer=1}))' | FileCheck %s
// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(pto-plan-memory{double-buffer=1 l1-bytes=12288}))' | FileCheck %s --check-prefix=NOROOM

// The K loop loads A and B blocks (4 KiB each in L1). Double-buffered, it is
// unrolled by two (a loop of step 64, then one of step 32 for an odd last
// block) and the loads live to the end of the body: the first half's blocks
// take [0, 8 KiB), the second half's [8, 16 KiB), so the loads of the next
// half never wait for the matmul reading the previous blocks. Each half's
// tiles are marked with their buffer set (pto.buffer_set), which the
// compiled kernel keeps apart too; the odd-block loop's are not.
// CHECK-LABEL: func.func @gemm_block
// CHECK: scf.for {{.*}} step %{{.*}} iter_args
// CHECK: pto.tile.load {{.*}} {pto.buffer_set = 0 : i64} : {{.*}} -> !pto.tile<64x32xf16, mat, addr = 0>
// CHECK: pto.tile.load {{.*}} {pto.buffer_set = 0 : i64} : {{.*}} -> !pto.tile<32x64xf16, mat, addr = 4096>
// CHECK: pto.tile.matmul_acc
// CHECK: pto.tile.load {{.*}} {pto.buffer_set = 1 : i64} : {{.*}} -> !pto.tile<64x32xf16, mat, addr = 8192>
// CHECK: pto.tile.load {{.*}} {pto.buffer_set = 1 : i64} : {{.*}} -> !pto.tile<32x64xf16, mat, addr = 12288>
// CHECK: pto.tile.matmul_acc
// CHECK: scf.yield
// CHECK: scf.for {{.*}} step %c32
// CHECK-NOT: pto.buffer_set
// CHECK: pto.tile.store

// With 12 KiB of L1 the double-buffered plan does not fit: the loop stays
// as written, its two blocks at 0 and 4 KiB.
// NOROOM-LABEL: func.func @gemm_block
// NOROOM: scf.for {{.*}} step %c32
// NOROOM: pto.tile.load {{.*}} -> !pto.tile<64x32xf16, mat, addr = 0>
// NOROOM: pto.tile.load {{.*}} -> !pto.tile<32x64xf16, mat, addr = 4096>
// NOROOM-NOT: scf.for
// NOROOM: pto.tile.store
func.func @gemm_block(%a: !pto.tensor<64x?xf16>, %b: !pto.tensor<?x64xf16>,
                      %c: !pto.tensor<64x64xf32>) -> !pto.tensor<64x64xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %k = pto.tensor.dim %a, 1 : !pto.tensor<64x?xf16>
  %acc0 = pto.tile.create : !pto.tile<64x64xf32, acc>
  %acc = scf.for %k0 = %c0 to %k step %c32 iter_args(%p = %acc0) -> (!pto.tile<64x64xf32, acc>) {
    %a1 = pto.tile.load %a[%c0, %k0] : !pto.tensor<64x?xf16> -> !pto.tile<64x32xf16, mat>
    %b1 = pto.tile.load %b[%k0, %c0] : !pto.tensor<?x64xf16> -> !pto.tile<32x64xf16, mat>
    %a0 = pto.tile.move %a1 : !pto.tile<64x32xf16, mat> -> !pto.tile<64x32xf16, left>
    %b0 = pto.tile.move %b1 : !pto.tile<32x64xf16, mat> -> !pto.tile<32x64xf16, right>
    %first = arith.cmpi eq, %k0, %c0 : index
    %n = pto.tile.matmul_acc %p, %a0, %b0 init %first
        : !pto.tile<64x64xf32, acc>, !pto.tile<64x32xf16, left>, !pto.tile<32x64xf16, right>
    scf.yield %n : !pto.tile<64x64xf32, acc>
  }
  %o = pto.tile.store %acc, %c[%c0, %c0] : !pto.tile<64x64xf32, acc> -> !pto.tensor<64x64xf32>
  return %o : !pto.tensor<64x64xf32>
}
