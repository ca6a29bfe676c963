// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-insert-cross-core-sync-gm))' | FileCheck %s
// After the on-chip pass, GM flags continue its numbering.
// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-insert-cross-core-sync,ascendc-insert-cross-core-sync-gm))' | FileCheck %s --check-prefix=AFTER
// Every flag pairs up and every hazard is ordered after the C310 pipeline:
// RUN: tilekit-opt %s -split-input-file -ascendc-c310-pipeline | tilekit-opt -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null

// L0C -> GM read back by the vector core through a subindex: the fixpipe
// is followed by a FIX set on id, the vector core's read preceded by a
// PIPE_S wait on id. UB -> GM read by the cube core: one MTE3 set, one wait. One bank
// only: vector sub-block 1 does not run a mixed kernel, so id + 16 would
// be set and never waited, or waited and never set (a hung cube).
// Numbering starts at the function's attribute (3), which the pass removes.
// CHECK-LABEL: func.func @gm(
// CHECK-NOT: cross_core_flag_id
// CHECK: ascendc.if_aic {
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 3
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.global_tensor.subindex
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 3
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 4
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 4
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: }
func.func @gm(%y: !ascendc.global_tensor<256xf32>, %z: !ascendc.global_tensor<256xf32>, %off: index) attributes {ascendc.cross_core_flag_id = 3 : i64} {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<256xf32>
  %l1 = ascendc.local_tensor a1 addr 0 size 1024 : !ascendc.local_tensor<256xf32>
  ascendc.if_aic {
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<16x16xf32>
  }
  ascendc.if_aiv {
    %part = ascendc.global_tensor.subindex %y[%off] : !ascendc.global_tensor<256xf32> to !ascendc.global_tensor<256xf32>
    ascendc.data_copy %ub, %part : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
    ascendc.data_copy %z, %ub : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  }
  ascendc.if_aic {
    ascendc.data_copy %l1, %z : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
  }
  return
}

// -----

// A GM write nobody reads later on the other core gets no flag and uses no
// id; the next write with a consumer takes id 0.
// CHECK-LABEL: func.func @unread(
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 0
// CHECK-NEXT: }
// AFTER-LABEL: func.func @unread(
// AFTER: ascendc.cross_core_set_flag fix, flag 0
func.func @unread(%y: !ascendc.global_tensor<256xf32>, %w: !ascendc.global_tensor<256xf32>) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<256xf32>
  ascendc.if_aiv {
    ascendc.data_copy %w, %ub : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  }
  ascendc.if_aic {
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<16x16xf32>
  }
  ascendc.if_aiv {
    ascendc.data_copy %ub, %y : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
  }
  return
}

// -----

// The on-chip pass used flag 0 for the UB -> L1 transfer; the GM transfer
// takes 1.
// AFTER-LABEL: func.func @both(
// AFTER-NOT: cross_core_flag_id
// AFTER: ascendc.cross_core_set_flag mte3, flag 0
// AFTER: ascendc.cross_core_set_flag fix, flag 1
// AFTER-NEXT: }
func.func @both(%y: !ascendc.global_tensor<256xf32>) {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %out = ascendc.local_tensor veccalc addr 512 size 1024 : !ascendc.local_tensor<256xf32>
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<16x16xf32>
  }
  ascendc.if_aiv {
    ascendc.data_copy %out, %y : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
  }
  return
}

// -----

// The cube writes y, the vector core reads it, the cube writes y again:
// the second write waits for the vector core's read (backward signal, set
// on the reading pipe right after the read). The flag of y serves both
// directions: the cube's and the vector core's counters of one id are
// distinct.
// CHECK-LABEL: func.func @rewrite(
// CHECK: ascendc.if_aic {
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte2, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: }
func.func @rewrite(%y: !ascendc.global_tensor<256xf32>) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<256xf32>
  ascendc.if_aic {
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<16x16xf32>
  }
  ascendc.if_aiv {
    ascendc.data_copy %ub, %y : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
  }
  ascendc.if_aic {
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<16x16xf32>
  }
  return
}

// -----

// The producer group runs under an scf.if, its consumer always: the set
// goes after the if, in a new cube group, so the vector core's wait ends
// whether or not the branch ran.
// CHECK-LABEL: func.func @conditional_producer(
// CHECK: scf.if
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.data_copy
func.func @conditional_producer(%p: i1, %y: !ascendc.global_tensor<256xf32>) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<256xf32>
  scf.if %p {
    ascendc.if_aic {
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<16x16xf32>
    }
  }
  ascendc.if_aiv {
    ascendc.data_copy %ub, %y : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
  }
  return
}

// -----

// The consumer runs under an scf.if, the producer always: the wait goes
// before the if, in a new vector group, so the flag never stays set.
// CHECK-LABEL: func.func @conditional_consumer(
// CHECK: ascendc.cross_core_set_flag fix, flag 0
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: }
// CHECK-NEXT: scf.if
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.data_copy
func.func @conditional_consumer(%p: i1, %y: !ascendc.global_tensor<256xf32>) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<256xf32>
  ascendc.if_aic {
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<16x16xf32>
  }
  scf.if %p {
    ascendc.if_aiv {
      ascendc.data_copy %ub, %y : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
    }
  }
  return
}

// -----

// Written by the cube and read by the vector core in every trip: the
// vector core hands y back after its read, so trip 2's fixpipe waits for
// trip 1's read (write after read). A vector group before the loop seeds
// that signal, a cube group after the loop drains the last one.
// CHECK-LABEL: func.func @every_trip(
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte2, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @every_trip(%n: index, %y: !ascendc.global_tensor<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.if_aic {
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.data_copy %ub, %y : !ascendc.local_tensor<16x16xf32>, !ascendc.global_tensor<16x16xf32>
    }
  }
  return
}

// -----

// Both cores under one scf.if: the flags stay inside the branch, and the
// missing else branch needs none.
// CHECK-LABEL: func.func @both_in_branch(
// CHECK: scf.if
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @both_in_branch(%p: i1, %y: !ascendc.global_tensor<16x16xf32>) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  scf.if %p {
    ascendc.if_aic {
      ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.data_copy %ub, %y : !ascendc.local_tensor<16x16xf32>, !ascendc.global_tensor<16x16xf32>
    }
  }
  return
}

// -----

// A declaration has no body to synchronize (found by fuzz-pipeline).
// CHECK-LABEL: func.func private @declared(
func.func private @declared(%y: !ascendc.global_tensor<16x16xf32>)
