// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-insert-cross-core-sync))' | FileCheck %s
// Every flag pairs up and every hazard between the cores is ordered, after
// the whole C310 pipeline:
// RUN: tilekit-opt %s -split-input-file -ascendc-c310-pipeline | tilekit-opt -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null

// One UB -> L1 transfer, no loop: the producer signals after the copy on
// MTE3; the consumer group waits for it first. Nothing writes the tensor
// again, so no "free" signal goes back (it would stay set, never waited).
// No backward wait, no seeding.
// CHECK-LABEL: func.func @once(
// CHECK-SAME: attributes {ascendc.cross_core_flag_id = 1 : i64}
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte1, flag 0
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @once() {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// In a loop: the producer first waits for the consumer's backward signal;
// a vector group before the loop seeds it (on MTE3: Ascend C takes no
// cross-core set on PIPE_S), a vector group after the
// loop drains the last one. An L0C -> UB fixpipe feeding a vector op uses
// FIX and V.
// CHECK-LABEL: func.func @loop(
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag fix, flag 0
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag v, flag 0
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: ascendc.cross_core_set_flag v, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: }
func.func @loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.if_aic {
      ascendc.fixpipe %ub, %acc : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.exp_l2 %ub, %ub, %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
  }
  return
}

// -----

// The same in an scf.while whose condition touches no storage: its body is
// a loop body like scf.for's (any number of trips), the same flags around
// it (ascendc-verify-sync checks the result after the whole pipeline, RUN
// line 2).
// CHECK-LABEL: func.func @while_loop(
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: scf.while
// CHECK: } do {
// CHECK: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag fix, flag 0
// CHECK-NEXT: ascendc.fixpipe
// CHECK-NEXT: ascendc.cross_core_set_flag fix, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag v, flag 0
// CHECK-NEXT: ascendc.exp_l2
// CHECK-NEXT: ascendc.cross_core_set_flag v, flag 0
// CHECK-NEXT: }
// CHECK: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
func.func @while_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor veccalc addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %last = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    ascendc.if_aic {
      ascendc.fixpipe %ub, %acc : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    ascendc.if_aiv {
      ascendc.exp_l2 %ub, %ub, %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
    }
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// A second trigger on the same L1 tensor reuses its flag and waits first
// (the buffer is being overwritten). The first consumer group waits; the
// "free" signal goes after the LAST reader on the consumer's core before
// the next transfer (the second cube group), on its pipe; the last
// transfer's readers send none. A transfer nobody reads gets no flags and
// uses no id.
// CHECK-LABEL: func.func @reuse(
// CHECK-SAME: attributes {ascendc.cross_core_flag_id = 1 : i64}
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte1, flag 0
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: ascendc.cross_core_set_flag mte1, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte3, flag 0
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte1, flag 0
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: }
func.func @reuse() {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %unread = ascendc.local_tensor b1 addr 512 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %unread, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// A single core group: nothing to synchronize, no attribute.
// CHECK-LABEL: func.func @single(
// CHECK-NOT: cross_core
func.func @single() {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// The producer under an scf.if the consumer does not share: the set goes
// after the if, in a new vector group on MTE3, so the cube's wait ends
// whether or not the branch ran.
// CHECK-LABEL: func.func @conditional_producer(
// CHECK: scf.if
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte1, flag 0
// CHECK-NEXT: ascendc.load_data
func.func @conditional_producer(%c: i1) {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  scf.if %c {
    ascendc.if_aiv {
      ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    }
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// The consumer under an scf.if, a second transfer after it: the cube waits
// before the if and hands the buffer back after it, in new cube groups, so
// neither core hangs when the branch is not taken.
// CHECK-LABEL: func.func @conditional_consumer(
// CHECK: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: }
// CHECK-NEXT: scf.if
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_set_flag mte1, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte3, flag 0
// CHECK-NEXT: ascendc.data_copy
func.func @conditional_consumer(%c: i1) {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  scf.if %c {
    ascendc.if_aic {
      ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    }
  }
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// Loop-carried (software pipelined): a transfer before the loop, and in the
// loop the consumer reads what the previous trip (or the prologue) sent
// before the producer sends the next. The prologue's set stands for the
// seed; the epilogue's read takes the last trip's set; nothing drains.
// CHECK-LABEL: func.func @carried(
// CHECK: ascendc.if_aiv {
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte1, flag 0
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: ascendc.cross_core_set_flag mte1, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte3, flag 0
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte1, flag 0
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @carried(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  scf.for %i = %c0 to %n step %c1 {
    ascendc.if_aic {
      ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    }
    ascendc.if_aiv {
      ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    }
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}

// -----

// A consumer loop nested in the producer's loop: the reads of one transfer
// run in an inner loop, then the buffer goes back once.
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for
// CHECK-NEXT: ascendc.if_aiv {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte3, flag 0
// CHECK-NEXT: ascendc.data_copy
// CHECK-NEXT: ascendc.cross_core_set_flag mte3, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_wait_flag mte2, flag 0
// CHECK-NEXT: ascendc.pipe_barrier all
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.load_data
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.if_aic {
// CHECK-NEXT: ascendc.cross_core_set_flag mte1, flag 0
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @nested(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.if_aiv {
      ascendc.data_copy %l1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    }
    scf.for %j = %c0 to %m step %c1 {
      ascendc.if_aic {
        ascendc.load_data %l0a, %l1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
      }
    }
  }
  return
}
