// Cross-core pipes have the slots their initialize_pipe declares: a push
// blocks while every slot is full, so a kernel that pushes more than the
// slots before its partner pops deadlocks on the machine, and tilekit
// reports it. --unbounded-pipes reproduces the reference runtime's
// unbounded queues, where the same kernel runs.
// RUN: not tilekit run %s --entry run_overfill 2>&1 | FileCheck %s --check-prefix=OVERFILL
// RUN: tilekit run %s --entry run_overfill --unbounded-pipes
// RUN: tilekit run %s --entry run_fits
// RUN: not tilekit run %s --entry run_big 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not tilekit run %s --entry run_disagree 2>&1 | FileCheck %s --check-prefix=DISAGREE

// Both ends push three tiles before popping any, through two slots each
// way: both block on their third push.
// OVERFILL: error: 'func.call' op launched group '@overfill', which stopped: deadlock: every live core waits for a tile that no live core can send, or for a slot that no live core can free
// OVERFILL-DAG: pipe-slots.mlir:25:5: note: @overfill_aic (cube) waits in pto.tile.tpush_to_aiv (split 0)
// OVERFILL-DAG: pipe-slots.mlir:39:5: note: @overfill_aiv (lane 0) waits in pto.tile.tpush_to_aic (split 0)
// OVERFILL: note: queue depths: to_aic[pipe 0]: 2, to_aiv[pipe 0]: 2
func.func @overfill_aic() attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  pto.system.aic_initialize_pipe 0 both slot_num 2 slot_size 1024
  %t = pto.tile.create : !pto.tile<4x4xf32, acc>
  scf.for %i = %c0 to %c3 step %c1 {
    pto.tile.tpush_to_aiv %t split 0 : !pto.tile<4x4xf32, acc>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %r = pto.tile.tpop_from_aiv split 0 : !pto.tile<4x4xf16, mat>
  }
  return
}
func.func @overfill_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  pto.system.aiv_initialize_pipe 0 both slot_num 2 slot_size 1024
  %t = pto.tile.create : !pto.tile<4x4xf16, vec>
  scf.for %i = %c0 to %c3 step %c1 {
    pto.tile.tpush_to_aic %t split 0 : !pto.tile<4x4xf16, vec>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %r = pto.tile.tpop_from_aic split 0 : !pto.tile<4x4xf32, vec>
  }
  return
}
func.func @overfill() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_overfill() attributes {pto.kind = #pto.kind<orchestration>} {
  call @overfill() : () -> ()
  return
}

// Three slots hold the three tiles: the same kernel runs.
func.func @fits_aic() attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  pto.system.aic_initialize_pipe 0 both slot_num 3 slot_size 1024
  %t = pto.tile.create : !pto.tile<4x4xf32, acc>
  scf.for %i = %c0 to %c3 step %c1 {
    pto.tile.tpush_to_aiv %t split 0 : !pto.tile<4x4xf32, acc>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %r = pto.tile.tpop_from_aiv split 0 : !pto.tile<4x4xf16, mat>
  }
  return
}
func.func @fits_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  pto.system.aiv_initialize_pipe 0 both slot_num 3 slot_size 1024
  %t = pto.tile.create : !pto.tile<4x4xf16, vec>
  scf.for %i = %c0 to %c3 step %c1 {
    pto.tile.tpush_to_aic %t split 0 : !pto.tile<4x4xf16, vec>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %r = pto.tile.tpop_from_aic split 0 : !pto.tile<4x4xf32, vec>
  }
  return
}
func.func @fits() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_fits() attributes {pto.kind = #pto.kind<orchestration>} {
  call @fits() : () -> ()
  return
}

// A tile larger than a slot cannot be pushed: 16 x 16 f32 is 1024 bytes,
// the slots hold 512.
// BIG: pipe-slots.mlir:[[@LINE+4]]:3: error: 'pto.tile.tpush_to_aiv' op pushes 1024 bytes per lane queue into pipe 0, whose slots hold 512 bytes (set by its initialize_pipe)
func.func @big_aic() attributes {pto.kind = #pto.kind<aic>} {
  pto.system.aic_initialize_pipe 0 to_aiv slot_num 2 slot_size 512
  %t = pto.tile.create : !pto.tile<16x16xf32, acc>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<16x16xf32, acc>
  return
}
func.func @big_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  %r = pto.tile.tpop_from_aic split 0 : !pto.tile<16x16xf32, vec>
  return
}
func.func @big() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_big() attributes {pto.kind = #pto.kind<orchestration>} {
  call @big() : () -> ()
  return
}

// The two ends must agree on the slots of a direction they share. The
// error names the aiv end, whichever end's thread declared second.
// DISAGREE: pipe-slots.mlir:[[# @LINE + 8]]:3: error: 'pto.system.aiv_initialize_pipe' op sets up pipe 1 (to_aiv) with slots the other end does not agree on: the aic end declares 2 x 1024 bytes, the aiv end 4 x 1024
// DISAGREE: pipe-slots.mlir:[[# @LINE + 3]]:3: note: the aic end's declaration
// DISAGREE-NOT: launched group
func.func @disagree_aic() attributes {pto.kind = #pto.kind<aic>} {
  pto.system.aic_initialize_pipe 1 to_aiv slot_num 2 slot_size 1024
  return
}
func.func @disagree_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  pto.system.aiv_initialize_pipe 1 to_aiv slot_num 4 slot_size 1024
  return
}
func.func @disagree() attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_disagree() attributes {pto.kind = #pto.kind<orchestration>} {
  call @disagree() : () -> ()
  return
}
