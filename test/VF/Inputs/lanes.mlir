// Every vector-register op once, on tiles without planned addresses.
!T = !pto.tile<1x128xf32, vec>
func.func @lanes(%x: !pto.tensor<1x128xf32>, %y: !pto.tensor<1x128xf32>,
                 %z: !pto.tensor<1x128xf32>, %s: f32, %n: index)
    -> !pto.tensor<1x128xf32> attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %xt = pto.tile.load %x[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %yt = pto.tile.load %y[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %zt = pto.tile.load %z[%c0, %c0] : !pto.tensor<1x128xf32> -> !T
  %r = pto.reg_scope (%xt, %yt, %zt, %s, %n) : (!T, !T, !T, f32, index) -> !T {
  ^bb0(%xs: !T, %ys: !T, %zs: !T, %ss: f32, %ns: index):
    %a = pto.vreg.load %xs[0] : !T
    %b = pto.vreg.load %ys[0] : !T
    %c = pto.vreg.load %xs[64] : !T
    %d = pto.vreg.load %ys[64] : !T
    %sb = pto.vreg.broadcast %ss : f32
    %sub = pto.vreg.sub %a, %b
    %div = pto.vreg.div %sub, %sb
    %min = pto.vreg.min %div, %c
    %le = pto.vreg.cmp le, %a, %b
    %sel = pto.vreg.select %le, %min, %d
    %p = pto.vreg.prefix_mask 5
    pto.vreg.store %sel, %zs[0] mask %p : !T
    %ne = pto.vreg.cmp ne, %c, %d
    %eq = pto.vreg.cmp eq, %c, %c
    %ge = pto.vreg.cmp ge, %c, %d
    %lt = pto.vreg.cmp lt, %c, %d
    %gt = pto.vreg.cmp gt, %c, %d
    %m1 = pto.vreg.select %ge, %c, %d
    %m2 = pto.vreg.select %lt, %m1, %a
    %m3 = pto.vreg.select %ne, %m2, %b
    %m4 = pto.vreg.select %eq, %m3, %sb
    %m5 = pto.vreg.select %gt, %m4, %min
    %mul = pto.vreg.mul %m5, %sb
    %add = pto.vreg.add %mul, %c
    %max = pto.vreg.max %add, %sb
    %sfx = pto.vreg.suffix_mask 9
    pto.vreg.store %max, %zs[64] mask %sfx : !T
    %rt = pto.vreg.runtime_mask %ns from 64 : index
    pto.vreg.store %add, %zs[64] mask %rt : !T
    pto.reg_scope.yield %zs : !T
  }
  %out = pto.tile.store %r, %z[%c0, %c0] : !T -> !pto.tensor<1x128xf32>
  return %out : !pto.tensor<1x128xf32>
}
