// One tile captured twice is one storage: a store through one capture is
// seen by a load through the other.
!T = !pto.tile<1x128xf32, vec>
func.func @twice(%z: !pto.tensor<1x128xf32>) -> !pto.tensor<1x128xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %z[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %r = pto.reg_scope (%t, %t) : (!T, !T) -> !T {
  ^bb0(%a: !T, %b: !T):
    %v = pto.vreg.load %a[64] : !T
    pto.vreg.store %v, %a[0] : !T
    %w = pto.vreg.load %b[0] : !T
    %s = pto.vreg.add %w, %v
    pto.vreg.store %s, %a[64] : !T
    pto.reg_scope.yield %a : !T
  }
  %out = pto.tile.store %r, %z[%c0, %c0] : !T -> !pto.tensor<1x128xf32>
  return %out : !pto.tensor<1x128xf32>
}
