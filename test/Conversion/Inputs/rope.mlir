// Rotary position embedding on a [S, H, 128] tensor, one 2-d tile of all
// heads per position (tiles span a tensor's trailing dimensions): the two
// halves of each head's features rotate by the position's angles,
//   y[:, :64] = x1 cos - x2 sin,  y[:, 64:] = x2 cos + x1 sin,
// with cos and sin [S, 64] rows expanded over the heads. H heads in tiles
// of 16 rows: a ragged tile when H < 16.
func.func @rope(%x: !pto.tensor<?x?x128xf32>, %cos: !pto.tensor<?x64xf32>,
                %sin: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x?x128xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %s_len = pto.tensor.dim %x, 0 : !pto.tensor<?x?x128xf32>
  scf.for %s = %c0 to %s_len step %c1 {
    %x1 = pto.tile.load %x[%s, %c0, %c0] : !pto.tensor<?x?x128xf32> -> !pto.tile<16x64xf32, vec>
    %x2 = pto.tile.load %x[%s, %c0, %c64] : !pto.tensor<?x?x128xf32> -> !pto.tile<16x64xf32, vec>
    %c = pto.tile.load %cos[%s, %c0] : !pto.tensor<?x64xf32> -> !pto.tile<1x64xf32, vec>
    %n = pto.tile.load %sin[%s, %c0] : !pto.tensor<?x64xf32> -> !pto.tile<1x64xf32, vec>
    %x1c = pto.tile.col_expand_mul %x1, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
    %x2s = pto.tile.col_expand_mul %x2, %n : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
    %x2c = pto.tile.col_expand_mul %x2, %c : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
    %x1s = pto.tile.col_expand_mul %x1, %n : !pto.tile<16x64xf32, vec>, !pto.tile<1x64xf32, vec>
    %y1 = pto.tile.sub %x1c, %x2s : !pto.tile<16x64xf32, vec>
    %y2 = pto.tile.add %x2c, %x1s : !pto.tile<16x64xf32, vec>
    pto.tile.store %y1, %y[%s, %c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x?x128xf32>
    pto.tile.store %y2, %y[%s, %c0, %c64] : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x?x128xf32>
  }
  return
}
