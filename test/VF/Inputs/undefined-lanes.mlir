// Copies the lanes of a created (undefined) tile into a loaded one.
!T = !pto.tile<1x64xf32, vec>
func.func @undefined_lanes(%z: !pto.tensor<1x64xf32>) -> !pto.tensor<1x64xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %u = pto.tile.create : !T
  %zt = pto.tile.load %z[%c0, %c0] : !pto.tensor<1x64xf32> -> !T
  %r = pto.reg_scope (%u, %zt) : (!T, !T) -> !T {
  ^bb0(%us: !T, %zs: !T):
    %v = pto.vreg.load %us[0] : !T
    pto.vreg.store %v, %zs[0] : !T
    pto.reg_scope.yield %zs : !T
  }
  %out = pto.tile.store %r, %z[%c0, %c0] : !T -> !pto.tensor<1x64xf32>
  return %out : !pto.tensor<1x64xf32>
}
