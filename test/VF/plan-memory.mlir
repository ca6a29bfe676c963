// RUN: tilekit-opt %s --pass-pipeline='builtin.module(func.func(pto-plan-memory))' | FileCheck %s
// Memory planning gives a register scope's block arguments their captures'
// storage (and the results the storage of the captures they yield): no
// storage of their own, and types that still agree.

// CHECK-LABEL: func.func @scope
// CHECK:       pto.reg_scope(%{{.*}}, %{{.*}}) : (!pto.tile<1x128xf32, vec, addr = 0>, !pto.tile<1x128xf32, vec, addr = 512>) -> !pto.tile<1x128xf32, vec, addr = 512>
// CHECK-NEXT:  ^bb0(%{{.*}}: !pto.tile<1x128xf32, vec, addr = 0>, %{{.*}}: !pto.tile<1x128xf32, vec, addr = 512>):
!T = !pto.tile<1x128xf32, vec>
func.func @scope(%x: !pto.tensor<1x128xf32>, %z: !pto.tensor<1x128xf32>) -> !pto.tensor<1x128xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %b = pto.tile.load %z[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %r = pto.reg_scope (%a, %b) : (!T, !T) -> !T {
  ^bb0(%as: !T, %bs: !T):
    %v = pto.vreg.load %as[0] : !T
    pto.vreg.store %v, %bs[64] : !T
    pto.reg_scope.yield %bs : !T
  }
  %out = pto.tile.store %r, %z[%c0, %c0] : !T -> !pto.tensor<1x128xf32>
  return %out : !pto.tensor<1x128xf32>
}
