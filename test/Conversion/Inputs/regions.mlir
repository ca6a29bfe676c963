// Slices and assembles of vector tiles: an f32 slice that reaches past the
// source box (its lower rows hold the min pad), stored whole after
// set_validshape; the slice's valid part (8 rows)
// assembled into a tile of sevens; an f16 slice of a column window.
func.func @regions(%x: !pto.tensor<16x64xf32>, %s: !pto.tensor<16x32xf32>, %a: !pto.tensor<16x64xf32>,
                   %h: !pto.tensor<8x64xf16>, %hs: !pto.tensor<8x32xf16>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %seven = arith.constant 7.0 : f32
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %sl = pto.tile.slice %t[%c8, %c32] pad min : !pto.tile<16x64xf32, vec> -> !pto.tile<16x32xf32, vec>
  %all = pto.tile.set_validshape %sl[%c16, %c32] : !pto.tile<16x32xf32, vec>
  pto.tile.store %all, %s[%c0, %c0] : !pto.tile<16x32xf32, vec> -> !pto.tensor<16x32xf32>
  %f = pto.tile.full %seven : f32 -> !pto.tile<16x64xf32, vec>
  %as = pto.tile.assemble %sl into %f[%c8, %c32] : !pto.tile<16x32xf32, vec> into !pto.tile<16x64xf32, vec>
  pto.tile.store %as, %a[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  %th = pto.tile.load %h[%c0, %c0] : !pto.tensor<8x64xf16> -> !pto.tile<8x64xf16, vec>
  %hsl = pto.tile.slice %th[%c0, %c16] : !pto.tile<8x64xf16, vec> -> !pto.tile<8x32xf16, vec>
  pto.tile.store %hsl, %hs[%c0, %c0] : !pto.tile<8x32xf16, vec> -> !pto.tensor<8x32xf16>
  return
}
