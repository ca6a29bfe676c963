// Failures of group launches: odd cuts, torn merges, deadlocks,
// timeouts, and a failing lane cancelling the others.
// RUN: not tilekit run %s --entry run_odd_cut 2>&1 | FileCheck %s --check-prefix=ODDCUT
// RUN: not tilekit run %s --entry run_torn 2>&1 | FileCheck %s --check-prefix=TORN
// RUN: not tilekit run %s --entry run_ragged 2>&1 | FileCheck %s --check-prefix=RAGGED
// RUN: not tilekit run %s --entry run_unpaired 2>&1 | FileCheck %s --check-prefix=UNPAIRED
// RUN: not tilekit run %s --entry run_both_wait 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not tilekit run %s --entry run_slow --pop-timeout 0.2 2>&1 | FileCheck %s --check-prefix=POPTIME
// RUN: not tilekit run %s --entry run_busy --group-timeout 0.3 2>&1 | FileCheck %s --check-prefix=GROUPTIME
// RUN: not tilekit run %s --entry run_lane_fails --input y=zeros:2x4:f32 2>&1 | FileCheck %s --check-prefix=LANEFAIL
// RUN: not tilekit run %s --entry run_too_small 2>&1 | FileCheck %s --check-prefix=FIT

// An odd code needs lane 0 to hold one valid cell more than lane 1: 21
// valid rows of a 32-row box cut at the half give lanes 16 and 5.
// ODDCUT: cross-core-errors.mlir:[[@LINE+6]]:3: error: 'pto.tile.tpush_to_aiv' op split code 3 (up/down odd) needs lane 0 to hold exactly one valid cell more than lane 1 along dim 0, but the valid extent 21 cut at 16 (the box half) gives lane 0 16 and lane 1 5
// ODDCUT: error: 'func.call' op launched group '@odd_cut', which failed in @odd_cut_aic (cube)
func.func @odd_cut_aic() attributes {pto.kind = #pto.kind<aic>} {
  %c21 = arith.constant 21 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.create valid [%c21, %c4] : !pto.tile<32x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 3 : !pto.tile<32x4xf32, mat>
  return
}
func.func @odd_cut_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %t = pto.tile.tpop_from_aic split 3 : !pto.tile<16x4xf32, vec>
  return
}
func.func @odd_cut() attributes {pto.kind = #pto.kind<group>, pto.split = 3 : i32} {
  return
}
func.func @run_odd_cut() attributes {pto.kind = #pto.kind<orchestration>} {
  call @odd_cut() : () -> ()
  return
}

// A merge keeps one contiguous valid region: lane 0 sends 1 of its 2 rows,
// lane 1 both of its rows, so lane 1's data would not continue lane 0's.
// TORN: error: 'pto.tile.tpop_from_aiv' op merges lane 0's valid shape [1, 4] and lane 1's [2, 4] along dim 0: lane 1 holds valid data but lane 0 is not full (box 2), so the merged valid region would not be contiguous
func.func @torn_aic() attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 1 : !pto.tile<4x4xf32, mat>
  return
}
func.func @torn_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lane = pto.tile.get_subblock_idx
  %rows = arith.addi %c1, %lane : index
  %t = pto.tile.create valid [%rows, %c4] : !pto.tile<2x4xf32, vec>
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<2x4xf32, vec>
  return
}
func.func @torn() attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_torn() attributes {pto.kind = #pto.kind<orchestration>} {
  call @torn() : () -> ()
  return
}

// ... and one rectangle: lane 0 is full with 4 columns, lane 1 has 3.
// RAGGED: error: 'pto.tile.tpop_from_aiv' op merges lane 0's valid shape [2, 4] and lane 1's [2, 3] along dim 0: their valid extents along dim 1 differ, so the merged valid region would not be a rectangle
func.func @ragged_aic() attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 1 : !pto.tile<4x4xf32, mat>
  return
}
func.func @ragged_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %lane = pto.tile.get_subblock_idx
  %cols = arith.subi %c4, %lane : index
  %t = pto.tile.create valid [%c2, %cols] : !pto.tile<2x4xf32, vec>
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<2x4xf32, vec>
  return
}
func.func @ragged() attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_ragged() attributes {pto.kind = #pto.kind<orchestration>} {
  call @ragged() : () -> ()
  return
}

// An unpaired pop is a deadlock, reported at once with each waiter (here
// both lanes) and the queue depths.
// UNPAIRED: error: 'func.call' op launched group '@unpaired', which stopped: deadlock: every live core waits for a tile that no live core can send
// UNPAIRED-DAG: cross-core-errors.mlir:[[@LINE+7]]:8: note: @unpaired_aiv (lane 0) waits in pto.tile.tpop_from_aic (split 1)
// UNPAIRED-DAG: cross-core-errors.mlir:[[@LINE+6]]:8: note: @unpaired_aiv (lane 1) waits in pto.tile.tpop_from_aic (split 1)
// UNPAIRED: note: queue depths: to_aiv[pipe 0, split 1, lane 0]: 0
func.func @unpaired_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @unpaired_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %t = pto.tile.tpop_from_aic split 1 : !pto.tile<2x4xf32, vec>
  return
}
func.func @unpaired() attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_unpaired() attributes {pto.kind = #pto.kind<orchestration>} {
  call @unpaired() : () -> ()
  return
}

// Both sides waiting on each other: the cube core's pop and the lane's pop.
// BOTH: which stopped: deadlock
// BOTH-DAG: note: @both_wait_aic (cube) waits in pto.tile.tpop_from_aiv (split 0)
// BOTH-DAG: note: @both_wait_aiv (lane 0) waits in pto.tile.tpop_from_aic (split 0)
// BOTH: note: queue depths: to_aic[pipe 0]: 0, to_aiv[pipe 0]: 0
func.func @both_wait_aic() attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 0 : !pto.tile<2x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<2x4xf32, mat>
  return
}
func.func @both_wait_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<2x4xf32, vec>
  pto.tile.tpush_to_aic %t split 0 : !pto.tile<2x4xf32, vec>
  return
}
func.func @both_wait() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_both_wait() attributes {pto.kind = #pto.kind<orchestration>} {
  call @both_wait() : () -> ()
  return
}

// A pop that waits longer than --pop-timeout while its partner is busy.
// POPTIME: which stopped: timeout: a pop waited longer than 200 ms
// POPTIME: note: @slow_aic (cube) waits in pto.tile.tpop_from_aiv (split 0)
// POPTIME: note: still running: @slow_aiv (lane 0)
func.func @slow_aic() attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 0 : !pto.tile<2x4xf32, mat>
  return
}
func.func @slow_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000 : index
  scf.for %i = %c0 to %big step %c1 {
  }
  %t = pto.tile.create : !pto.tile<2x4xf32, vec>
  pto.tile.tpush_to_aic %t split 0 : !pto.tile<2x4xf32, vec>
  return
}
func.func @slow() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_slow() attributes {pto.kind = #pto.kind<orchestration>} {
  call @slow() : () -> ()
  return
}

// A group that runs longer than --group-timeout is stopped.
// GROUPTIME: which stopped: timeout: the group ran longer than 300 ms
// GROUPTIME: note: still running: @busy_aiv (lane 0)
func.func @busy_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @busy_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000 : index
  scf.for %i = %c0 to %big step %c1 {
  }
  return
}
func.func @busy() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_busy() attributes {pto.kind = #pto.kind<orchestration>} {
  call @busy() : () -> ()
  return
}

// Lane 1 fails; the cube core, waiting for both lanes, is cancelled and the
// first error is reported with its function and lane.
// LANEFAIL: cross-core-errors.mlir:[[@LINE+16]]:10: error: 'pto.tile.store' op writes the valid region [2, 4] at offset [2, 0], past the end of the tensor of shape [2, 4]
// LANEFAIL: error: 'func.call' op launched group '@lane_fails', which failed in @lane_fails_aiv (lane 1)
// LANEFAIL-NOT: deadlock
func.func @lane_fails_aic(%y: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 1 : !pto.tile<4x4xf32, mat>
  return
}
func.func @lane_fails_aiv(%y: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lane = pto.tile.get_subblock_idx
  %row = arith.muli %lane, %c2 : index
  %t = pto.tile.create : !pto.tile<2x4xf32, vec>
  %one = arith.constant 1 : index
  %is1 = arith.cmpi eq, %lane, %one : index
  scf.if %is1 {
    %o = pto.tile.store %t, %y[%row, %c0] : !pto.tile<2x4xf32, vec> -> !pto.tensor<2x4xf32>
  }
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<2x4xf32, vec>
  return
}
func.func @lane_fails(%y: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_lane_fails(%y: !pto.tensor<2x4xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @lane_fails(%y) : (!pto.tensor<2x4xf32>) -> ()
  return
}

// A received tile whose valid region does not fit the pop's type.
// FIT: error: 'pto.tile.tpop_from_aic' op receives a tile whose valid shape [4, 4] does not fit '!pto.tile<2x4xf32, vec>'
func.func @too_small_aic() attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.create : !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<4x4xf32, mat>
  return
}
func.func @too_small_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<2x4xf32, vec>
  return
}
func.func @too_small() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_too_small() attributes {pto.kind = #pto.kind<orchestration>} {
  call @too_small() : () -> ()
  return
}
