// z[i] = x[32 + i] + y[32 + i] for i < n (n <= 1024), in one register
// scope: 16 registers of 64 lanes, each stored under a runtime mask of the
// lanes below n, so a ragged n writes nothing past it. The tensors carry
// 32 leading elements the kernel skips (the seed's tensor offset).
//
// Runs in the executor and, outlined into a helper, through
// `tilekit compile --emit=vf-bundle` and the vector-function worker
// (docs/vector-functions.md).
func.func @vf_add(%x: !pto.tensor<1x?xf32>, %y: !pto.tensor<1x?xf32>,
                  %z: !pto.tensor<1x?xf32>, %n: index) -> !pto.tensor<1x?xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %xt = pto.tile.load %x[%c0, %c32] valid [%c1, %n]
      : !pto.tensor<1x?xf32> -> !pto.tile<1x1024xf32, vec>
  %yt = pto.tile.load %y[%c0, %c32] valid [%c1, %n]
      : !pto.tensor<1x?xf32> -> !pto.tile<1x1024xf32, vec>
  %zt = pto.tile.create valid [%c1, %n] : !pto.tile<1x1024xf32, vec>
  %sum = pto.reg_scope (%xt, %yt, %zt, %n)
      : (!pto.tile<1x1024xf32, vec>, !pto.tile<1x1024xf32, vec>, !pto.tile<1x1024xf32, vec>, index) -> !pto.tile<1x1024xf32, vec> {
  ^bb0(%xs: !pto.tile<1x1024xf32, vec>, %ys: !pto.tile<1x1024xf32, vec>, %zs: !pto.tile<1x1024xf32, vec>, %ns: index):
    %a0 = pto.vreg.load %xs[0] : !pto.tile<1x1024xf32, vec>
    %b0 = pto.vreg.load %ys[0] : !pto.tile<1x1024xf32, vec>
    %s0 = pto.vreg.add %a0, %b0
    %m0 = pto.vreg.runtime_mask %ns from 0 : index
    pto.vreg.store %s0, %zs[0] mask %m0 : !pto.tile<1x1024xf32, vec>
    %a1 = pto.vreg.load %xs[64] : !pto.tile<1x1024xf32, vec>
    %b1 = pto.vreg.load %ys[64] : !pto.tile<1x1024xf32, vec>
    %s1 = pto.vreg.add %a1, %b1
    %m1 = pto.vreg.runtime_mask %ns from 64 : index
    pto.vreg.store %s1, %zs[64] mask %m1 : !pto.tile<1x1024xf32, vec>
    %a2 = pto.vreg.load %xs[128] : !pto.tile<1x1024xf32, vec>
    %b2 = pto.vreg.load %ys[128] : !pto.tile<1x1024xf32, vec>
    %s2 = pto.vreg.add %a2, %b2
    %m2 = pto.vreg.runtime_mask %ns from 128 : index
    pto.vreg.store %s2, %zs[128] mask %m2 : !pto.tile<1x1024xf32, vec>
    %a3 = pto.vreg.load %xs[192] : !pto.tile<1x1024xf32, vec>
    %b3 = pto.vreg.load %ys[192] : !pto.tile<1x1024xf32, vec>
    %s3 = pto.vreg.add %a3, %b3
    %m3 = pto.vreg.runtime_mask %ns from 192 : index
    pto.vreg.store %s3, %zs[192] mask %m3 : !pto.tile<1x1024xf32, vec>
    %a4 = pto.vreg.load %xs[256] : !pto.tile<1x1024xf32, vec>
    %b4 = pto.vreg.load %ys[256] : !pto.tile<1x1024xf32, vec>
    %s4 = pto.vreg.add %a4, %b4
    %m4 = pto.vreg.runtime_mask %ns from 256 : index
    pto.vreg.store %s4, %zs[256] mask %m4 : !pto.tile<1x1024xf32, vec>
    %a5 = pto.vreg.load %xs[320] : !pto.tile<1x1024xf32, vec>
    %b5 = pto.vreg.load %ys[320] : !pto.tile<1x1024xf32, vec>
    %s5 = pto.vreg.add %a5, %b5
    %m5 = pto.vreg.runtime_mask %ns from 320 : index
    pto.vreg.store %s5, %zs[320] mask %m5 : !pto.tile<1x1024xf32, vec>
    %a6 = pto.vreg.load %xs[384] : !pto.tile<1x1024xf32, vec>
    %b6 = pto.vreg.load %ys[384] : !pto.tile<1x1024xf32, vec>
    %s6 = pto.vreg.add %a6, %b6
    %m6 = pto.vreg.runtime_mask %ns from 384 : index
    pto.vreg.store %s6, %zs[384] mask %m6 : !pto.tile<1x1024xf32, vec>
    %a7 = pto.vreg.load %xs[448] : !pto.tile<1x1024xf32, vec>
    %b7 = pto.vreg.load %ys[448] : !pto.tile<1x1024xf32, vec>
    %s7 = pto.vreg.add %a7, %b7
    %m7 = pto.vreg.runtime_mask %ns from 448 : index
    pto.vreg.store %s7, %zs[448] mask %m7 : !pto.tile<1x1024xf32, vec>
    %a8 = pto.vreg.load %xs[512] : !pto.tile<1x1024xf32, vec>
    %b8 = pto.vreg.load %ys[512] : !pto.tile<1x1024xf32, vec>
    %s8 = pto.vreg.add %a8, %b8
    %m8 = pto.vreg.runtime_mask %ns from 512 : index
    pto.vreg.store %s8, %zs[512] mask %m8 : !pto.tile<1x1024xf32, vec>
    %a9 = pto.vreg.load %xs[576] : !pto.tile<1x1024xf32, vec>
    %b9 = pto.vreg.load %ys[576] : !pto.tile<1x1024xf32, vec>
    %s9 = pto.vreg.add %a9, %b9
    %m9 = pto.vreg.runtime_mask %ns from 576 : index
    pto.vreg.store %s9, %zs[576] mask %m9 : !pto.tile<1x1024xf32, vec>
    %a10 = pto.vreg.load %xs[640] : !pto.tile<1x1024xf32, vec>
    %b10 = pto.vreg.load %ys[640] : !pto.tile<1x1024xf32, vec>
    %s10 = pto.vreg.add %a10, %b10
    %m10 = pto.vreg.runtime_mask %ns from 640 : index
    pto.vreg.store %s10, %zs[640] mask %m10 : !pto.tile<1x1024xf32, vec>
    %a11 = pto.vreg.load %xs[704] : !pto.tile<1x1024xf32, vec>
    %b11 = pto.vreg.load %ys[704] : !pto.tile<1x1024xf32, vec>
    %s11 = pto.vreg.add %a11, %b11
    %m11 = pto.vreg.runtime_mask %ns from 704 : index
    pto.vreg.store %s11, %zs[704] mask %m11 : !pto.tile<1x1024xf32, vec>
    %a12 = pto.vreg.load %xs[768] : !pto.tile<1x1024xf32, vec>
    %b12 = pto.vreg.load %ys[768] : !pto.tile<1x1024xf32, vec>
    %s12 = pto.vreg.add %a12, %b12
    %m12 = pto.vreg.runtime_mask %ns from 768 : index
    pto.vreg.store %s12, %zs[768] mask %m12 : !pto.tile<1x1024xf32, vec>
    %a13 = pto.vreg.load %xs[832] : !pto.tile<1x1024xf32, vec>
    %b13 = pto.vreg.load %ys[832] : !pto.tile<1x1024xf32, vec>
    %s13 = pto.vreg.add %a13, %b13
    %m13 = pto.vreg.runtime_mask %ns from 832 : index
    pto.vreg.store %s13, %zs[832] mask %m13 : !pto.tile<1x1024xf32, vec>
    %a14 = pto.vreg.load %xs[896] : !pto.tile<1x1024xf32, vec>
    %b14 = pto.vreg.load %ys[896] : !pto.tile<1x1024xf32, vec>
    %s14 = pto.vreg.add %a14, %b14
    %m14 = pto.vreg.runtime_mask %ns from 896 : index
    pto.vreg.store %s14, %zs[896] mask %m14 : !pto.tile<1x1024xf32, vec>
    %a15 = pto.vreg.load %xs[960] : !pto.tile<1x1024xf32, vec>
    %b15 = pto.vreg.load %ys[960] : !pto.tile<1x1024xf32, vec>
    %s15 = pto.vreg.add %a15, %b15
    %m15 = pto.vreg.runtime_mask %ns from 960 : index
    pto.vreg.store %s15, %zs[960] mask %m15 : !pto.tile<1x1024xf32, vec>
    pto.reg_scope.yield %zs : !pto.tile<1x1024xf32, vec>
  }
  %out = pto.tile.store %sum, %z[%c0, %c0]
      : !pto.tile<1x1024xf32, vec> -> !pto.tensor<1x?xf32>
  return %out : !pto.tensor<1x?xf32>
}
