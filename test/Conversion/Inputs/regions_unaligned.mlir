// Parts of vector tiles whose columns do not start and end on 32-byte
// blocks, which the scalar unit copies element by element: an f32 slice
// reaching past the source box on both sides (max pad), stored whole; a
// load of n valid columns (n known at run time) assembled at column 3 of a
// tile of sevens; an f16 slice from column 5, one row past the box. Then
// parts at offsets known only at run time: a slice at [r, q] (min pad past
// the box) and the n columns assembled at [r2, q2] into a tile of zeros.
func.func @unaligned(%x: !pto.tensor<16x64xf32>, %n: index, %s: !pto.tensor<8x16xf32>,
                     %a: !pto.tensor<16x64xf32>, %h: !pto.tensor<8x64xf16>,
                     %hs: !pto.tensor<8x16xf16>, %r: index, %q: index,
                     %d: !pto.tensor<4x8xf32>, %r2: index, %q2: index,
                     %e: !pto.tensor<16x64xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c55 = arith.constant 55 : index
  %seven = arith.constant 7.0 : f32
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %sl = pto.tile.slice %t[%c12, %c55] pad max : !pto.tile<16x64xf32, vec> -> !pto.tile<8x16xf32, vec>
  %all = pto.tile.set_validshape %sl[%c8, %c16] : !pto.tile<8x16xf32, vec>
  pto.tile.store %all, %s[%c0, %c0] : !pto.tile<8x16xf32, vec> -> !pto.tensor<8x16xf32>
  %part = pto.tile.load %x[%c0, %c0] valid [%c5, %n] : !pto.tensor<16x64xf32> -> !pto.tile<8x16xf32, vec>
  %f = pto.tile.full %seven : f32 -> !pto.tile<16x64xf32, vec>
  %as = pto.tile.assemble %part into %f[%c2, %c3] : !pto.tile<8x16xf32, vec> into !pto.tile<16x64xf32, vec>
  pto.tile.store %as, %a[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  %th = pto.tile.load %h[%c0, %c0] : !pto.tensor<8x64xf16> -> !pto.tile<8x64xf16, vec>
  %hsl = pto.tile.slice %th[%c1, %c5] : !pto.tile<8x64xf16, vec> -> !pto.tile<8x16xf16, vec>
  pto.tile.store %hsl, %hs[%c0, %c0] : !pto.tile<8x16xf16, vec> -> !pto.tensor<8x16xf16>
  %c4 = arith.constant 4 : index
  %rs = pto.tile.slice %t[%r, %q] pad min : !pto.tile<16x64xf32, vec> -> !pto.tile<4x8xf32, vec>
  %rall = pto.tile.set_validshape %rs[%c4, %c8] : !pto.tile<4x8xf32, vec>
  pto.tile.store %rall, %d[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %z = pto.tile.full %zero : f32 -> !pto.tile<16x64xf32, vec>
  %ra = pto.tile.assemble %part into %z[%r2, %q2] : !pto.tile<8x16xf32, vec> into !pto.tile<16x64xf32, vec>
  pto.tile.store %ra, %e[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  return
}
