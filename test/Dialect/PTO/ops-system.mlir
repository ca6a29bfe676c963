// RUN: tilekit-opt %s | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s --mlir-print-op-generic | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s -emit-bytecode | tilekit-opt | FileCheck %s

// Round trip of the system ops and the cross-core pipe ops.

// Flags between pipes and barriers.
// CHECK-LABEL: func.func @sync
// CHECK-SAME: () attributes {pto.kind = #pto.kind<incore>}
// CHECK: pto.system.sync_src mte2 -> v, event 0
// CHECK: pto.system.sync_dst mte2 -> v, event 0
// CHECK: pto.system.sync_src v -> mte3, event 7
// CHECK: pto.system.sync_dst m -> fix, event 3
// CHECK: pto.system.sync_src mte1 -> m, event 1
// CHECK: pto.system.sync_dst s -> mte2, event 2
// CHECK: pto.system.bar_v
// CHECK: pto.system.bar_m
// CHECK: pto.system.bar_all
// CHECK: return
func.func @sync() attributes {pto.kind = #pto.kind<incore>} {
  pto.system.sync_src mte2 -> v, event 0
  pto.system.sync_dst mte2 -> v, event 0
  pto.system.sync_src v -> mte3, event 7
  pto.system.sync_dst m -> fix, event 3
  pto.system.sync_src mte1 -> m, event 1
  pto.system.sync_dst s -> mte2, event 2
  pto.system.bar_v
  pto.system.bar_m
  pto.system.bar_all
  return
}

// The cube end of the cross-core pipes: receive into L1, send from L0C or L1.
// CHECK-LABEL: func.func @mix_aic
// CHECK-SAME: (%{{.*}}: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aic>}
// CHECK: pto.system.aic_initialize_pipe 0 both slot_num 2 slot_size 16384
// CHECK: pto.system.aic_initialize_pipe 1 to_aiv slot_num 4 slot_size 8192
// CHECK: %{{.*}} = pto.tile.tpop_from_aiv split 0 : !pto.tile<64x64xf16, mat>
// CHECK: %{{.*}} = pto.tile.tpop_from_aiv split 1 pipe 1 : !pto.tile<64x64xf16, mat>
// CHECK: %{{.*}} = pto.tile.tpop_from_aiv split 2 : !pto.tile<64x64xf16, mat>
// CHECK: %{{.*}} = pto.tile.create : !pto.tile<64x64xf32, acc>
// CHECK: pto.tile.tpush_to_aiv %{{.*}} split 0 : !pto.tile<64x64xf32, acc>
// CHECK: pto.tile.tpush_to_aiv %{{.*}} split 1 : !pto.tile<64x64xf32, acc>
// CHECK: pto.tile.tpush_to_aiv %{{.*}} split 2 pipe 1 : !pto.tile<64x64xf32, acc>
// CHECK: pto.tile.tpush_to_aiv %{{.*}} split 3 : !pto.tile<64x64xf32, acc>
// CHECK: pto.tile.tpush_to_aiv %{{.*}} split 4 lane_stride 40 : !pto.tile<64x64xf32, acc>
// CHECK: pto.tile.tpush_to_aiv %{{.*}} split 1 : !pto.tile<64x64xf16, mat>
// CHECK: return
func.func @mix_aic(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aic>} {
  pto.system.aic_initialize_pipe 0 both slot_num 2 slot_size 16384
  pto.system.aic_initialize_pipe 1 to_aiv slot_num 4 slot_size 8192
  %t = pto.tile.tpop_from_aiv split 0 : !pto.tile<64x64xf16, mat>
  %u = pto.tile.tpop_from_aiv split 1 pipe 1 : !pto.tile<64x64xf16, mat>
  %w = pto.tile.tpop_from_aiv split 2 : !pto.tile<64x64xf16, mat>
  %c = pto.tile.create : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %c split 0 : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %c split 1 : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %c split 2 pipe 1 : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %c split 3 : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %c split 4 lane_stride 40 : !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %t split 1 : !pto.tile<64x64xf16, mat>
  return
}

// The vector end of the cross-core pipes: UB on both ways.
// CHECK-LABEL: func.func @mix_aiv
// CHECK-SAME: (%{{.*}}: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32}
// CHECK: pto.system.aiv_initialize_pipe 0 to_aic slot_num 2 slot_size 16384
// CHECK: %{{.*}} = pto.tile.get_subblock_idx
// CHECK: %{{.*}} = pto.tile.tpop_from_aic split 1 : !pto.tile<32x64xf32, vec>
// CHECK: %{{.*}} = pto.tile.tpop_from_aic split 3 pipe 2 : !pto.tile<33x64xf32, vec>
// CHECK: pto.tile.tpush_to_aic %{{.*}} split 1 : !pto.tile<32x64xf32, vec>
// CHECK: pto.tile.tpush_to_aic %{{.*}} split 0 pipe 1 : !pto.tile<32x64xf32, vec>
// CHECK: return
func.func @mix_aiv(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32} {
  pto.system.aiv_initialize_pipe 0 to_aic slot_num 2 slot_size 16384
  %lane = pto.tile.get_subblock_idx
  %t = pto.tile.tpop_from_aic split 1 : !pto.tile<32x64xf32, vec>
  %u = pto.tile.tpop_from_aic split 3 pipe 2 : !pto.tile<33x64xf32, vec>
  pto.tile.tpush_to_aic %t split 1 : !pto.tile<32x64xf32, vec>
  pto.tile.tpush_to_aic %t split 0 pipe 1 : !pto.tile<32x64xf32, vec>
  return
}

// A group pairs @mix_aic and @mix_aiv by name.
// CHECK-LABEL: func.func @mix
// CHECK-SAME: (%{{.*}}: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32}
// CHECK: return
func.func @mix(%x: !pto.tensor<64x64xf32>) attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

