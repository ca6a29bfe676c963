// Failures of group launches: parity, the return contract, deadlocks,
// timeouts, and a failing lane cancelling the others.
// RUN: not tilekit run %s --entry run_parity 2>&1 | FileCheck %s --check-prefix=PARITY
// RUN: not tilekit run %s --entry run_merge_parity 2>&1 | FileCheck %s --check-prefix=MERGE
// RUN: not tilekit run %s --entry run_returns 2>&1 | FileCheck %s --check-prefix=RETURN
// RUN: not tilekit run %s --entry run_unpaired 2>&1 | FileCheck %s --check-prefix=UNPAIRED
// RUN: not tilekit run %s --entry run_both_wait 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not tilekit run %s --entry run_slow --pop-timeout 0.2 2>&1 | FileCheck %s --check-prefix=POPTIME
// RUN: not tilekit run %s --entry run_busy --group-timeout 0.3 2>&1 | FileCheck %s --check-prefix=GROUPTIME
// RUN: not tilekit run %s --entry run_lane_fails --input y=zeros:2x4:f32 2>&1 | FileCheck %s --check-prefix=LANEFAIL
// RUN: not tilekit run %s --entry run_too_small 2>&1 | FileCheck %s --check-prefix=FIT

// Split 1 needs an even valid extent: 3 valid rows are an error, checked
// against the valid extent, not the 4-row box.
// PARITY: cross-core-errors.mlir:[[@LINE+6]]:3: error: 'pto.tile.tpush_to_aiv' op split code 1 (up/down) needs an even valid extent along dim 0, but the tile's valid extent is 3
// PARITY: error: 'func.call' op launched group '@parity', which failed in @parity_aic (cube)
func.func @parity_aic() attributes {pto.kind = #pto.kind<aic>} {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %t = pto.tile.create valid [%c3, %c4] : !pto.tile<4x4xf32, mat>
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<4x4xf32, mat>
  return
}
func.func @parity_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %t = pto.tile.tpop_from_aic split 1 : !pto.tile<2x4xf32, vec>
  return
}
func.func @parity() attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_parity() attributes {pto.kind = #pto.kind<orchestration>} {
  call @parity() : () -> ()
  return
}

// The merged extent of a vector-to-cube split transfer is checked too:
// lane 0 sends 2 full rows, lane 1 one valid row, 3 in all.
// MERGE: error: 'pto.tile.tpop_from_aiv' op split code 1 (up/down) needs an even valid extent along dim 0, but the tile's valid extent is 3
func.func @merge_parity_aic() attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.tpop_from_aiv split 1 : !pto.tile<4x4xf32, mat>
  return
}
func.func @merge_parity_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %lane = pto.tile.get_subblock_idx
  %rows = arith.subi %c2, %lane : index
  %t = pto.tile.create valid [%rows, %c4] : !pto.tile<2x4xf32, vec>
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<2x4xf32, vec>
  return
}
func.func @merge_parity() attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
func.func @run_merge_parity() attributes {pto.kind = #pto.kind<orchestration>} {
  call @merge_parity() : () -> ()
  return
}

// Only vector lane 0 may return a value; with two lanes, lane 1 does too.
// RETURN: error: 'func.call' op launched group '@returns', whose @returns_aiv returned a value on lane 1; a group returns only vector lane 0's results
func.func @returns_aic() attributes {pto.kind = #pto.kind<aic>} {
  return
}
func.func @returns_aiv() -> index attributes {pto.kind = #pto.kind<aiv>} {
  %lane = pto.tile.get_subblock_idx
  return %lane : index
}
func.func private @returns() -> index attributes {pto.kind = #pto.kind<group>, pto.split = 2 : i32}
func.func @run_returns() attributes {pto.kind = #pto.kind<orchestration>} {
  %r = call @returns() : () -> index
  return
}

// An unpaired pop is a deadlock, reported at once with each waiter (here
// both lanes) and the queue depths.
// UNPAIRED: error: 'func.call' op launched group '@unpaired', which stopped: deadlock: every live thread waits for a tile that no live thread can send
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
