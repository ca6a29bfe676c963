// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-insert-bufid-sync))' | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-insert-bufid-sync,ascendc-insert-bufid-sync))' | FileCheck %s

// Ids in allocation order, per core (UB allocations are the vector core's,
// the others the cube's), wrapping at the 28 Mutex ids a kernel picks; each
// instruction acquires the ids of the tensors
// it uses on its own pipe (casts resolve to their allocation) and releases
// them after.
// CHECK-LABEL: func.func @kernel(
// CHECK: ascendc.local_tensor vecin addr 0 size 256 {ascendc.buf_id = 0 : i64}
// CHECK: ascendc.local_tensor vecout addr 256 size 256 {ascendc.buf_id = 1 : i64}
// CHECK: ascendc.tbuf_get_tensor veccalc {ascendc.buf_id = 2 : i64}
// CHECK: scf.for
// GM -> UB load: MTE2 on buffer 0.
// CHECK-NEXT: ascendc.get_buf mte2, 0
// CHECK-NEXT: ascendc.data_copy {{.*}} {ascendc.buf_ids = array<i64: 0>}
// CHECK-NEXT: ascendc.rls_buf mte2, 0
// Vector op reading 0 and writing 1 (through a cast of 1): V on 1 then 0.
// CHECK-NEXT: ascendc.reinterpret_cast
// CHECK-NEXT: ascendc.get_buf v, 1
// CHECK-NEXT: ascendc.get_buf v, 0
// CHECK-NEXT: ascendc.exp_l2 {{.*}} {ascendc.buf_ids = array<i64: 1, 0>}
// CHECK-NEXT: ascendc.rls_buf v, 1
// CHECK-NEXT: ascendc.rls_buf v, 0
// A binary op using buffer 2 twice acquires it once.
// CHECK-NEXT: ascendc.get_buf v, 2
// CHECK-NEXT: ascendc.add_l2 {{.*}} {ascendc.buf_ids = array<i64: 2>}
// CHECK-NEXT: ascendc.rls_buf v, 2
// UB -> GM store: MTE3 on buffer 1.
// CHECK-NEXT: ascendc.get_buf mte3, 1
// CHECK-NEXT: ascendc.data_copy {{.*}} {ascendc.buf_ids = array<i64: 1>}
// CHECK-NEXT: ascendc.rls_buf mte3, 1
// The loop stores and loads GM: the next iteration's loads wait, after
// the loads hand over to MTE3 (so that each set finds its event's bit
// down: the chip keeps one bit per event).
// CHECK-NEXT: ascendc.set_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.set_flag mte3 -> mte2, event 0
// CHECK-NEXT: ascendc.wait_flag mte3 -> mte2, event 0
// CHECK-NEXT: }
// A vector-scope loop gets no loop-end sync.
// CHECK: scf.for
// CHECK-NOT: set_flag
// CHECK: } {ascendc.vec_scope_loop}
func.func @kernel(%gm: !ascendc.global_tensor<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = ascendc.local_tensor vecin addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %out = ascendc.local_tensor vecout addr 256 size 256 : !ascendc.local_tensor<64xf32>
  %tmp = ascendc.tbuf_get_tensor veccalc : !ascendc.local_tensor<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    %view = ascendc.reinterpret_cast %out : !ascendc.local_tensor<64xf32> to !ascendc.local_tensor<64xf32>
    ascendc.exp_l2 %view, %in, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    ascendc.add_l2 %tmp, %tmp, %tmp, %n : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    ascendc.data_copy %gm, %out : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    ascendc.data_copy %in, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
    ascendc.data_copy %gm, %in : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
  } {ascendc.vec_scope_loop}
  return
}

// Cube pipes: MTE1 for L1 loads, M for mmad, FIX for fixpipe; a loop that
// stores and loads L1 waits MTE3 -> MTE1.
// CHECK-LABEL: func.func @cube(
// CHECK: ascendc.local_tensor veccalc addr 0 size 512 {ascendc.buf_id = 0 : i64}
// CHECK: ascendc.get_buf mte1, 1
// CHECK-NEXT: ascendc.get_buf mte1, 0
// CHECK-NEXT: ascendc.load_data
// CHECK: ascendc.get_buf m, 2
// CHECK-NEXT: ascendc.get_buf m, 1
// CHECK-NEXT: ascendc.get_buf m, 3
// CHECK-NEXT: ascendc.mmad
// CHECK: ascendc.get_buf fix, 2
// CHECK-NEXT: ascendc.fixpipe
// The UB -> L1 copy: L1 is id 0 of the cube's allocations, the UB tensor
// id 0 of the vector core's (each core numbers its own, from 0); the copy
// takes the id once.
// CHECK: ascendc.get_buf mte3, 0
// CHECK-NEXT: ascendc.data_copy {{.*}} {ascendc.buf_ids = array<i64: 0>}
// CHECK: ascendc.set_flag mte1 -> mte3, event 0
// CHECK-NEXT: ascendc.wait_flag mte1 -> mte3, event 0
// CHECK-NEXT: ascendc.set_flag mte3 -> mte1, event 0
// CHECK-NEXT: ascendc.wait_flag mte3 -> mte1, event 0
func.func @cube(%out: !ascendc.global_tensor<16x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %b = ascendc.local_tensor b2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.load_data %a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.mmad %acc, %a, %b m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.fixpipe %out, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// A loop around a vector group that loads and stores: the loop-end
// MTE3 -> MTE2 pair goes at the end of the group, on the core whose pipes
// it orders, not in the loop body outside both groups (where the cube
// would run it too). The cube group, which only loads, gets none.
// CHECK-LABEL: func.func @loop_of_groups(
// CHECK: scf.for
// CHECK: ascendc.if_aic {
// CHECK-NOT: set_flag
// CHECK: }
// CHECK: ascendc.if_aiv {
// CHECK: ascendc.data_copy %arg0
// CHECK: ascendc.set_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.wait_flag mte2 -> mte3, event 0
// CHECK-NEXT: ascendc.set_flag mte3 -> mte2, event 0
// CHECK-NEXT: ascendc.wait_flag mte3 -> mte2, event 0
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @loop_of_groups(%gm: !ascendc.global_tensor<64xf32>, %x: !ascendc.global_tensor<16x16xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ub = ascendc.local_tensor veccalc addr 0 size 256 : !ascendc.local_tensor<64xf32>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.if_aic {
      ascendc.data_copy %l1, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
    }
    ascendc.if_aiv {
      ascendc.data_copy %ub, %gm : !ascendc.local_tensor<64xf32>, !ascendc.global_tensor<64xf32>
      ascendc.data_copy %gm, %ub : !ascendc.global_tensor<64xf32>, !ascendc.local_tensor<64xf32>
    }
  }
  return
}
