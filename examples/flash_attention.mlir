// Flash-attention forward for one head, head dimension 64:
//
//   O = softmax(Q K^T * scale) V
//
// Q and V are S x 64 f16; K is passed transposed (64 x S) so the cube reads
// it as a row-major B operand; O is S x 64 f32. Each in-core call handles 64
// query rows and walks the keys in blocks of 64 with the online softmax: a
// running row maximum m, a running denominator l and an unnormalized output
// o, rescaled by exp(m_old - m_new) whenever the maximum grows. The
// probabilities P go to V's matmul through a GM workspace, as they do on a
// machine whose vector and cube cores share only GM. Key columns past S are
// masked with the element type's minimum before the exponential.

func.func @attention_block(%q: !pto.tensor<?x64xf16>, %kt: !pto.tensor<64x?xf16>,
                           %v: !pto.tensor<?x64xf16>, %o: !pto.tensor<?x64xf32>,
                           %ws: !pto.tensor<64x64xf16>, %q0: index, %qv: index)
    -> !pto.tensor<?x64xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %scale = arith.constant 1.250000e-01 : f32  // 1 / sqrt(64)
  %neg_big = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %s_len = pto.tensor.dim %kt, 1 : !pto.tensor<64x?xf16>

  %q1 = pto.tile.load %q[%q0, %c0] valid [%qv, %c64]
      : !pto.tensor<?x64xf16> -> !pto.tile<64x64xf16, mat>
  %ql = pto.tile.move %q1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
  %m_init = pto.tile.full %neg_big : f32 -> !pto.tile<64x1xf32, vec>
  %l_init = pto.tile.full %zero : f32 -> !pto.tile<64x1xf32, vec>
  %o_init = pto.tile.full %zero : f32 -> !pto.tile<64x64xf32, vec>

  %m, %l, %acc, %ws_out = scf.for %k0 = %c0 to %s_len step %c64
      iter_args(%m_old = %m_init, %l_old = %l_init, %o_old = %o_init, %ws_cur = %ws)
      -> (!pto.tile<64x1xf32, vec>, !pto.tile<64x1xf32, vec>,
          !pto.tile<64x64xf32, vec>, !pto.tensor<64x64xf16>) {
    %kleft = arith.subi %s_len, %k0 : index
    %kv = arith.minui %kleft, %c64 : index

    // S = Q K^T on the cube, then scaled and masked on the vector unit.
    %kt1 = pto.tile.load %kt[%c0, %k0] valid [%c64, %kv]
        : !pto.tensor<64x?xf16> -> !pto.tile<64x64xf16, mat>
    %ktr = pto.tile.move %kt1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
    %s_acc = pto.tile.matmul %ql, %ktr
        : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc>
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
    %v1 = pto.tile.load %v[%k0, %c0] valid [%kv, %c64]
        : !pto.tensor<?x64xf16> -> !pto.tile<64x64xf16, mat>
    %vr = pto.tile.move %v1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
    %pv_acc = pto.tile.matmul %pl, %vr
        : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc>
    %pv = pto.tile.move %pv_acc : !pto.tile<64x64xf32, acc> -> !pto.tile<64x64xf32, vec>
    %o_scaled = pto.tile.row_expand_mul %o_old, %alpha
        : !pto.tile<64x64xf32, vec>, !pto.tile<64x1xf32, vec>
    %o_new = pto.tile.add %o_scaled, %pv : !pto.tile<64x64xf32, vec>
    scf.yield %m_new, %l_new, %o_new, %ws_p
        : !pto.tile<64x1xf32, vec>, !pto.tile<64x1xf32, vec>,
          !pto.tile<64x64xf32, vec>, !pto.tensor<64x64xf16>
  }

  %o_norm = pto.tile.row_expand_div %acc, %l
      : !pto.tile<64x64xf32, vec>, !pto.tile<64x1xf32, vec>
  %o_rows = pto.tile.set_validshape %o_norm[%qv, %c64] : !pto.tile<64x64xf32, vec>
  %out = pto.tile.store %o_rows, %o[%q0, %c0]
      : !pto.tile<64x64xf32, vec> -> !pto.tensor<?x64xf32>
  return %out : !pto.tensor<?x64xf32>
}

func.func @attention(%q: !pto.tensor<?x64xf16>, %kt: !pto.tensor<64x?xf16>,
                     %v: !pto.tensor<?x64xf16>, %o: !pto.tensor<?x64xf32>)
    -> !pto.tensor<?x64xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = pto.tensor.dim %q, 0 : !pto.tensor<?x64xf16>
  %ws = pto.tensor.create : !pto.tensor<64x64xf16>
  %result = scf.for %q0 = %c0 to %s step %c64
      iter_args(%out = %o) -> (!pto.tensor<?x64xf32>) {
    %left = arith.subi %s, %q0 : index
    %qv = arith.minui %left, %c64 : index
    %next = func.call @attention_block(%q, %kt, %v, %out, %ws, %q0, %qv)
        : (!pto.tensor<?x64xf16>, !pto.tensor<64x?xf16>, !pto.tensor<?x64xf16>,
           !pto.tensor<?x64xf32>, !pto.tensor<64x64xf16>, index, index)
        -> !pto.tensor<?x64xf32>
    scf.yield %next : !pto.tensor<?x64xf32>
  }
  return %result : !pto.tensor<?x64xf32>
}
