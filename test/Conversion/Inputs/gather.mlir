// Gather by flat index from an f32 and an f16 source box: indices inside,
// past the end and negative (an index outside the box gives 0), with a
// ragged index tile (40 of 64 valid).
func.func @gather(%src: !pto.tensor<8x16xf32>, %idx: !pto.tensor<1x64xi32>, %g: !pto.tensor<1x40xf32>,
                  %hsrc: !pto.tensor<16x32xf16>, %hidx: !pto.tensor<2x64xi32>, %hg: !pto.tensor<2x64xf16>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %s = pto.tile.load %src[%c0, %c0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
  %i = pto.tile.load %idx[%c0, %c0] valid [%c1, %c40] : !pto.tensor<1x64xi32> -> !pto.tile<1x64xi32, vec>
  %r = pto.tile.gather %s, %i : !pto.tile<8x16xf32, vec>, !pto.tile<1x64xi32, vec> -> !pto.tile<1x64xf32, vec>
  pto.tile.store %r, %g[%c0, %c0] : !pto.tile<1x64xf32, vec> -> !pto.tensor<1x40xf32>
  %hs = pto.tile.load %hsrc[%c0, %c0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, vec>
  %hi = pto.tile.load %hidx[%c0, %c0] : !pto.tensor<2x64xi32> -> !pto.tile<2x64xi32, vec>
  %hr = pto.tile.gather %hs, %hi : !pto.tile<16x32xf16, vec>, !pto.tile<2x64xi32, vec> -> !pto.tile<2x64xf16, vec>
  pto.tile.store %hr, %hg[%c0, %c0] : !pto.tile<2x64xf16, vec> -> !pto.tensor<2x64xf16>
  return
}
