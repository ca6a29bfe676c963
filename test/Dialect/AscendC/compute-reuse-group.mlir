// RUN: tilekit-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(ascendc-compute-reuse-group))' -verify-diagnostics | FileCheck %s

// A loop unrolled by 2 with an epilogue, then a loop unrolled by 3 at the
// same level. Groups are (iter + start) % factor; start is 0 at the top and
// grows by one after the epilogue.
// CHECK-LABEL: func.func @sequence(
func.func @sequence(%n: index) {
  // iter 0: (0 + 0) % 2 = 0.
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 0 : i64}
  // CHECK-NEXT: scf.yield {ascendc.reuse_group = 0 : i64}
  // CHECK-NEXT: } {ascendc.reuse_group = 0 : i64, asctile.unroll_factor = 2 : i64}
  scf.execute_region {
    %a = ascendc.get_subblock_idx {asctile.unroll_iter = 0}
    scf.yield {asctile.unroll_iter = 0}
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
  // iter 1: (1 + 0) % 2 = 1.
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 1 : i64}
  scf.execute_region {
    %a = ascendc.get_subblock_idx {asctile.unroll_iter = 1}
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
  // Epilogue (iter = factor = 2): (2 + 0) % 2 = 0; start becomes 1.
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 0 : i64}
  scf.execute_region {
    %a = ascendc.get_subblock_idx {asctile.unroll_iter = 2}
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 2}
  // Next loop, factor 3, start 1: iter 0 -> 1, iter 1 -> 2, iter 2 -> 0.
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 1 : i64}
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 2 : i64}
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 0 : i64}
  scf.execute_region {
    %a = ascendc.get_subblock_idx {asctile.unroll_iter = 0}
    scf.yield
  } {asctile.unroll_factor = 3, asctile.unroll_iter = 0}
  scf.execute_region {
    %a = ascendc.get_subblock_idx {asctile.unroll_iter = 1}
    scf.yield
  } {asctile.unroll_factor = 3, asctile.unroll_iter = 1}
  scf.execute_region {
    %a = ascendc.get_subblock_idx {asctile.unroll_iter = 2}
    scf.yield
  } {asctile.unroll_factor = 3, asctile.unroll_iter = 2}
  // Ops outside unrolled loops get no group.
  // CHECK: %{{.*}} = ascendc.get_subblock_idx{{$}}
  %b = ascendc.get_subblock_idx
  // CHECK-NOT: asctile.unroll_iter
  return
}

// -----

// Nested unrolling: the inner block's start is its depth (1), so the inner
// iterations of factor 2 are (0 + 1) % 2 = 1 and (1 + 1) % 2 = 0. Ops in
// the outer iteration but outside the inner ones keep the outer group.
// CHECK-LABEL: func.func @nested(
func.func @nested() {
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 0 : i64}
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 1 : i64}
  // CHECK: ascendc.get_subblock_idx {ascendc.reuse_group = 0 : i64}
  scf.execute_region {
    %outer = ascendc.get_subblock_idx {asctile.unroll_iter = 0}
    scf.execute_region {
      %x = ascendc.get_subblock_idx {asctile.unroll_iter = 0}
      scf.yield
    } {asctile.unroll_factor = 2, asctile.unroll_iter = 0}
    scf.execute_region {
      %y = ascendc.get_subblock_idx {asctile.unroll_iter = 1}
      scf.yield
    } {asctile.unroll_factor = 2, asctile.unroll_iter = 1}
    scf.yield
  } {asctile.unroll_factor = 4, asctile.unroll_iter = 0}
  return
}

// -----

func.func @bad_iter() {
  // expected-error @+1 {{is unrolled iteration 3, outside 0..2 (2 is the epilogue)}}
  scf.execute_region {
    scf.yield
  } {asctile.unroll_factor = 2, asctile.unroll_iter = 3}
  return
}

// -----

func.func @no_factor() {
  // expected-error @+1 {{has asctile.unroll_iter but no positive integer asctile.unroll_factor}}
  scf.execute_region {
    scf.yield
  } {asctile.unroll_iter = 0}
  return
}
