// Group launches and cross-core pipes: every split mode, both directions,
// lanes, dual dispatch, the group's return value. x is arange(16) as 4x4.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(16, dtype=np.float32).reshape(4, 4))"
// RUN: tilekit run %s --entry run_up_down --input x=%t.x.npy --input y=zeros:4x4:f32 --print y | FileCheck %s --check-prefix=UPDOWN
// RUN: tilekit run %s --entry run_left_right --input x=%t.x.npy --input y=zeros:4x4:f32 --print y | FileCheck %s --check-prefix=LEFTRIGHT
// RUN: tilekit run %s --entry run_up_down_odd --input x=%t.x.npy --input y=zeros:4x4:f32 --print y | FileCheck %s --check-prefix=ODD
// RUN: tilekit run %s --entry run_left_right_odd --input x=%t.x.npy --input y=zeros:4x4:f32 --print y | FileCheck %s --check-prefix=LROdd
// RUN: tilekit run %s --entry run_round_trip --input x=%t.x.npy --input y=zeros:4x4:f32 --print y | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tilekit run %s --entry run_round_trip_cols --input x=%t.x.npy --input y=zeros:4x4:f32 --print y | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tilekit run %s --entry run_dual --input x=%t.x.npy --input y=zeros:4x4:f32 --input z=zeros:2x4:f32 --print y --print z | FileCheck %s --check-prefix=DUAL
// RUN: tilekit run %s --entry run_single --input x=%t.x.npy --input y=zeros:4x4:f32 --print result | FileCheck %s --check-prefix=SINGLE

//===----------------------------------------------------------------------===//
// Cube to vector, split 1 (up/down): lane l receives rows [2l, 2l + 2).
// UPDOWN: y: f32 [4, 4]
// UPDOWN-NEXT: [0, 1, 2, 3]
// UPDOWN-NEXT: [4, 5, 6, 7]
// UPDOWN-NEXT: [108, 109, 110, 111]
// UPDOWN-NEXT: [112, 113, 114, 115]
// Lane 1 adds 100: each lane knows its subblock index.
//===----------------------------------------------------------------------===//

func.func @up_down_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<4x4xf32> -> !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<4x4xf32, mat>
  return
}

func.func @up_down_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 1 : !pto.tile<2x4xf32, vec>
  %li = arith.index_cast %lane : index to i32
  %lf = arith.sitofp %li : i32 to f32
  %hundred = arith.constant 100.0 : f32
  %bump = arith.mulf %lf, %hundred : f32
  %u = pto.tile.adds %t, %bump : !pto.tile<2x4xf32, vec>, f32
  %row = arith.muli %lane, %c2 : index
  %o = pto.tile.store %u, %y[%row, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<4x4xf32>
  return
}

func.func @up_down(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

func.func @run_up_down(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @up_down(%x, %y) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Split 2 (left/right): lane l receives columns [2l, 2l + 2).
// LEFTRIGHT: y: f32 [4, 4]
// LEFTRIGHT-NEXT: [0, 1, 2, 3]
// LEFTRIGHT-NEXT: [4, 5, 6, 7]
// LEFTRIGHT-NEXT: [8, 9, 10, 11]
// LEFTRIGHT-NEXT: [12, 13, 14, 15]
//===----------------------------------------------------------------------===//

func.func @left_right_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<4x4xf32> -> !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 2 : !pto.tile<4x4xf32, mat>
  return
}

func.func @left_right_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 2 : !pto.tile<4x2xf32, vec>
  %col = arith.muli %lane, %c2 : index
  %o = pto.tile.store %t, %y[%c0, %col] : !pto.tile<4x2xf32, vec> -> !pto.tensor<4x4xf32>
  return
}

func.func @left_right(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 2 : i32} {
  return
}

func.func @run_left_right(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @left_right(%x, %y) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Split 3 over 3 valid rows of a 4-row box, cut at the box half: lane 0
// gets 2 rows, lane 1 the remaining row (lane_stride and every extent:
// split-merge.test); each stores only its valid rows. The group's
// split falls back to the aiv function's.
// ODD: y: f32 [4, 4]
// ODD-NEXT: [0, 1, 2, 3]
// ODD-NEXT: [4, 5, 6, 7]
// ODD-NEXT: [8, 9, 10, 11]
// ODD-NEXT: [0, 0, 0, 0]
//===----------------------------------------------------------------------===//

func.func @up_down_odd_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c3, %c4] : !pto.tensor<4x4xf32> -> !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 3 : !pto.tile<4x4xf32, mat>
  return
}

func.func @up_down_odd_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aiv>, pto.split = 3 : i32} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 3 : !pto.tile<2x4xf32, vec>
  %row = arith.muli %lane, %c2 : index
  %o = pto.tile.store %t, %y[%row, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<4x4xf32>
  return
}

func.func @up_down_odd(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<group>} {
  return
}

func.func @run_up_down_odd(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @up_down_odd(%x, %y) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Split 4 over 3 valid columns: lane 0 columns 0-1, lane 1 column 2.
// LROdd: y: f32 [4, 4]
// LROdd-NEXT: [0, 1, 2, 0]
// LROdd-NEXT: [4, 5, 6, 0]
//===----------------------------------------------------------------------===//

func.func @left_right_odd_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c4, %c3] : !pto.tensor<4x4xf32> -> !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 4 : !pto.tile<4x4xf32, mat>
  return
}

func.func @left_right_odd_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 4 : !pto.tile<4x2xf32, vec>
  %col = arith.muli %lane, %c2 : index
  %o = pto.tile.store %t, %y[%c0, %col] : !pto.tile<4x2xf32, vec> -> !pto.tensor<4x4xf32>
  return
}

func.func @left_right_odd(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 4 : i32} {
  return
}

func.func @run_left_right_odd(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @left_right_odd(%x, %y) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Bidirectional: each lane sends 2 rows up (split 1), the cube core merges
// them into one 4x4 tile and sends it back down split by columns (split 2).
// ROUNDTRIP: y: f32 [4, 4]
// ROUNDTRIP-NEXT: [0, 1, 2, 3]
// ROUNDTRIP-NEXT: [4, 5, 6, 7]
// ROUNDTRIP-NEXT: [8, 9, 10, 11]
// ROUNDTRIP-NEXT: [12, 13, 14, 15]
//===----------------------------------------------------------------------===//

func.func @round_trip_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 1 : !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 2 : !pto.tile<4x4xf32, mat>
  return
}

func.func @round_trip_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %offset = arith.muli %lane, %c2 : index
  %rows = pto.tile.load %x[%offset, %c0] : !pto.tensor<4x4xf32> -> !pto.tile<2x4xf32, vec>
  pto.tile.tpush_to_aic %rows split 1 : !pto.tile<2x4xf32, vec>
  %cols = pto.tile.tpop_from_aic split 2 : !pto.tile<4x2xf32, vec>
  %o = pto.tile.store %cols, %y[%c0, %offset] : !pto.tile<4x2xf32, vec> -> !pto.tensor<4x4xf32>
  return
}

func.func @round_trip(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

func.func @run_round_trip(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @round_trip(%x, %y) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>) -> ()
  return
}

// The other way round: the lanes send columns (split 2), the cube core
// merges them and sends rows back (split 1).
func.func @round_trip_cols_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 2 : !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<4x4xf32, mat>
  return
}

func.func @round_trip_cols_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %offset = arith.muli %lane, %c2 : index
  %cols = pto.tile.load %x[%c0, %offset] : !pto.tensor<4x4xf32> -> !pto.tile<4x2xf32, vec>
  pto.tile.tpush_to_aic %cols split 2 : !pto.tile<4x2xf32, vec>
  %rows = pto.tile.tpop_from_aic split 1 : !pto.tile<2x4xf32, vec>
  %o = pto.tile.store %rows, %y[%offset, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<4x4xf32>
  return
}

func.func @round_trip_cols(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 2 : i32} {
  return
}

func.func @run_round_trip_cols(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @round_trip_cols(%x, %y) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// No split with dual dispatch: a push to the vector side reaches both lanes
// (each stores its copy plus its lane index); a pop on the cube side waits
// for both lanes and keeps lane 0's tile (lane 1 sent its tile plus 10).
// DUAL: y: f32 [4, 4]
// DUAL-NEXT: [0, 1, 2, 3]
// DUAL-NEXT: [4, 5, 6, 7]
// DUAL-NEXT: [1, 2, 3, 4]
// DUAL-NEXT: [5, 6, 7, 8]
// DUAL: z: f32 [2, 4]
// DUAL-NEXT: [0, 1, 2, 3]
// DUAL-NEXT: [4, 5, 6, 7]
//===----------------------------------------------------------------------===//

func.func @dual_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>, %z: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<4x4xf32> -> !pto.tile<2x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<2x4xf32, mat>
  %back = pto.tile.tpop_from_aiv split 0 : !pto.tile<2x4xf32, mat>
  pto.tile.tpush_to_aiv %back split 0 : !pto.tile<2x4xf32, mat>
  return
}

func.func @dual_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>, %z: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %li = arith.index_cast %lane : index to i32
  %lf = arith.sitofp %li : i32 to f32
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<2x4xf32, vec>
  %u = pto.tile.adds %t, %lf : !pto.tile<2x4xf32, vec>, f32
  %row = arith.muli %lane, %c2 : index
  %o = pto.tile.store %u, %y[%row, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<4x4xf32>
  %ten = arith.constant 10.0 : f32
  %bump = arith.mulf %lf, %ten : f32
  %v = pto.tile.adds %t, %bump : !pto.tile<2x4xf32, vec>, f32
  pto.tile.tpush_to_aic %v split 0 : !pto.tile<2x4xf32, vec>
  %w = pto.tile.tpop_from_aic split 0 : !pto.tile<2x4xf32, vec>
  %is_lane0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %is_lane0 {
    %oz = pto.tile.store %w, %z[%c0, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<2x4xf32>
  }
  return
}

func.func @dual(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>, %z: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<group>, pto.dual_aiv_dispatch} {
  return
}

func.func @run_dual(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>, %z: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @dual(%x, %y, %z) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>, !pto.tensor<2x4xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// No split, one lane: the single queue, and the group returns the lane's
// result (x doubled).
// SINGLE: result: f32 [4, 4]
// SINGLE-NEXT: [0, 2, 4, 6]
// SINGLE: [24, 26, 28, 30]
//===----------------------------------------------------------------------===//

func.func @single_aic(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<4x4xf32> -> !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<4x4xf32, mat>
  return
}

func.func @single_aiv(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) -> !pto.tensor<4x4xf32> attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<4x4xf32, vec>
  %d = pto.tile.add %t, %t : !pto.tile<4x4xf32, vec>
  %o = pto.tile.store %d, %y[%c0, %c0] : !pto.tile<4x4xf32, vec> -> !pto.tensor<4x4xf32>
  return %o : !pto.tensor<4x4xf32>
}

func.func @single(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) -> !pto.tensor<4x4xf32> attributes {pto.kind = #pto.kind<group>} {
  return %y : !pto.tensor<4x4xf32>
}

func.func @run_single(%x: !pto.tensor<4x4xf32>, %y: !pto.tensor<4x4xf32>) -> !pto.tensor<4x4xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %r = call @single(%x, %y) : (!pto.tensor<4x4xf32>, !pto.tensor<4x4xf32>) -> !pto.tensor<4x4xf32>
  return %r : !pto.tensor<4x4xf32>
}
