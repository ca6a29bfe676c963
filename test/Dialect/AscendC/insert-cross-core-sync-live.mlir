// RUN: not tilekit-opt %s --pass-pipeline='builtin.module(func.func(ascendc-insert-cross-core-sync))' 2>&1 | FileCheck %s

// Seventeen transfers into distinct L1 tensors, all sent before the cube
// reads any: seventeen flags would be live at once, and an id reused while
// live lets a wait take the wrong set. The pass says so at the transfer
// that needs the seventeenth.
// CHECK: insert-cross-core-sync-live.mlir:[[@LINE+39]]:5: error: needs a cross-core flag while all 16 are live
// CHECK-NOT: error
func.func @all_live() {
  %ub = ascendc.local_tensor veccalc addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l0a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_0 = ascendc.local_tensor a1 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_1 = ascendc.local_tensor a1 addr 512 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_2 = ascendc.local_tensor a1 addr 1024 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_3 = ascendc.local_tensor a1 addr 1536 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_4 = ascendc.local_tensor a1 addr 2048 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_5 = ascendc.local_tensor a1 addr 2560 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_6 = ascendc.local_tensor a1 addr 3072 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_7 = ascendc.local_tensor a1 addr 3584 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_8 = ascendc.local_tensor a1 addr 4096 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_9 = ascendc.local_tensor a1 addr 4608 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_10 = ascendc.local_tensor a1 addr 5120 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_11 = ascendc.local_tensor a1 addr 5632 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_12 = ascendc.local_tensor a1 addr 6144 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_13 = ascendc.local_tensor a1 addr 6656 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_14 = ascendc.local_tensor a1 addr 7168 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_15 = ascendc.local_tensor a1 addr 7680 size 512 : !ascendc.local_tensor<16x16xf16>
  %l1_16 = ascendc.local_tensor a1 addr 8192 size 512 : !ascendc.local_tensor<16x16xf16>
  ascendc.if_aiv {
    ascendc.data_copy %l1_0, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_1, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_2, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_3, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_4, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_5, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_6, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_7, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_8, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_9, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_10, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_11, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_12, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_13, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_14, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_15, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.data_copy %l1_16, %ub : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  ascendc.if_aic {
    ascendc.load_data %l0a, %l1_0 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_1 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_2 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_3 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_4 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_5 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_6 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_7 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_8 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_9 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_10 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_11 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_12 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_13 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_14 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_15 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0a, %l1_16 : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  }
  return
}
