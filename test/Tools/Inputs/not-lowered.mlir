// Two ops that do not compile to AscendC and two that do.
func.func @shifts(%x: !pto.tensor<8x32xi32>, %y: !pto.tensor<8x32xi32>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x32xi32> -> !pto.tile<8x32xi32, vec>
  %n = pto.tile.not %t : !pto.tile<8x32xi32, vec>
  %l = pto.tile.shl %t, %n : !pto.tile<8x32xi32, vec>
  %a = pto.tile.and %l, %t : !pto.tile<8x32xi32, vec>
  %r = pto.tile.shr %a, %t : !pto.tile<8x32xi32, vec>
  pto.tile.store %r, %y[%c0, %c0] : !pto.tile<8x32xi32, vec> -> !pto.tensor<8x32xi32>
  return
}
