// A shift by a tile of amounts has no AscendC lowering (Ascend C shifts by
// a scalar).
func.func @shift(%x: !pto.tensor<16x128xi32>, %y: !pto.tensor<16x128xi32>) -> !pto.tensor<16x128xi32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x128xi32> -> !pto.tile<16x128xi32, vec>
  %m = pto.tile.shl %t, %t : !pto.tile<16x128xi32, vec>
  %r = pto.tile.store %m, %y[%c0, %c0] : !pto.tile<16x128xi32, vec> -> !pto.tensor<16x128xi32>
  return %r : !pto.tensor<16x128xi32>
}
