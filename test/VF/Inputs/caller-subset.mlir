// Callers outside the supported subset: a float constant (it would need
// .rodata) and a loop.
!T = !pto.tile<1x128xf32, vec>
func.func @float_constant(%z: !pto.tensor<1x128xf32>) -> !pto.tensor<1x128xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %zt = pto.tile.load %z[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %r = pto.reg_scope (%zt, %half) : (!T, f32) -> !T {
  ^bb0(%zs: !T, %h: f32):
    %v = pto.vreg.broadcast %h : f32
    pto.vreg.store %v, %zs[0] : !T
    pto.reg_scope.yield %zs : !T
  }
  %out = pto.tile.store %r, %z[%c0, %c0] : !T -> !pto.tensor<1x128xf32>
  return %out : !pto.tensor<1x128xf32>
}

func.func @loop(%z: !pto.tensor<1x128xf32>, %n: index) -> !pto.tensor<1x128xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zt = pto.tile.load %z[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %zt) -> (!T) {
    %s = pto.reg_scope (%t) : (!T) -> !T {
    ^bb0(%ts: !T):
      %v = pto.vreg.load %ts[0] : !T
      pto.vreg.store %v, %ts[64] : !T
      pto.reg_scope.yield %ts : !T
    }
    scf.yield %s : !T
  }
  %out = pto.tile.store %r, %z[%c0, %c0] : !T -> !pto.tensor<1x128xf32>
  return %out : !pto.tensor<1x128xf32>
}
