// The attention of examples/python/flash_attention_mixed.py at 64-row query
// blocks against 256-key blocks with look-ahead:
//   tk.build(attention, block=64, kblock=256, lookahead=True)
module {
  func.func @fa_block_aic(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>, %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>, %q0: index, %qv: index) attributes {pto.kind = #pto.kind<aic>} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    pto.system.aic_initialize_pipe 0 to_aiv slot_num 2 slot_size 32768
    pto.system.aic_initialize_pipe 1 to_aic slot_num 2 slot_size 16384
    pto.system.aic_initialize_pipe 2 to_aiv slot_num 2 slot_size 16384
    %s_len = pto.tensor.dim %kt, 1 : !pto.tensor<128x?xf16>
    %q1 = pto.tile.load %q[%q0, %c0] valid [%qv, %c128] : !pto.tensor<?x128xf16> -> !pto.tile<64x128xf16, mat>
    %ql = pto.tile.move %q1 : !pto.tile<64x128xf16, mat> -> !pto.tile<64x128xf16, left>
    %kv0 = arith.minui %s_len, %c256 : index
    %kt0 = pto.tile.load %kt[%c0, %c0] valid [%c128, %kv0] : !pto.tensor<128x?xf16> -> !pto.tile<128x256xf16, mat>
    %0 = pto.tile.move %kt0 : !pto.tile<128x256xf16, mat> -> !pto.tile<128x256xf16, right>
    %s0 = pto.tile.matmul %ql, %0 : !pto.tile<64x128xf16, left>, !pto.tile<128x256xf16, right> -> !pto.tile<64x256xf32, acc>
    pto.tile.tpush_to_aiv %s0 split 1 : !pto.tile<64x256xf32, acc>
    scf.for %k0 = %c0 to %s_len step %c256 {
      %next = arith.addi %k0, %c256 : index
      %1 = arith.cmpi ult, %next, %s_len : index
      scf.if %1 {
        %4 = arith.subi %s_len, %next : index
        %nv = arith.minui %4, %c256 : index
        %kt1 = pto.tile.load %kt[%c0, %next] valid [%c128, %nv] : !pto.tensor<128x?xf16> -> !pto.tile<128x256xf16, mat>
        %5 = pto.tile.move %kt1 : !pto.tile<128x256xf16, mat> -> !pto.tile<128x256xf16, right>
        %s = pto.tile.matmul %ql, %5 : !pto.tile<64x128xf16, left>, !pto.tile<128x256xf16, right> -> !pto.tile<64x256xf32, acc>
        pto.tile.tpush_to_aiv %s split 1 : !pto.tile<64x256xf32, acc>
      }
      %2 = arith.subi %s_len, %k0 : index
      %kv = arith.minui %2, %c256 : index
      %p1 = pto.tile.tpop_from_aiv split 1 pipe 1 : !pto.tile<64x256xf16, mat>
      %pl = pto.tile.move %p1 : !pto.tile<64x256xf16, mat> -> !pto.tile<64x256xf16, left>
      %v1 = pto.tile.load %v[%k0, %c0] valid [%kv, %c128] : !pto.tensor<?x128xf16> -> !pto.tile<256x128xf16, mat>
      %3 = pto.tile.move %v1 : !pto.tile<256x128xf16, mat> -> !pto.tile<256x128xf16, right>
      %pv = pto.tile.matmul %pl, %3 : !pto.tile<64x256xf16, left>, !pto.tile<256x128xf16, right> -> !pto.tile<64x128xf32, acc>
      pto.tile.tpush_to_aiv %pv split 1 pipe 2 : !pto.tile<64x128xf32, acc>
    }
    return
  }
  func.func @fa_block_aiv(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>, %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>, %q0: index, %qv: index) attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %scale = arith.constant 0.0883883461 : f32
    %neg_big = arith.constant -3.40282347E+38 : f32
    %zero = arith.constant 0.000000e+00 : f32
    pto.system.aiv_initialize_pipe 0 to_aiv slot_num 2 slot_size 32768
    pto.system.aiv_initialize_pipe 1 to_aic slot_num 2 slot_size 16384
    pto.system.aiv_initialize_pipe 2 to_aiv slot_num 2 slot_size 16384
    %s_len = pto.tensor.dim %kt, 1 : !pto.tensor<128x?xf16>
    %m = pto.tile.full %neg_big : f32 -> !pto.tile<32x1xf32, vec>
    %l = pto.tile.full %zero : f32 -> !pto.tile<32x1xf32, vec>
    %acc = pto.tile.full %zero : f32 -> !pto.tile<32x128xf32, vec>
    %0 = pto.tile.get_subblock_idx
    %lane_row = arith.muli %0, %c32 : index
    %rows_left = arith.subi %qv, %lane_row : index
    %1 = arith.maxsi %rows_left, %c0 : index
    %q_rows = arith.minsi %1, %c32 : index
    %2:3 = scf.for %k0 = %c0 to %s_len step %c256 iter_args(%m_0 = %m, %l_1 = %l, %acc_2 = %acc) -> (!pto.tile<32x1xf32, vec>, !pto.tile<32x1xf32, vec>, !pto.tile<32x128xf32, vec>) {
      %4 = arith.subi %s_len, %k0 : index
      %kv = arith.minui %4, %c256 : index
      %s = pto.tile.tpop_from_aic split 1 : !pto.tile<32x256xf32, vec>
      %5 = pto.tile.muls %s, %scale : !pto.tile<32x256xf32, vec>, f32
      %s_valid = pto.tile.set_validshape %5[%q_rows, %kv] : !pto.tile<32x256xf32, vec>
      %s_masked = pto.tile.fillpad %s_valid, min : !pto.tile<32x256xf32, vec>
      %6 = pto.tile.row_max %s_masked : !pto.tile<32x256xf32, vec> -> !pto.tile<32x1xf32, vec>
      %m_3 = pto.tile.max %m_0, %6 : !pto.tile<32x1xf32, vec>
      %p = pto.tile.row_expand_expdif %s_masked, %m_3 : !pto.tile<32x256xf32, vec>, !pto.tile<32x1xf32, vec>
      %7 = pto.tile.sub %m_0, %m_3 : !pto.tile<32x1xf32, vec>
      %alpha = pto.tile.exp %7 : !pto.tile<32x1xf32, vec>
      %p_sum = pto.tile.row_sum %p : !pto.tile<32x256xf32, vec> -> !pto.tile<32x1xf32, vec>
      %8 = pto.tile.mul %l_1, %alpha : !pto.tile<32x1xf32, vec>
      %l_4 = pto.tile.add %8, %p_sum : !pto.tile<32x1xf32, vec>
      %p16 = pto.tile.cast %p round rint : !pto.tile<32x256xf32, vec> -> !pto.tile<32x256xf16, vec>
      %9 = pto.tile.set_validshape %p16[%c32, %kv] : !pto.tile<32x256xf16, vec>
      pto.tile.tpush_to_aic %9 split 1 pipe 1 : !pto.tile<32x256xf16, vec>
      %pv = pto.tile.tpop_from_aic split 1 pipe 2 : !pto.tile<32x128xf32, vec>
      %10 = pto.tile.row_expand_mul %acc_2, %alpha : !pto.tile<32x128xf32, vec>, !pto.tile<32x1xf32, vec>
      %acc_5 = pto.tile.add %10, %pv : !pto.tile<32x128xf32, vec>
      scf.yield %m_3, %l_4, %acc_5 : !pto.tile<32x1xf32, vec>, !pto.tile<32x1xf32, vec>, !pto.tile<32x128xf32, vec>
    }
    %row = arith.addi %q0, %lane_row : index
    %3 = arith.cmpi sgt, %qv, %lane_row : index
    scf.if %3 {
      %rows = arith.minui %rows_left, %c32 : index
      %4 = pto.tile.row_expand_div %2#2, %2#1 : !pto.tile<32x128xf32, vec>, !pto.tile<32x1xf32, vec>
      %o_rows = pto.tile.set_validshape %4[%rows, %c128] : !pto.tile<32x128xf32, vec>
      %5 = pto.tile.store %o_rows, %o[%row, %c0] : !pto.tile<32x128xf32, vec> -> !pto.tensor<?x128xf32>
    }
    return
  }
  func.func @fa_block(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>, %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>, %q0: index, %qv: index) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
    return
  }
  func.func @attention(%q: !pto.tensor<?x128xf16>, %kt: !pto.tensor<128x?xf16>, %v: !pto.tensor<?x128xf16>, %o: !pto.tensor<?x128xf32>) -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %s = pto.tensor.dim %q, 0 : !pto.tensor<?x128xf16>
    scf.for %q0 = %c0 to %s step %c64 {
      %0 = arith.subi %s, %q0 : index
      %qv = arith.minui %0, %c64 : index
      func.call @fa_block(%q, %kt, %v, %o, %q0, %qv) : (!pto.tensor<?x128xf16>, !pto.tensor<128x?xf16>, !pto.tensor<?x128xf16>, !pto.tensor<?x128xf32>, index, index) -> ()
    }
    return %o : !pto.tensor<?x128xf32>
  }
}

