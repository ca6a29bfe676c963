// RUN: tilekit-opt %s | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s --mlir-print-op-generic | tilekit-opt | FileCheck %s
// RUN: tilekit-opt %s -emit-bytecode | tilekit-opt | FileCheck %s

// Round trip of function kinds and group attributes.

// Every function kind.
// CHECK-LABEL: func.func @orch
// CHECK-SAME: () attributes {pto.kind = #pto.kind<orchestration>}
// CHECK: return
func.func @orch() attributes {pto.kind = #pto.kind<orchestration>} {
  return
}

// CHECK-LABEL: func.func @core
// CHECK-SAME: () attributes {pto.kind = #pto.kind<incore>}
// CHECK: return
func.func @core() attributes {pto.kind = #pto.kind<incore>} {
  return
}

// Explicit pairing with pto.aic / pto.aiv, dual dispatch on a no-split group.
// CHECK-LABEL: func.func @cube_side
// CHECK-SAME: (%{{.*}}: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>}
// CHECK: return
func.func @cube_side(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
  return
}

// CHECK-LABEL: func.func @vector_side
// CHECK-SAME: (%{{.*}}: !pto.tensor<16x16xf32>) attributes {pto.dual_aiv_dispatch, pto.kind = #pto.kind<aiv>}
// CHECK: return
func.func @vector_side(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch} {
  return
}

// CHECK-LABEL: func.func @pair
// CHECK-SAME: (%{{.*}}: !pto.tensor<16x16xf32>) attributes {pto.aic = @cube_side, pto.aiv = @vector_side, pto.kind = #pto.kind<group>, pto.split = 0 : i32}
// CHECK: return
func.func @pair(%x: !pto.tensor<16x16xf32>) attributes {pto.aic = @cube_side, pto.aiv = @vector_side, pto.kind = #pto.kind<group>, pto.split = 0 : i32} {
  return
}

// An orchestration function calls in-core functions and groups.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<orchestration>}
// CHECK: call @core() : () -> ()
// CHECK: call @pair(%{{.*}}) : (!pto.tensor<16x16xf32>) -> ()
// CHECK: return
func.func @main(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @core() : () -> ()
  call @pair(%x) : (!pto.tensor<16x16xf32>) -> ()
  return
}

// A group may be a declaration, and returns what its vector function returns.
// CHECK-LABEL: func.func @decl_aic
// CHECK-SAME: (%{{.*}}: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>}
// CHECK: return
func.func @decl_aic(%x: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
  return
}

// CHECK-LABEL: func.func @decl_aiv
// CHECK-SAME: (%{{.*}}: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>}
// CHECK: return %{{.*}} : !pto.tensor<16x16xf32>
func.func @decl_aiv(%x: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<aiv>} {
  return %x : !pto.tensor<16x16xf32>
}

// CHECK-LABEL: func.func private @decl
// CHECK-SAME: (!pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<group>}
func.func private @decl(!pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<group>}

