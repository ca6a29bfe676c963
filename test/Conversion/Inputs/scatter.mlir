// Scatter rows of elements by row index into a loaded target: indices with
// collisions (the later write wins) and outside the target (nothing is
// written), over a ragged source (3 of 4 rows valid).
func.func @scatter(%s: !pto.tensor<3x16xf32>, %i: !pto.tensor<3x16xi32>, %d: !pto.tensor<8x16xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %ts = pto.tile.load %s[%c0, %c0] valid [%c3, %c16] : !pto.tensor<3x16xf32> -> !pto.tile<4x16xf32, vec>
  %ti = pto.tile.load %i[%c0, %c0] valid [%c3, %c16] : !pto.tensor<3x16xi32> -> !pto.tile<4x16xi32, vec>
  %td = pto.tile.load %d[%c0, %c0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
  %r = pto.tile.scatter %ts, %ti into %td : !pto.tile<4x16xf32, vec>, !pto.tile<4x16xi32, vec> into !pto.tile<8x16xf32, vec>
  pto.tile.store %r, %d[%c0, %c0] : !pto.tile<8x16xf32, vec> -> !pto.tensor<8x16xf32>
  return
}
