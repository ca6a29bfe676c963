// Flash-attention forward for one head (head dimension 128) written as fast
// kernels write it: a mixed group per 64-row query block, the matmuls on
// the cube core and the online softmax on the two vector cores, each lane
// owning 32 of the block's rows (split 1, up/down). Three cross-core pipes
// carry the tiles, each with two slots:
//
//   pipe 0  cube -> lanes   S = Q K^T for a 64-key block (64 x 64 f32)
//   pipe 1  lanes -> cube   P = exp(S - m), rounded to f16 (64 x 64)
//   pipe 2  cube -> lanes   P V (64 x 128 f32)
//
// The cube computes S for the next key block before it waits for this
// block's P, so the cube's Q K^T overlaps the lanes' softmax; the second
// slot of pipe 0 holds the block computed ahead. Each lane keeps the
// running row max m, row sum l and output O of its rows:
//
//   m' = max(m, rowmax(S)),  P = exp(S - m'),  alpha = exp(m - m')
//   l' = l * alpha + rowsum(P),  O' = O * alpha + P V
//
// and stores O / l. K is passed transposed (kt, 128 x S). S may be ragged:
// the last key block's P carries its valid key count, so the P V matmul
// reads only the valid rows of V; query rows past the end are computed on
// padding and never stored.

func.func @fa_block_aic(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>,
                        %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>,
                        %q0: index, %qv: index)
    attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  pto.system.aic_initialize_pipe 0 to_aiv slot_num 2 slot_size 8192
  pto.system.aic_initialize_pipe 1 to_aic slot_num 2 slot_size 4096
  pto.system.aic_initialize_pipe 2 to_aiv slot_num 2 slot_size 16384
  %s_len = pto.tensor.dim %kt, 1 : !pto.tensor<128x?xf16>
  %q1 = pto.tile.load %q[%q0, %c0] valid [%qv, %c128]
      : !pto.tensor<?x128xf16> -> !pto.tile<64x128xf16, mat>
  %ql = pto.tile.move %q1 : !pto.tile<64x128xf16, mat> -> !pto.tile<64x128xf16, left>

  // S for the first key block.
  %kv0 = arith.minui %s_len, %c64 : index
  %kt0 = pto.tile.load %kt[%c0, %c0] valid [%c128, %kv0]
      : !pto.tensor<128x?xf16> -> !pto.tile<128x64xf16, mat>
  %ktr0 = pto.tile.move %kt0 : !pto.tile<128x64xf16, mat> -> !pto.tile<128x64xf16, right>
  %s0 = pto.tile.matmul %ql, %ktr0
      : !pto.tile<64x128xf16, left>, !pto.tile<128x64xf16, right> -> !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %s0 split 1 pipe 0 : !pto.tile<64x64xf32, acc>

  scf.for %k0 = %c0 to %s_len step %c64 {
    // S for the next key block, ahead of this block's P.
    %next = arith.addi %k0, %c64 : index
    %more = arith.cmpi ult, %next, %s_len : index
    scf.if %more {
      %nleft = arith.subi %s_len, %next : index
      %nv = arith.minui %nleft, %c64 : index
      %kt1 = pto.tile.load %kt[%c0, %next] valid [%c128, %nv]
          : !pto.tensor<128x?xf16> -> !pto.tile<128x64xf16, mat>
      %ktr = pto.tile.move %kt1 : !pto.tile<128x64xf16, mat> -> !pto.tile<128x64xf16, right>
      %s = pto.tile.matmul %ql, %ktr
          : !pto.tile<64x128xf16, left>, !pto.tile<128x64xf16, right> -> !pto.tile<64x64xf32, acc>
      pto.tile.tpush_to_aiv %s split 1 pipe 0 : !pto.tile<64x64xf32, acc>
    }
    // P V for this block: P's valid key count bounds the products.
    %kleft = arith.subi %s_len, %k0 : index
    %kv = arith.minui %kleft, %c64 : index
    %p1 = pto.tile.tpop_from_aiv split 1 pipe 1 : !pto.tile<64x64xf16, mat>
    %pl = pto.tile.move %p1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
    %v1 = pto.tile.load %v[%k0, %c0] valid [%kv, %c128]
        : !pto.tensor<?x128xf16> -> !pto.tile<64x128xf16, mat>
    %vr = pto.tile.move %v1 : !pto.tile<64x128xf16, mat> -> !pto.tile<64x128xf16, right>
    %pv = pto.tile.matmul %pl, %vr
        : !pto.tile<64x64xf16, left>, !pto.tile<64x128xf16, right> -> !pto.tile<64x128xf32, acc>
    pto.tile.tpush_to_aiv %pv split 1 pipe 2 : !pto.tile<64x128xf32, acc>
  }
  return
}

func.func @fa_block_aiv(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>,
                        %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>,
                        %q0: index, %qv: index)
    attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %scale = arith.constant 0.0883883461 : f32  // 1 / sqrt(128)
  %neg_big = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.000000e+00 : f32
  pto.system.aiv_initialize_pipe 0 to_aiv slot_num 2 slot_size 8192
  pto.system.aiv_initialize_pipe 1 to_aic slot_num 2 slot_size 4096
  pto.system.aiv_initialize_pipe 2 to_aiv slot_num 2 slot_size 16384
  %s_len = pto.tensor.dim %kt, 1 : !pto.tensor<128x?xf16>
  %m_init = pto.tile.full %neg_big : f32 -> !pto.tile<32x1xf32, vec>
  %l_init = pto.tile.full %zero : f32 -> !pto.tile<32x1xf32, vec>
  %o_init = pto.tile.full %zero : f32 -> !pto.tile<32x128xf32, vec>
  // This lane's rows of the block that exist (none past a ragged end).
  %lane = pto.tile.get_subblock_idx
  %lane_row = arith.muli %lane, %c32 : index
  %rows_left = arith.subi %qv, %lane_row : index
  %rows_here = arith.maxsi %rows_left, %c0 : index
  %q_rows = arith.minsi %rows_here, %c32 : index

  %m, %l, %acc = scf.for %k0 = %c0 to %s_len step %c64
      iter_args(%m_old = %m_init, %l_old = %l_init, %o_old = %o_init)
      -> (!pto.tile<32x1xf32, vec>, !pto.tile<32x1xf32, vec>, !pto.tile<32x128xf32, vec>) {
    %kleft = arith.subi %s_len, %k0 : index
    %kv = arith.minui %kleft, %c64 : index
    // This lane's 32 rows of S, scaled, with the keys past the end masked.
    %s = pto.tile.tpop_from_aic split 1 pipe 0 : !pto.tile<32x64xf32, vec>
    %s_scaled = pto.tile.muls %s, %scale : !pto.tile<32x64xf32, vec>, f32
    %s_valid = pto.tile.set_validshape %s_scaled[%q_rows, %kv] : !pto.tile<32x64xf32, vec>
    %s_masked = pto.tile.fillpad %s_valid, min : !pto.tile<32x64xf32, vec>
    // Online softmax update.
    %blk_max = pto.tile.row_max %s_masked
        : !pto.tile<32x64xf32, vec> -> !pto.tile<32x1xf32, vec>
    %m_new = pto.tile.max %m_old, %blk_max : !pto.tile<32x1xf32, vec>
    %p = pto.tile.row_expand_expdif %s_masked, %m_new
        : !pto.tile<32x64xf32, vec>, !pto.tile<32x1xf32, vec>
    %dm = pto.tile.sub %m_old, %m_new : !pto.tile<32x1xf32, vec>
    %alpha = pto.tile.exp %dm : !pto.tile<32x1xf32, vec>
    %p_sum = pto.tile.row_sum %p : !pto.tile<32x64xf32, vec> -> !pto.tile<32x1xf32, vec>
    %l_scaled = pto.tile.mul %l_old, %alpha : !pto.tile<32x1xf32, vec>
    %l_new = pto.tile.add %l_scaled, %p_sum : !pto.tile<32x1xf32, vec>
    // P to the cube, carrying the valid key count.
    %p16 = pto.tile.cast %p round rint : !pto.tile<32x64xf32, vec> -> !pto.tile<32x64xf16, vec>
    %p_keys = pto.tile.set_validshape %p16[%c32, %kv] : !pto.tile<32x64xf16, vec>
    pto.tile.tpush_to_aic %p_keys split 1 pipe 1 : !pto.tile<32x64xf16, vec>
    // O = O * alpha + P V.
    %pv = pto.tile.tpop_from_aic split 1 pipe 2 : !pto.tile<32x128xf32, vec>
    %o_scaled = pto.tile.row_expand_mul %o_old, %alpha
        : !pto.tile<32x128xf32, vec>, !pto.tile<32x1xf32, vec>
    %o_new = pto.tile.add %o_scaled, %pv : !pto.tile<32x128xf32, vec>
    scf.yield %m_new, %l_new, %o_new
        : !pto.tile<32x1xf32, vec>, !pto.tile<32x1xf32, vec>, !pto.tile<32x128xf32, vec>
  }

  %row = arith.addi %q0, %lane_row : index
  %some = arith.cmpi sgt, %qv, %lane_row : index
  scf.if %some {
    %rows = arith.minui %rows_left, %c32 : index
    %o_norm = pto.tile.row_expand_div %acc, %l
        : !pto.tile<32x128xf32, vec>, !pto.tile<32x1xf32, vec>
    %o_rows = pto.tile.set_validshape %o_norm[%rows, %c128] : !pto.tile<32x128xf32, vec>
    %out = pto.tile.store %o_rows, %o[%row, %c0]
        : !pto.tile<32x128xf32, vec> -> !pto.tensor<?x128xf32>
  }
  return
}

func.func @fa_block(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>,
                    %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>,
                    %q0: index, %qv: index)
    attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

func.func @attention(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>,
                     %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>)
    -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = pto.tensor.dim %q, 0 : !pto.tensor<?x128xf16>
  scf.for %q0 = %c0 to %s step %c64 {
    %left = arith.subi %s, %q0 : index
    %qv = arith.minui %left, %c64 : index
    func.call @fa_block(%q, %kt, %v, %o, %q0, %qv)
        : (!pto.tensor<?x128xf16>, !pto.tensor<128x?xf16>, !pto.tensor<?x128xf16>,
           !pto.tensor<?x128xf32>, index, index) -> ()
  }
  return %o : !pto.tensor<?x128xf32>
}
