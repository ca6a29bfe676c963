// Element reads and writes on the scalar unit: an element of a loaded f32
// tile scales the tile, and is written into the scaled tile at [0, 0]; an
// i16 element read and written back doubled.
func.func @read_write(%x: !pto.tensor<8x64xf32>, %y: !pto.tensor<8x64xf32>,
                      %n: !pto.tensor<4x16xi16>, %m: !pto.tensor<4x16xi16>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %v = pto.tile.read %t[%c2, %c5] : !pto.tile<8x64xf32, vec>
  %s = pto.tile.muls %t, %v : !pto.tile<8x64xf32, vec>, f32
  %w = pto.tile.write %v, %s[%c0, %c0] : !pto.tile<8x64xf32, vec>
  pto.tile.store %w, %y[%c0, %c0] : !pto.tile<8x64xf32, vec> -> !pto.tensor<8x64xf32>
  %tn = pto.tile.load %n[%c0, %c0] : !pto.tensor<4x16xi16> -> !pto.tile<4x16xi16, vec>
  %e = pto.tile.read %tn[%c3, %c2] : !pto.tile<4x16xi16, vec>
  %d = arith.addi %e, %e : i16
  %tw = pto.tile.write %d, %tn[%c3, %c2] : !pto.tile<4x16xi16, vec>
  pto.tile.store %tw, %m[%c0, %c0] : !pto.tile<4x16xi16, vec> -> !pto.tensor<4x16xi16>
  return
}
