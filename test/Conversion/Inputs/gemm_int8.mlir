// C = A @ B for int8 A (M x K) and B (K x N), accumulated exactly in int32.
//
// Each in-core call computes one 64 x 64 block of C, walking K in steps of
// 32: the first step overwrites the L0C accumulator (init_cond holds), the
// others accumulate into it. M, N and K are dynamic; edge blocks load with a
// clamped valid shape, so the zero padding adds nothing to the products, and
// the store writes only the valid part of the block.

func.func @gemm_block(%a: !pto.tensor<?x?xi8>, %b: !pto.tensor<?x?xi8>,
                      %c: !pto.tensor<?x?xi32>, %m0: index, %n0: index,
                      %mv: index, %nv: index) -> !pto.tensor<?x?xi32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %k = pto.tensor.dim %a, 1 : !pto.tensor<?x?xi8>
  %acc0 = pto.tile.create : !pto.tile<64x64xi32, acc>
  %acc = scf.for %k0 = %c0 to %k step %c32
      iter_args(%partial = %acc0) -> (!pto.tile<64x64xi32, acc>) {
    %kleft = arith.subi %k, %k0 : index
    %kv = arith.minui %kleft, %c32 : index
    // GM -> L1 (MTE2), L1 -> L0A/L0B (MTE1).
    %a1 = pto.tile.load %a[%m0, %k0] valid [%mv, %kv]
        : !pto.tensor<?x?xi8> -> !pto.tile<64x32xi8, mat>
    %b1 = pto.tile.load %b[%k0, %n0] valid [%kv, %nv]
        : !pto.tensor<?x?xi8> -> !pto.tile<32x64xi8, mat>
    %a0 = pto.tile.move %a1 : !pto.tile<64x32xi8, mat> -> !pto.tile<64x32xi8, left>
    %b0 = pto.tile.move %b1 : !pto.tile<32x64xi8, mat> -> !pto.tile<32x64xi8, right>
    %first = arith.cmpi eq, %k0, %c0 : index
    %next = pto.tile.matmul_acc %partial, %a0, %b0 init %first
        : !pto.tile<64x64xi32, acc>, !pto.tile<64x32xi8, left>, !pto.tile<32x64xi8, right>
    scf.yield %next : !pto.tile<64x64xi32, acc>
  }
  %block = pto.tile.set_validshape %acc[%mv, %nv] : !pto.tile<64x64xi32, acc>
  // L0C -> GM through the fixpipe.
  %out = pto.tile.store %block, %c[%m0, %n0]
      : !pto.tile<64x64xi32, acc> -> !pto.tensor<?x?xi32>
  return %out : !pto.tensor<?x?xi32>
}

func.func @gemm(%a: !pto.tensor<?x?xi8>, %b: !pto.tensor<?x?xi8>,
                %c: !pto.tensor<?x?xi32>) -> !pto.tensor<?x?xi32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = pto.tensor.dim %a, 0 : !pto.tensor<?x?xi8>
  %n = pto.tensor.dim %b, 1 : !pto.tensor<?x?xi8>
  %result = scf.for %m0 = %c0 to %m step %c64
      iter_args(%c_rows = %c) -> (!pto.tensor<?x?xi32>) {
    %mleft = arith.subi %m, %m0 : index
    %mv = arith.minui %mleft, %c64 : index
    %row = scf.for %n0 = %c0 to %n step %c64
        iter_args(%c_cols = %c_rows) -> (!pto.tensor<?x?xi32>) {
      %nleft = arith.subi %n, %n0 : index
      %nv = arith.minui %nleft, %c64 : index
      %next = func.call @gemm_block(%a, %b, %c_cols, %m0, %n0, %mv, %nv)
          : (!pto.tensor<?x?xi8>, !pto.tensor<?x?xi8>, !pto.tensor<?x?xi32>,
             index, index, index, index) -> !pto.tensor<?x?xi32>
      scf.yield %next : !pto.tensor<?x?xi32>
    }
    scf.yield %row : !pto.tensor<?x?xi32>
  }
  return %result : !pto.tensor<?x?xi32>
}
