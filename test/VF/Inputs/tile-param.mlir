// A scope that captures a view of a tile parameter: the caller's tile has
// an address this function did not plan.
!T = !pto.tile<1x128xf32, vec>
func.func @tile_param(%t: !T, %z: !pto.tensor<1x128xf32>) -> !pto.tensor<1x128xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %view = pto.tile.set_validshape %t[%c1, %c64] : !T
  %r = pto.reg_scope (%view) : (!T) -> !T {
  ^bb0(%vs: !T):
    %v = pto.vreg.load %vs[0] : !T
    pto.vreg.store %v, %vs[64] : !T
    pto.reg_scope.yield %vs : !T
  }
  %out = pto.tile.store %r, %z[%c0, %c0] : !T -> !pto.tensor<1x128xf32>
  return %out : !pto.tensor<1x128xf32>
}
