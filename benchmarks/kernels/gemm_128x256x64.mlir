// The example GEMM (examples/gemm.mlir) with the large tiles of the
// run-speed goal: each in-core call computes a 128 x 256 block of C, walking
// K in steps of 64 (128x64 A and 64x256 B tiles, a 128x256 f32
// accumulator). benchmarks/torch_vs_run.py runs it next to one torch.mm
// (OpenBLAS sgemm, one thread) on the same flops.

func.func @gemm_block(%a: !pto.tensor<?x?xf16>, %b: !pto.tensor<?x?xf16>,
                      %c: !pto.tensor<?x?xf32>, %m0: index, %n0: index,
                      %mv: index, %nv: index) -> !pto.tensor<?x?xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %k = pto.tensor.dim %a, 1 : !pto.tensor<?x?xf16>
  %acc0 = pto.tile.create : !pto.tile<128x256xf32, acc>
  %acc = scf.for %k0 = %c0 to %k step %c64
      iter_args(%partial = %acc0) -> (!pto.tile<128x256xf32, acc>) {
    %kleft = arith.subi %k, %k0 : index
    %kv = arith.minui %kleft, %c64 : index
    // GM -> L1 (MTE2), L1 -> L0A/L0B (MTE1).
    %a1 = pto.tile.load %a[%m0, %k0] valid [%mv, %kv]
        : !pto.tensor<?x?xf16> -> !pto.tile<128x64xf16, mat>
    %b1 = pto.tile.load %b[%k0, %n0] valid [%kv, %nv]
        : !pto.tensor<?x?xf16> -> !pto.tile<64x256xf16, mat>
    %a0 = pto.tile.move %a1 : !pto.tile<128x64xf16, mat> -> !pto.tile<128x64xf16, left>
    %b0 = pto.tile.move %b1 : !pto.tile<64x256xf16, mat> -> !pto.tile<64x256xf16, right>
    %first = arith.cmpi eq, %k0, %c0 : index
    %next = pto.tile.matmul_acc %partial, %a0, %b0 init %first
        : !pto.tile<128x256xf32, acc>, !pto.tile<128x64xf16, left>, !pto.tile<64x256xf16, right>
    scf.yield %next : !pto.tile<128x256xf32, acc>
  }
  %block = pto.tile.set_validshape %acc[%mv, %nv] : !pto.tile<128x256xf32, acc>
  // L0C -> GM through the fixpipe.
  %out = pto.tile.store %block, %c[%m0, %n0]
      : !pto.tile<128x256xf32, acc> -> !pto.tensor<?x?xf32>
  return %out : !pto.tensor<?x?xf32>
}

func.func @gemm(%a: !pto.tensor<?x?xf16>, %b: !pto.tensor<?x?xf16>,
                %c: !pto.tensor<?x?xf32>) -> !pto.tensor<?x?xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m = pto.tensor.dim %a, 0 : !pto.tensor<?x?xf16>
  %n = pto.tensor.dim %b, 1 : !pto.tensor<?x?xf16>
  %result = scf.for %m0 = %c0 to %m step %c128
      iter_args(%c_rows = %c) -> (!pto.tensor<?x?xf32>) {
    %mleft = arith.subi %m, %m0 : index
    %mv = arith.minui %mleft, %c128 : index
    %row = scf.for %n0 = %c0 to %n step %c256
        iter_args(%c_cols = %c_rows) -> (!pto.tensor<?x?xf32>) {
      %nleft = arith.subi %n, %n0 : index
      %nv = arith.minui %nleft, %c256 : index
      %next = func.call @gemm_block(%a, %b, %c_cols, %m0, %n0, %mv, %nv)
          : (!pto.tensor<?x?xf16>, !pto.tensor<?x?xf16>, !pto.tensor<?x?xf32>,
             index, index, index, index) -> !pto.tensor<?x?xf32>
      scf.yield %next : !pto.tensor<?x?xf32>
    }
    scf.yield %row : !pto.tensor<?x?xf32>
  }
  return %result : !pto.tensor<?x?xf32>
}
