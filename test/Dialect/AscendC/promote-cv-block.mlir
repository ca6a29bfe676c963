// RUN: tilekit-opt %s -split-input-file -ascendc-promote-cv-block | FileCheck %s

// Both kinds of groups: a mixed kernel keeps them.
// CHECK: module attributes {ascendc.kernel_type = "mixed"}
// CHECK: ascendc.if_aic
// CHECK: ascendc.if_aiv
module {
  func.func @mixed() {
    ascendc.if_aic {
      ascendc.pipe_barrier m
    }
    ascendc.if_aiv {
      ascendc.pipe_barrier v
    }
    return
  }
}

// -----

// Only cube groups: their bodies move in place, in order.
// CHECK: module attributes {ascendc.kernel_type = "cube"}
// CHECK-LABEL: func.func @cube(
// CHECK-NEXT: ascendc.pipe_barrier m
// CHECK-NEXT: ascendc.pipe_barrier fix
// CHECK-NEXT: ascendc.pipe_barrier mte1
// CHECK-NEXT: return
module {
  func.func @cube() {
    ascendc.if_aic {
      ascendc.pipe_barrier m
      ascendc.pipe_barrier fix
    }
    ascendc.pipe_barrier mte1
    return
  }
}

// -----

// Only vector groups, in two functions.
// CHECK: module attributes {ascendc.kernel_type = "vector"}
// CHECK-NOT: ascendc.if_aiv
module {
  func.func @a() {
    ascendc.if_aiv {
      ascendc.pipe_barrier v
    }
    return
  }
  func.func @b() {
    ascendc.if_aiv {
      ascendc.pipe_barrier v
    }
    return
  }
}

// -----

// No groups: nothing to decide.
// CHECK: module {
module {
  func.func @plain() {
    return
  }
}
