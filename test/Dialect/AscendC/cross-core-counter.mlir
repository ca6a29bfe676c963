// A cross-core flag's counter holds 15 sets (CrossCoreSetFlag's page): a
// 16th set while the vector core may not have taken any is refused by the
// checker, the executor and the CPU stand-in, at the set; one wait ordered
// between (the vector core answers) keeps it within the counter.
// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-verify-sync))' -verify-diagnostics
// RUN: not tilekit run %s --entry sixteen --input gm=zeros:16:f32 2>&1 | FileCheck %s
// RUN: not tilekit run %s --entry sixteen --input gm=zeros:16:f32 --compiled 2>&1 | FileCheck %s
// CHECK: cross-core-counter.mlir:[[@LINE+23]]:7: error: sets cross-core flag 0 while 15 sets of it may be pending: its counter holds 15
// RUN: tilekit run %s --entry answered --input gm=zeros:16:f32 --compiled
// RUN: tilekit run %s --entry answered --input gm=zeros:16:f32
// (The unused GM argument marks the functions as AscendC kernels for `run`.)
module {
  func.func @sixteen(%gm: !ascendc.global_tensor<16xf32>) {
    ascendc.if_aic {
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      // expected-error @below {{sets cross-core flag 0 while 15 sets of it may be pending: its counter holds 15}}
      ascendc.cross_core_set_flag fix, flag 0
    }
    ascendc.if_aiv {
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
    }
    return
  }

  func.func @answered(%gm: !ascendc.global_tensor<16xf32>) {
    ascendc.if_aic {
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_set_flag fix, flag 0
      ascendc.cross_core_wait_flag fix, flag 1
      ascendc.cross_core_set_flag fix, flag 0
    }
    ascendc.if_aiv {
      // On one pipe: the set follows the wait there.
      ascendc.cross_core_wait_flag mte3, flag 0
      ascendc.cross_core_set_flag mte3, flag 1
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
      ascendc.cross_core_wait_flag mte2, flag 0
    }
    return
  }
}
