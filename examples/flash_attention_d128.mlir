// Flash-attention forward for one head, head dimension 128, 64-row query
// and key blocks: the kernel of flash_attention.mlir (read that file for
// the algorithm) with Q, K and V rows of 128 elements. Its output tiles are
// 32 KiB (64 x 128 f32); counted one buffer per SSA tile they overflow UB,
// and they fit once memory planning lets dead tiles share storage
// (`tilekit check` prints the footprint).

func.func @attention_block(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>,
                           %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>,
                           %ws: !pto.tensor<64x64xf16>, %q0: index, %qv: index)
    -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %scale = arith.constant 0.0883883461 : f32  // 1 / sqrt(128)
  %neg_big = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %s_len = pto.tensor.dim %kt, 1 : !pto.tensor<128x?xf16>

  %q1 = pto.tile.load %q[%q0, %c0] valid [%qv, %c128]
      : !pto.tensor<?x128xf16> -> !pto.tile<64x128xf16, mat>
  %ql = pto.tile.move %q1 : !pto.tile<64x128xf16, mat> -> !pto.tile<64x128xf16, left>
  %m_init = pto.tile.full %neg_big : f32 -> !pto.tile<64x1xf32, vec>
  %l_init = pto.tile.full %zero : f32 -> !pto.tile<64x1xf32, vec>
  %o_init = pto.tile.full %zero : f32 -> !pto.tile<64x128xf32, vec>

  %m, %l, %acc, %ws_out = scf.for %k0 = %c0 to %s_len step %c64
      iter_args(%m_old = %m_init, %l_old = %l_init, %o_old = %o_init, %ws_cur = %ws)
      -> (!pto.tile<64x1xf32, vec>, !pto.tile<64x1xf32, vec>,
          !pto.tile<64x128xf32, vec>, !pto.tensor<64x64xf16>) {
    %kleft = arith.subi %s_len, %k0 : index
    %kv = arith.minui %kleft, %c64 : index

    // S = Q K^T on the cube, then scaled and masked on the vector unit.
    %kt1 = pto.tile.load %kt[%c0, %k0] valid [%c128, %kv]
        : !pto.tensor<128x?xf16> -> !pto.tile<128x64xf16, mat>
    %ktr = pto.tile.move %kt1 : !pto.tile<128x64xf16, mat> -> !pto.tile<128x64xf16, right>
    %s_acc = pto.tile.matmul %ql, %ktr
        : !pto.tile<64x128xf16, left>, !pto.tile<128x64xf16, right> -> !pto.tile<64x64xf32, acc>
    %s = pto.tile.move %s_acc : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
    %s_scaled = pto.tile.muls %s, %scale : !pto.tile<64x64xf32, vec>, f32
    %s_valid = pto.tile.set_validshape %s_scaled[%qv, %kv] : !pto.tile<64x64xf32, vec>
    %s_masked = pto.tile.fillpad %s_valid, min : !pto.tile<64x64xf32, vec>

    // Online softmax update.
    %blk_max = pto.tile.row_max %s_masked
        : !pto.tile<64x64xf32, vec> -> !pto.tile<64x1xf32, vec>
    %m_new = pto.tile.max %m_old, %blk_max : !pto.tile<64x1xf32, vec>
    %p = pto.tile.row_expand_expdif %s_masked, %m_new
        : !pto.tile<64x64xf32, vec>, !pto.tile<64x1xf32, vec>
    %dm = pto.tile.sub %m_old, %m_new : !pto.tile<64x1xf32, vec>
    %alpha = pto.tile.exp %dm : !pto.tile<64x1xf32, vec>
    %p_sum = pto.tile.row_sum %p : !pto.tile<64x64xf32, vec> -> !pto.tile<64x1xf32, vec>
    %l_scaled = pto.tile.mul %l_old, %alpha : !pto.tile<64x1xf32, vec>
    %l_new = pto.tile.add %l_scaled, %p_sum : !pto.tile<64x1xf32, vec>

    // O = O * alpha + P V, with P round-tripping through the GM workspace.
    %p16 = pto.tile.cast %p round rint : !pto.tile<64x64xf32, vec> -> !pto.tile<64x64xf16, vec>
    %ws_p = pto.tile.store %p16, %ws_cur[%c0, %c0]
        : !pto.tile<64x64xf16, vec> -> !pto.tensor<64x64xf16>
    // Only the kv valid key columns of P enter P V: the MMAD's k is P's
    // valid K, so V's padding rows (undefined on the machine) are not read.
    %p1 = pto.tile.load %ws_p[%c0, %c0] valid [%c64, %kv]
        : !pto.tensor<64x64xf16> -> !pto.tile<64x64xf16, mat>
    %pl = pto.tile.move %p1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
    %v1 = pto.tile.load %v[%k0, %c0] valid [%kv, %c128]
        : !pto.tensor<?x128xf16> -> !pto.tile<64x128xf16, mat>
    %vr = pto.tile.move %v1 : !pto.tile<64x128xf16, mat> -> !pto.tile<64x128xf16, right>
    %pv_acc = pto.tile.matmul %pl, %vr
        : !pto.tile<64x64xf16, left>, !pto.tile<64x128xf16, right> -> !pto.tile<64x128xf32, acc>
    %pv = pto.tile.move %pv_acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %o_scaled = pto.tile.row_expand_mul %o_old, %alpha
        : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %o_new = pto.tile.add %o_scaled, %pv : !pto.tile<64x128xf32, vec>
    scf.yield %m_new, %l_new, %o_new, %ws_p
        : !pto.tile<64x1xf32, vec>, !pto.tile<64x1xf32, vec>,
          !pto.tile<64x128xf32, vec>, !pto.tensor<64x64xf16>
  }

  %o_norm = pto.tile.row_expand_div %acc, %l
      : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
  %o_rows = pto.tile.set_validshape %o_norm[%qv, %c128] : !pto.tile<64x128xf32, vec>
  %out = pto.tile.store %o_rows, %o[%q0, %c0]
      : !pto.tile<64x128xf32, vec> -> !pto.tensor<?x128xf32>
  return %out : !pto.tensor<?x128xf32>
}

func.func @attention(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>,
                     %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>)
    -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = pto.tensor.dim %q, 0 : !pto.tensor<?x128xf16>
  %ws = pto.tensor.create : !pto.tensor<64x64xf16>
  %result = scf.for %q0 = %c0 to %s step %c64
      iter_args(%out = %o) -> (!pto.tensor<?x128xf32>) {
    %left = arith.subi %s, %q0 : index
    %qv = arith.minui %left, %c64 : index
    %next = func.call @attention_block(%q, %kt, %v, %out, %ws, %q0, %qv)
        : (!pto.tensor<?x128xf16>, !pto.tensor<128x?xf16>, !pto.tensor<?x128xf16>,
           !pto.tensor<?x128xf32>, !pto.tensor<64x64xf16>, index, index)
        -> !pto.tensor<?x128xf32>
    scf.yield %next : !pto.tensor<?x128xf32>
  }
  return %result : !pto.tensor<?x128xf32>
}
