// Two ops that do not compile to AscendC and two that do.
func.func @topk_ish(%x: !pto.tensor<8x32xf32>, %y: !pto.tensor<8x32xf32>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x32xf32> -> !pto.tile<8x32xf32, vec>
  %n = pto.tile.neg %t : !pto.tile<8x32xf32, vec> -> !pto.tile<8x32xf32, vec>
  %mx, %mxi = pto.tile.row_argmax %n : !pto.tile<8x32xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
  %g = pto.tile.sigmoid %n : !pto.tile<8x32xf32, vec> -> !pto.tile<8x32xf32, vec>
  %r, %ri = pto.tile.row_argmin %g : !pto.tile<8x32xf32, vec> -> !pto.tile<8x1xf32, vec>, !pto.tile<8x1xi32, vec>
  pto.tile.store %g, %y[%c0, %c0] : !pto.tile<8x32xf32, vec> -> !pto.tensor<8x32xf32>
  return
}
