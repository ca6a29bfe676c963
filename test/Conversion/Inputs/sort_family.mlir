// A top-k as the issue's user wrote it: sort32 on blocks of 32, merges of
// runs of 32 and 64 into sorted rows of 128, the first 16 columns stored
// (f32, 3 of 4 rows valid); and an f16 tile of 8 rows of 64, whose many
// equal scores order by index.
func.func @topk(%x: !pto.tensor<3x128xf32>, %v: !pto.tensor<3x16xf32>, %i: !pto.tensor<3x16xi32>,
                %h: !pto.tensor<8x64xf16>, %hv: !pto.tensor<8x64xf16>, %hi: !pto.tensor<8x64xi32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c3, %c128] : !pto.tensor<3x128xf32> -> !pto.tile<4x128xf32, vec>
  %s, %si = pto.tile.sort32 %t : !pto.tile<4x128xf32, vec> -> !pto.tile<4x128xf32, vec>, !pto.tile<4x128xi32, vec>
  %m1, %i1 = pto.tile.mrgsort %s, %si block 32 : !pto.tile<4x128xf32, vec>, !pto.tile<4x128xi32, vec>
  %m2, %i2 = pto.tile.mrgsort %m1, %i1 block 64 : !pto.tile<4x128xf32, vec>, !pto.tile<4x128xi32, vec>
  %kv = pto.tile.set_validshape %m2[%c3, %c16] : !pto.tile<4x128xf32, vec>
  %ki = pto.tile.set_validshape %i2[%c3, %c16] : !pto.tile<4x128xi32, vec>
  pto.tile.store %kv, %v[%c0, %c0] : !pto.tile<4x128xf32, vec> -> !pto.tensor<3x16xf32>
  pto.tile.store %ki, %i[%c0, %c0] : !pto.tile<4x128xi32, vec> -> !pto.tensor<3x16xi32>
  %th = pto.tile.load %h[%c0, %c0] : !pto.tensor<8x64xf16> -> !pto.tile<8x64xf16, vec>
  %sh, %shi = pto.tile.sort32 %th : !pto.tile<8x64xf16, vec> -> !pto.tile<8x64xf16, vec>, !pto.tile<8x64xi32, vec>
  %mh, %mhi = pto.tile.mrgsort %sh, %shi block 32 : !pto.tile<8x64xf16, vec>, !pto.tile<8x64xi32, vec>
  pto.tile.store %mh, %hv[%c0, %c0] : !pto.tile<8x64xf16, vec> -> !pto.tensor<8x64xf16>
  pto.tile.store %mhi, %hi[%c0, %c0] : !pto.tile<8x64xi32, vec> -> !pto.tensor<8x64xi32>
  return
}
