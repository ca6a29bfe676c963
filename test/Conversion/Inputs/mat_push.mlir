// The cube sends L1 (mat) tiles to the lanes, as the cross-core runtime
// tests do, with rows of whole 32-byte blocks (8 f32), so that the emitted
// C++ can copy them out of L1's fractals: C220 through GM, C310 into UB.
// x holds %v valid rows of a 16 x 8 box; lane l gets rows [8 l, 8 l + 8),
// adds 100 l and stores them into y; both lanes send their parts back, and
// the cube sends the merged tile to lane 0, which stores it into z.
func.func @rows_aic(%x: !pto.tensor<16x8xf32>, %y: !pto.tensor<16x8xf32>, %z: !pto.tensor<16x8xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%v, %c8] : !pto.tensor<16x8xf32> -> !pto.tile<16x8xf32, mat>
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<16x8xf32, mat>
  %m = pto.tile.tpop_from_aiv split 1 : !pto.tile<16x8xf32, mat>
  pto.tile.tpush_to_aiv %m split 0 : !pto.tile<16x8xf32, mat>
  return
}

func.func @rows_aiv(%x: !pto.tensor<16x8xf32>, %y: !pto.tensor<16x8xf32>, %z: !pto.tensor<16x8xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %hundred = arith.constant 100.0 : f32
  %lane = pto.tile.get_subblock_idx
  %li = arith.index_cast %lane : index to i32
  %lf = arith.sitofp %li : i32 to f32
  %bump = arith.mulf %lf, %hundred : f32
  %p = pto.tile.tpop_from_aic split 1 : !pto.tile<8x8xf32, vec>
  %q = pto.tile.adds %p, %bump : !pto.tile<8x8xf32, vec>, f32
  %row = arith.muli %lane, %c8 : index
  %o = pto.tile.store %q, %y[%row, %c0] : !pto.tile<8x8xf32, vec> -> !pto.tensor<16x8xf32>
  pto.tile.tpush_to_aic %q split 1 : !pto.tile<8x8xf32, vec>
  %is_lane0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %is_lane0 {
    %w = pto.tile.tpop_from_aic split 0 : !pto.tile<16x8xf32, vec>
    %oz = pto.tile.store %w, %z[%c0, %c0] : !pto.tile<16x8xf32, vec> -> !pto.tensor<16x8xf32>
  }
  return
}

func.func @rows(%x: !pto.tensor<16x8xf32>, %y: !pto.tensor<16x8xf32>, %z: !pto.tensor<16x8xf32>, %v: index) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

func.func @run_rows(%x: !pto.tensor<16x8xf32>, %y: !pto.tensor<16x8xf32>, %z: !pto.tensor<16x8xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @rows(%x, %y, %z, %v) : (!pto.tensor<16x8xf32>, !pto.tensor<16x8xf32>, !pto.tensor<16x8xf32>, index) -> ()
  return
}
