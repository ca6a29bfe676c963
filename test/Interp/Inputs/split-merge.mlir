// Kernels for split-merge.test: the cube core loads a box with a runtime
// valid extent %v and pushes it to the lanes with one split code; lane l
// stores what it received at offset l * %k (8: a box per lane) of %y. For codes
// 1 and 2 the lanes push their parts back, the cube core merges them and
// sends the merged tile to lane 0 (split 0), which stores it into %z: %z
// shows the merged valid region, %y each lane's.

// Split 1: rows of an 8x4 box.
func.func @rows_aic(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%v, %c4] : !pto.tensor<8x4xf32> -> !pto.tile<8x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<8x4xf32, mat>
  %m = pto.tile.tpop_from_aiv split 1 : !pto.tile<8x4xf32, mat>
  pto.tile.tpush_to_aiv %m split 0 : !pto.tile<8x4xf32, mat>
  return
}

func.func @rows_aiv(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %lane = pto.tile.get_subblock_idx
  %p = pto.tile.tpop_from_aic split 1 : !pto.tile<4x4xf32, vec>
  %row = arith.muli %lane, %k : index
  %o = pto.tile.store %p, %y[%row, %c0] : !pto.tile<4x4xf32, vec> -> !pto.tensor<16x4xf32>
  pto.tile.tpush_to_aic %p split 1 : !pto.tile<4x4xf32, vec>
  %is_lane0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %is_lane0 {
    %q = pto.tile.tpop_from_aic split 0 : !pto.tile<8x4xf32, vec>
    %oz = pto.tile.store %q, %z[%c0, %c0] : !pto.tile<8x4xf32, vec> -> !pto.tensor<8x4xf32>
  }
  return
}

func.func @rows(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

func.func @run_rows(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @rows(%x, %y, %z, %v, %k) : (!pto.tensor<8x4xf32>, !pto.tensor<16x4xf32>, !pto.tensor<8x4xf32>, index, index) -> ()
  return
}

// Split 2: columns of a 4x8 box.
func.func @cols_aic(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c4, %v] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, mat>
  pto.tile.tpush_to_aiv %t split 2 : !pto.tile<4x8xf32, mat>
  %m = pto.tile.tpop_from_aiv split 2 : !pto.tile<4x8xf32, mat>
  pto.tile.tpush_to_aiv %m split 0 : !pto.tile<4x8xf32, mat>
  return
}

func.func @cols_aiv(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %lane = pto.tile.get_subblock_idx
  %p = pto.tile.tpop_from_aic split 2 : !pto.tile<4x4xf32, vec>
  %col = arith.muli %lane, %k : index
  %o = pto.tile.store %p, %y[%c0, %col] : !pto.tile<4x4xf32, vec> -> !pto.tensor<4x16xf32>
  pto.tile.tpush_to_aic %p split 2 : !pto.tile<4x4xf32, vec>
  %is_lane0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %is_lane0 {
    %q = pto.tile.tpop_from_aic split 0 : !pto.tile<4x8xf32, vec>
    %oz = pto.tile.store %q, %z[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  }
  return
}

func.func @cols(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<group>, pto.split = 2 : i32} {
  return
}

func.func @run_cols(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @cols(%x, %y, %z, %v, %k) : (!pto.tensor<4x8xf32>, !pto.tensor<4x16xf32>, !pto.tensor<4x8xf32>, index, index) -> ()
  return
}

// Split 3 cut at the box half (4), and at lane_stride 3.
func.func @odd_rows_aic(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%v, %c4] : !pto.tensor<8x4xf32> -> !pto.tile<8x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 3 : !pto.tile<8x4xf32, mat>
  return
}

func.func @odd_rows_stride_aic(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%v, %c4] : !pto.tensor<8x4xf32> -> !pto.tile<8x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 3 lane_stride 3 : !pto.tile<8x4xf32, mat>
  return
}

func.func @odd_rows_aiv(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %lane = pto.tile.get_subblock_idx
  %p = pto.tile.tpop_from_aic split 3 : !pto.tile<5x4xf32, vec>
  %row = arith.muli %lane, %k : index
  %o = pto.tile.store %p, %y[%row, %c0] : !pto.tile<5x4xf32, vec> -> !pto.tensor<16x4xf32>
  return
}

func.func @odd_rows(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<group>, pto.split = 3 : i32, pto.aiv = @odd_rows_aiv} {
  return
}

func.func @odd_rows_stride(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<group>, pto.split = 3 : i32, pto.aiv = @odd_rows_aiv} {
  return
}

func.func @run_odd_rows(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @odd_rows(%x, %y, %z, %v, %k) : (!pto.tensor<8x4xf32>, !pto.tensor<16x4xf32>, !pto.tensor<8x4xf32>, index, index) -> ()
  return
}

func.func @run_odd_rows_stride(%x: !pto.tensor<8x4xf32>, %y: !pto.tensor<16x4xf32>, %z: !pto.tensor<8x4xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @odd_rows_stride(%x, %y, %z, %v, %k) : (!pto.tensor<8x4xf32>, !pto.tensor<16x4xf32>, !pto.tensor<8x4xf32>, index, index) -> ()
  return
}

// Split 4 cut at the box half (4), and at lane_stride 2.
func.func @odd_cols_aic(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c4, %v] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, mat>
  pto.tile.tpush_to_aiv %t split 4 : !pto.tile<4x8xf32, mat>
  return
}

func.func @odd_cols_stride_aic(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c4, %v] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, mat>
  pto.tile.tpush_to_aiv %t split 4 lane_stride 2 : !pto.tile<4x8xf32, mat>
  return
}

func.func @odd_cols_aiv(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %lane = pto.tile.get_subblock_idx
  %p = pto.tile.tpop_from_aic split 4 : !pto.tile<4x5xf32, vec>
  %col = arith.muli %lane, %k : index
  %o = pto.tile.store %p, %y[%c0, %col] : !pto.tile<4x5xf32, vec> -> !pto.tensor<4x16xf32>
  return
}

func.func @odd_cols(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<group>, pto.split = 4 : i32, pto.aiv = @odd_cols_aiv} {
  return
}

func.func @odd_cols_stride(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<group>, pto.split = 4 : i32, pto.aiv = @odd_cols_aiv} {
  return
}

func.func @run_odd_cols(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @odd_cols(%x, %y, %z, %v, %k) : (!pto.tensor<4x8xf32>, !pto.tensor<4x16xf32>, !pto.tensor<4x8xf32>, index, index) -> ()
  return
}

func.func @run_odd_cols_stride(%x: !pto.tensor<4x8xf32>, %y: !pto.tensor<4x16xf32>, %z: !pto.tensor<4x8xf32>, %v: index, %k: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @odd_cols_stride(%x, %y, %z, %v, %k) : (!pto.tensor<4x8xf32>, !pto.tensor<4x16xf32>, !pto.tensor<4x8xf32>, index, index) -> ()
  return
}
