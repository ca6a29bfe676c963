// Two register scopes, two helpers in one image. The second reads what the
// first wrote (both on V: no flag), a load between them overwrites a tile
// the first read (V -> MTE2) and feeds the second (MTE2 -> V).
!T = !pto.tile<1x128xf32, vec, addr = 0>
!U = !pto.tile<1x128xf32, vec, addr = 512>
func.func @two_scopes(%x: !pto.tensor<1x256xf32>, %z: !pto.tensor<1x128xf32>,
                      %s: f32) -> !pto.tensor<1x128xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<1x256xf32> -> !T
  %u = pto.tile.load %z[%c0, %c0] : !pto.tensor<1x128xf32> -> !U
  %u1 = pto.reg_scope (%a, %u, %s) : (!T, !U, f32) -> !U {
  ^bb0(%as: !T, %us: !U, %ss: f32):
    %v = pto.vreg.load %as[0] : !T
    %w = pto.vreg.load %as[64] : !T
    %b = pto.vreg.broadcast %ss : f32
    %p = pto.vreg.mul %v, %b
    %q = pto.vreg.mul %w, %b
    pto.vreg.store %p, %us[0] : !U
    pto.vreg.store %q, %us[64] : !U
    pto.reg_scope.yield %us : !U
  }
  %a2 = pto.tile.load %x[%c0, %c128] : !pto.tensor<1x256xf32> -> !T
  %u2 = pto.reg_scope (%a2, %u1) : (!T, !U) -> !U {
  ^bb0(%as: !T, %us: !U):
    %v = pto.vreg.load %as[0] : !T
    %w = pto.vreg.load %us[0] : !U
    %r = pto.vreg.sub %w, %v
    %m = pto.vreg.cmp gt, %r, %v
    pto.vreg.store %r, %us[64] mask %m : !U
    pto.reg_scope.yield %us : !U
  }
  %out = pto.tile.store %u2, %z[%c0, %c0] : !U -> !pto.tensor<1x128xf32>
  return %out : !pto.tensor<1x128xf32>
}
