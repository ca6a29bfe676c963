// The group merge (pto-merge-groups), on its own: the order it puts both
// cores' ops in, the lanes, the slots and the record each transfer carries
// for the lowering; then what it refuses. What the merged kernel computes is
// checked with the lowering (compile --verify-each in compile-examples.test
// and compile-pto.test run the PTO kernel before and the AscendC kernel
// after; the merged form alone holds both cores' transfers in one function).
// RUN: tilekit-opt %examples/mixed_scaled_matmul.mlir --pto-merge-groups | FileCheck %s
// RUN: tilekit-opt %examples/mixed_scaled_matmul.mlir --pto-merge-groups | tilekit-opt --convert-pto-to-ascendc --ascendc-form-core-groups | FileCheck %s --check-prefix=LOWERED
// RUN: not tilekit-opt %examples/mixed_scaled_matmul.mlir --convert-pto-to-ascendc 2>&1 | FileCheck %s --check-prefix=UNMERGED
// RUN: not tilekit-opt %s -split-input-file --pto-merge-groups 2>&1 | FileCheck %s --check-prefix=ERR

// examples/mixed_scaled_matmul.mlir: each lane scales its 32 rows and
// pushes them (split 1: lane 0 the rows before the cut, 32, lane 1 those
// after); the cube pops the whole 64 x 64 box only once both lanes pushed,
// multiplies, and pushes the product, of which each lane pops its part.
// Lane 1's ops follow lane 0's, with get_subblock_idx its constant, and
// each names its lane (tilekit.lane; the cube's ops name none). One
// workspace per pipe direction and slot, numbered; a push has an id, a pop
// names per lane the push that feeds it. The members are gone.
// CHECK-LABEL: func.func @scaled_matmul(
// CHECK-SAME: attributes {tilekit.merged_group}
// CHECK-DAG: %[[OUT:.*]] = ascendc.workspace {tilekit.workspace = 1 : i64} : <64x64xf32>
// CHECK-DAG: %[[IN:.*]] = ascendc.workspace {tilekit.workspace = 0 : i64} : <64x64xf16>
// CHECK: %[[LANE1:.*]] = arith.constant 1 : index
// CHECK-NEXT: arith.muli %[[LANE0:.*]], %{{.*}} {tilekit.lane = 0 : i64} : index
// CHECK-NEXT: arith.muli %[[LANE1]], %{{.*}} {tilekit.lane = 1 : i64} : index
// CHECK: pto.tile.tpush_to_aic {{.*}} {tilekit.lane = 0 : i64, tilekit.transfer = {cut = 32 : i64, id = 0 : i64, lane = 0 : i64, lanes = 2 : i64, workspace = 0 : i64}}
// CHECK-NEXT: pto.tile.tpush_to_aic {{.*}} {tilekit.lane = 1 : i64, tilekit.transfer = {cut = 32 : i64, id = 1 : i64, lane = 1 : i64, lanes = 2 : i64, workspace = 0 : i64}}
// CHECK: pto.tile.tpop_from_aiv split 1 {tilekit.transfer = {cut = 32 : i64, lane = 0 : i64, lanes = 2 : i64, partners = array<i64: 0, 1>, workspace = 0 : i64}}
// CHECK: pto.tile.matmul
// CHECK-NEXT: pto.tile.tpush_to_aiv {{.*}} {tilekit.transfer = {cut = 32 : i64, id = 2 : i64, lane = 0 : i64, lanes = 2 : i64, workspace = 1 : i64}}
// CHECK-NEXT: pto.tile.tpop_from_aic split 1 {tilekit.lane = 0 : i64, tilekit.transfer = {cut = 32 : i64, lane = 0 : i64, lanes = 2 : i64, partners = array<i64: 2, -1>, workspace = 1 : i64}}
// CHECK-NEXT: pto.tile.tpop_from_aic split 1 {tilekit.lane = 1 : i64, tilekit.transfer = {cut = 32 : i64, lane = 1 : i64, lanes = 2 : i64, partners = array<i64: -1, 2>, workspace = 1 : i64}}
// CHECK-NOT: func.func @scaled_matmul_aic
// CHECK-NOT: func.func @scaled_matmul_aiv
// CHECK: func.func @main(

// The lowering reads the records (the text form round-trips) and drops
// them with the marks; the lanes go to the local tensors made for them.
// LOWERED-LABEL: func.func @scaled_matmul(
// LOWERED-NOT: tilekit.
// LOWERED-DAG: ascendc.local_tensor_auto vecin {ascendc.lane = 0 : i64}
// LOWERED-DAG: ascendc.local_tensor_auto vecin {ascendc.lane = 1 : i64}
// LOWERED: ascendc.if_aiv
// LOWERED: ascendc.if_aic
// LOWERED: ascendc.fixpipe
// LOWERED: ascendc.if_aiv

// UNMERGED: mixed_scaled_matmul.mlir:{{.*}}: error: 'func.func' op is a group: pto-merge-groups builds its kernel from its members before the lowering

// -----

// Groups: loops holding transfers fuse trip by trip, so both cores' loops
// must run the same trips (loops of constant trips unroll instead).
func.func @looped_aic(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = pto.tile.create : !pto.tile<64x64xf32, acc>
    pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
  }
  return
}
func.func @looped_aiv(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.addi %n, %c1 : index
  // ERR: merge-groups.mlir:[[@LINE+1]]:3: error: 'scf.for' op holds cross-core transfers and runs other trips than the cube's loop at
  scf.for %i = %c0 to %m step %c1 {
    %t = pto.tile.tpop_from_aic split 0 : !pto.tile<64x64xf32, vec>
  }
  return
}
func.func @looped(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// A loop of one core holding transfers meets none on the other.
func.func @one_loop_aic(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // ERR: merge-groups.mlir:[[@LINE+1]]:3: error: 'scf.for' op holds cross-core transfers, but the other core reaches no loop to fuse it with before it must wait for this one (and its trip count is not a constant to unroll it by)
  scf.for %i = %c0 to %n step %c1 {
    %t = pto.tile.create : !pto.tile<64x64xf32, acc>
    pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
  }
  return
}
func.func @one_loop_aiv(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<aiv>} {
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<64x64xf32, vec>
  return
}
func.func @one_loop(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// A trip that pushes two tiles where the other core pops one leaves a tile
// more in flight after each trip: the fused trips would not repeat.
func.func @unbalanced_aic(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // ERR: merge-groups.mlir:[[@LINE+1]]:3: error: 'scf.for' op and the vector core's loop at
  scf.for %i = %c0 to %n step %c1 {
    %t = pto.tile.create : !pto.tile<64x64xf32, acc>
    pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
    pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
  }
  return
}
func.func @unbalanced_aiv(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = pto.tile.tpop_from_aic split 0 : !pto.tile<64x64xf32, vec>
  }
  return
}
func.func @unbalanced(%x: !pto.tensor<64x64xf32>, %n: index) attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// Each core pops before it pushes what the other pops: no order runs.
func.func @crossed_aic(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aic>} {
  // ERR: merge-groups.mlir:[[@LINE+1]]:8: error: 'pto.tile.tpop_from_aiv' op waits for a tile the other core pushes only after it pops one itself: the group deadlocks
  %m = pto.tile.tpop_from_aiv split 0 : !pto.tile<64x64xf32, mat>
  %t = pto.tile.create : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
  return
}
func.func @crossed_aiv(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<64x64xf32, vec>
  pto.tile.tpush_to_aic %t split 0 : !pto.tile<64x64xf32, vec>
  return
}
func.func @crossed(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// Pipe 0 has one slot: the cube's second push waits for the vector core's
// pop, which waits for pipe 1, pushed only after it (Inputs/slots.mlir
// has the same kernel with slots enough).
func.func @twice_aic(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aic>} {
  pto.system.aic_initialize_pipe 0 to_aiv slot_num 1 slot_size 16384
  %t = pto.tile.create : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
  // ERR: merge-groups.mlir:[[@LINE+1]]:3: error: 'pto.tile.tpush_to_aiv' op pushes a tile on pipe 0 whose slots are all full while the other core waits too: the group deadlocks
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %t split 0 pipe 1 : !pto.tile<64x64xf32, acc>
  return
}
func.func @twice_aiv(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  pto.system.aiv_initialize_pipe 0 to_aiv slot_num 1 slot_size 16384
  %c = pto.tile.tpop_from_aic split 0 pipe 1 : !pto.tile<64x64xf32, vec>
  %a = pto.tile.tpop_from_aic split 0 : !pto.tile<64x64xf32, vec>
  %b = pto.tile.tpop_from_aic split 0 : !pto.tile<64x64xf32, vec>
  return
}
func.func @twice(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<group>} {
  return
}

// -----

// The pushes of a pipe cut their tiles between the lanes in one place.
func.func @cuts_aic(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %t = pto.tile.create : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %t split 3 lane_stride 30 : !pto.tile<64x64xf32, acc>
  // ERR: merge-groups.mlir:[[@LINE+1]]:3: error: 'pto.tile.tpush_to_aiv' op cuts its tile between the lanes elsewhere than another push on pipe 0, which is not lowered: each pipe's workspace is cut in one place
  pto.tile.tpush_to_aiv %t split 3 : !pto.tile<64x64xf32, acc>
  return
}
func.func @cuts_aiv(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aiv>, pto.split = 3 : i32} {
  %a = pto.tile.tpop_from_aic split 3 : !pto.tile<34x64xf32, vec>
  %b = pto.tile.tpop_from_aic split 3 : !pto.tile<34x64xf32, vec>
  return
}
func.func @cuts(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<group>} {
  return
}


// -----

// A lane's queue carries a 16 x 16 f32 part, 1024 bytes; the pipe's slots
// hold 512 (test/Interp/pipe-slots.mlir: the PTO run says the same).
func.func @big_aic() attributes {pto.kind = #pto.kind<aic>} {
  pto.system.aic_initialize_pipe 0 to_aiv slot_num 2 slot_size 512
  %t = pto.tile.create : !pto.tile<16x16xf32, acc>
  // ERR: merge-groups.mlir:[[@LINE+1]]:3: error: 'pto.tile.tpush_to_aiv' op pushes 1024 bytes per lane queue into pipe 0, whose slots hold 512 bytes (set by its initialize_pipe)
  pto.tile.tpush_to_aiv %t split 0 : !pto.tile<16x16xf32, acc>
  return
}
func.func @big_aiv() attributes {pto.kind = #pto.kind<aiv>} {
  pto.system.aiv_initialize_pipe 0 to_aiv slot_num 2 slot_size 512
  %r = pto.tile.tpop_from_aic split 0 : !pto.tile<16x16xf32, vec>
  return
}
func.func @big() attributes {pto.kind = #pto.kind<group>} {
  return
}
