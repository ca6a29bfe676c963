// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-insert-cross-core-sync))' | FileCheck %s
// Every flag pairs up after the whole C310 pipeline:
// RUN: tilekit-opt %s -ascendc-c310-pipeline | tilekit-opt --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -o /dev/null

// Seventeen transfers into distinct L1 tensors: flag ids 0 to 15, then the
// seventeenth wraps to 0; the next free id is 1.
// CHECK-LABEL: func.func @many(
// CHECK-SAME: attributes {ascendc.cross_core_flag_id = 1 : i64}
// CHECK: ascendc.cross_core_set_flag mte3, flag 0
// CHECK: ascendc.cross_core_wait_flag mte1, flag 0
// CHECK: ascendc.cross_core_set_flag mte3, flag 1
// CHECK: ascendc.cross_core_wait_flag mte1, flag 1
// CHECK: ascendc.cross_core_set_flag mte3, flag 2
// CHECK: ascendc.cross_core_wait_flag mte1, flag 2
// CHECK: ascendc.cross_core_set_flag mte3, flag 3
// CHECK: ascendc.cross_core_wait_flag mte1, flag 3
// CHECK: ascendc.cross_core_set_flag mte3, flag 4
// CHECK: ascendc.cross_core_wait_flag mte1, flag 4
// CHECK: ascendc.cross_core_set_flag mte3, flag 5
// CHECK: ascendc.cross_core_wait_flag mte1, flag 5
// CHECK: ascendc.cross_core_set_flag mte3, flag 6
// CHECK: ascendc.cross_core_wait_flag mte1, flag 6
// CHECK: ascendc.cross_core_set_flag mte3, flag 7
// CHECK: ascendc.cross_core_wait_flag mte1, flag 7
// CHECK: ascendc.cross_core_set_flag mte3, flag 8
// CHECK: ascendc.cross_core_wait_flag mte1, flag 8
// CHECK: ascendc.cross_core_set_flag mte3, flag 9
// CHECK: ascendc.cross_core_wait_flag mte1, flag 9
// CHECK: ascendc.cross_core_set_flag mte3, flag 10
// CHECK: ascendc.cross_core_wait_flag mte1, flag 10
// CHECK: ascendc.cross_core_set_flag mte3, flag 11
// CHECK: ascendc.cross_core_wait_flag mte1, flag 11
// CHECK: ascendc.cross_core_set_flag mte3, flag 12
// CHECK: ascendc.cross_core_wait_flag mte1, flag 12
// CHECK: ascendc.cross_core_set_flag mte3, flag 13
// CHECK: ascendc.cross_core_wait_flag mte1, flag 13
// CHECK: ascendc.cross_core_set_flag mte3, flag 14
// CHECK: ascendc.cross_core_wait_flag mte1, flag 14
// CHECK: ascendc.cross_core_set_flag mte3, flag 15
// CHECK: ascendc.cross_core_wait_flag mte1, flag 15
// CHECK: ascendc.cross_core_set_flag mte3, flag 0
// CHECK: ascendc.cross_core_wait_flag mte1, flag 0
func.func @many() {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_0 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_0, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_0 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_1 = ascendc.local_tensor a1 addr 512 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_2 = ascendc.local_tensor a1 addr 1024 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_2, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_2 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_3 = ascendc.local_tensor a1 addr 1536 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_3, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_3 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_4 = ascendc.local_tensor a1 addr 2048 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_4, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_4 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_5 = ascendc.local_tensor a1 addr 2560 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_5, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_5 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_6 = ascendc.local_tensor a1 addr 3072 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_6, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_6 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_7 = ascendc.local_tensor a1 addr 3584 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_7, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_7 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_8 = ascendc.local_tensor a1 addr 4096 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_8, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_8 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_9 = ascendc.local_tensor a1 addr 4608 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_9, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_9 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_10 = ascendc.local_tensor a1 addr 5120 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_10, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_10 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_11 = ascendc.local_tensor a1 addr 5632 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_11, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_11 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_12 = ascendc.local_tensor a1 addr 6144 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_12, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_12 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_13 = ascendc.local_tensor a1 addr 6656 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_13, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_13 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_14 = ascendc.local_tensor a1 addr 7168 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_14, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_14 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_15 = ascendc.local_tensor a1 addr 7680 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_15, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_15 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  %l1_16 = ascendc.local_tensor a1 addr 8192 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_16, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_16 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}
