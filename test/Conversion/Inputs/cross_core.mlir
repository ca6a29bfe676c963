// The cross-core runtime's cases (test/Interp/cross-core.mlir) in a form
// the machine has a path for: the cube pushes its accumulator, not an L1
// tile. Its accumulator is x times the identity `eye`, which is x exactly
// in f32, so each case's outputs are those of the runtime test. Every
// split code, both directions, valid extents cut between the lanes, and
// a group returning its lane's result; each `run_*` is an entry.

//===----------------------------------------------------------------------===//
// Split 1 (up/down): lane l gets rows [16 l, 16 l + 16) and adds 100 l.
//===----------------------------------------------------------------------===//
func.func @up_down_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 1 : !pto.tile<32x32xf32, acc>
  return
}
func.func @up_down_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %hundred = arith.constant 100.0 : f32
  %lane = pto.tile.get_subblock_idx
  %li = arith.index_cast %lane : index to i32
  %lf = arith.sitofp %li : i32 to f32
  %bump = arith.mulf %lf, %hundred : f32
  %t = pto.tile.tpop_from_aic split 1 : !pto.tile<16x32xf32, vec>
  %u = pto.tile.adds %t, %bump : !pto.tile<16x32xf32, vec>, f32
  %row = arith.muli %lane, %c16 : index
  %o = pto.tile.store %u, %y[%row, %c0] : !pto.tile<16x32xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @up_down(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_up_down(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @up_down(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Split 2 (left/right): lane l gets columns [16 l, 16 l + 16).
//===----------------------------------------------------------------------===//
func.func @left_right_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 2 : !pto.tile<32x32xf32, acc>
  return
}
func.func @left_right_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 2 : !pto.tile<32x16xf32, vec>
  %col = arith.muli %lane, %c16 : index
  %o = pto.tile.store %t, %y[%c0, %col] : !pto.tile<32x16xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @left_right(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>, pto.split = 2 : i32} {
  return
}
func.func @run_left_right(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @left_right(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Split 3 over %v valid rows (x's first %v rows): lane 0 gets 16, lane 1
// the rest, one fewer (%v = 31); each stores only its valid rows.
//===----------------------------------------------------------------------===//
func.func @odd_rows_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %a = pto.tile.load %x[%c0, %c0] valid [%v, %c32] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 3 : !pto.tile<32x32xf32, acc>
  return
}
func.func @odd_rows_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>, pto.split = 3 : i32} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 3 : !pto.tile<16x32xf32, vec>
  %row = arith.muli %lane, %c16 : index
  %o = pto.tile.store %t, %y[%row, %c0] : !pto.tile<16x32xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @odd_rows(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_odd_rows(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @odd_rows(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Split 4 over %v valid columns (eye's first %v columns): lane 0 columns
// 0-15, lane 1 the rest.
//===----------------------------------------------------------------------===//
func.func @odd_cols_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] valid [%c32, %v] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 4 : !pto.tile<32x32xf32, acc>
  return
}
func.func @odd_cols_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 4 : !pto.tile<32x16xf32, vec>
  %col = arith.muli %lane, %c16 : index
  %o = pto.tile.store %t, %y[%c0, %col] : !pto.tile<32x16xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @odd_cols(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>, pto.split = 4 : i32} {
  return
}
func.func @run_odd_cols(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @odd_cols(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Both ways: each lane sends its rows up (split 1), the cube merges them,
// multiplies by the identity and sends the product back by columns
// (split 2).
//===----------------------------------------------------------------------===//
func.func @round_trip_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.tpop_from_aiv split 1 : !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 2 : !pto.tile<32x32xf32, acc>
  return
}
func.func @round_trip_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = pto.tile.get_subblock_idx
  %offset = arith.muli %lane, %c16 : index
  %rows = pto.tile.load %x[%offset, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<16x32xf16, vec>
  pto.tile.tpush_to_aic %rows split 1 : !pto.tile<16x32xf16, vec>
  %cols = pto.tile.tpop_from_aic split 2 : !pto.tile<32x16xf32, vec>
  %o = pto.tile.store %cols, %y[%c0, %offset] : !pto.tile<32x16xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @round_trip(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_round_trip(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @round_trip(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}

// The other way round: columns up (split 2), rows back (split 1).
func.func @round_trip_cols_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.tpop_from_aiv split 2 : !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 1 : !pto.tile<32x32xf32, acc>
  return
}
func.func @round_trip_cols_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %lane = pto.tile.get_subblock_idx
  %offset = arith.muli %lane, %c16 : index
  %cols = pto.tile.load %x[%c0, %offset] : !pto.tensor<32x32xf16> -> !pto.tile<32x16xf16, vec>
  pto.tile.tpush_to_aic %cols split 2 : !pto.tile<32x16xf16, vec>
  %rows = pto.tile.tpop_from_aic split 1 : !pto.tile<16x32xf32, vec>
  %o = pto.tile.store %rows, %y[%offset, %c0] : !pto.tile<16x32xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @round_trip_cols(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>, pto.split = 2 : i32} {
  return
}
func.func @run_round_trip_cols(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @round_trip_cols(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// No split, one lane: the lane doubles the product and returns y; so does
// the group and its caller.
//===----------------------------------------------------------------------===//
func.func @single_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 0 : !pto.tile<32x32xf32, acc>
  return
}
func.func @single_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) -> !pto.tensor<32x32xf32> attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<32x32xf32, vec>
  %d = pto.tile.add %t, %t : !pto.tile<32x32xf32, vec>
  %o = pto.tile.store %d, %y[%c0, %c0] : !pto.tile<32x32xf32, vec> -> !pto.tensor<32x32xf32>
  return %o : !pto.tensor<32x32xf32>
}
func.func @single(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) -> !pto.tensor<32x32xf32> attributes {pto.kind = #pto.kind<group>} {
  return %y : !pto.tensor<32x32xf32>
}
func.func @run_single(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) -> !pto.tensor<32x32xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %r = call @single(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> !pto.tensor<32x32xf32>
  return %r : !pto.tensor<32x32xf32>
}

//===----------------------------------------------------------------------===//
// Split 3 cut at lane_stride 15 over %v valid rows (%v = 29): lane 0
// holds rows 0-14, lane 1 rows 15-28 of its 17-row part.
//===----------------------------------------------------------------------===//
func.func @stride_rows_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %a = pto.tile.load %x[%c0, %c0] valid [%v, %c32] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 3 lane_stride 15 : !pto.tile<32x32xf32, acc>
  return
}
func.func @stride_rows_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>, pto.split = 3 : i32} {
  %c0 = arith.constant 0 : index
  %c15 = arith.constant 15 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 3 : !pto.tile<17x32xf32, vec>
  %row = arith.muli %lane, %c15 : index
  %o = pto.tile.store %t, %y[%row, %c0] : !pto.tile<17x32xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @stride_rows(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_stride_rows(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @stride_rows(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Split 4 cut at lane_stride 8 over %v valid columns (%v = 15): lane 0
// holds columns 0-7, lane 1 columns 8-14 of its 24-column part.
//===----------------------------------------------------------------------===//
func.func @stride_cols_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] valid [%c32, %v] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 4 lane_stride 8 : !pto.tile<32x32xf32, acc>
  return
}
func.func @stride_cols_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 4 : !pto.tile<32x24xf32, vec>
  %col = arith.muli %lane, %c8 : index
  %o = pto.tile.store %t, %y[%c0, %col] : !pto.tile<32x24xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @stride_cols(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<group>, pto.split = 4 : i32} {
  return
}
func.func @run_stride_cols(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>, %v: index) attributes {pto.kind = #pto.kind<orchestration>} {
  call @stride_cols(%x, %eye, %y, %v) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>, index) -> ()
  return
}
