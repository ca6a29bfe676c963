// Ops Ascend C has no one instruction for: xor and the bitwise scalar
// forms on i32 words, integer remainders by a tile and by a scalar
// (a - (a / b) * b, a ragged tile: the division counts its valid rows),
// integer negation (0 - x) and float negation (the sign bit flipped: NaNs
// and zeros included).
func.func @composite(%a: !pto.tensor<6x64xi32>, %b: !pto.tensor<6x64xi32>,
                     %o: !pto.tensor<6x64xi32>, %r: !pto.tensor<6x64xi32>,
                     %x: !pto.tensor<8x64xf32>, %y: !pto.tensor<8x64xf32>,
                     %h: !pto.tensor<8x64xf16>, %g: !pto.tensor<8x64xf16>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %k = arith.constant 1431655765 : i32
  %m = arith.constant 255 : i32
  %ta = pto.tile.load %a[%c0, %c0] : !pto.tensor<6x64xi32> -> !pto.tile<8x64xi32, vec>
  %tb = pto.tile.load %b[%c0, %c0] : !pto.tensor<6x64xi32> -> !pto.tile<8x64xi32, vec>
  %x1 = pto.tile.xor %ta, %tb : !pto.tile<8x64xi32, vec>, !pto.tile<8x64xi32, vec> -> !pto.tile<8x64xi32, vec>
  %x2 = pto.tile.xors %x1, %k : !pto.tile<8x64xi32, vec>, i32
  %x3 = pto.tile.ors %x2, %m : !pto.tile<8x64xi32, vec>, i32
  %x4 = pto.tile.ands %x3, %k : !pto.tile<8x64xi32, vec>, i32
  %n = pto.tile.neg %x4 : !pto.tile<8x64xi32, vec> -> !pto.tile<8x64xi32, vec>
  pto.tile.store %n, %o[%c0, %c0] : !pto.tile<8x64xi32, vec> -> !pto.tensor<6x64xi32>
  // The divisor kept away from zero: b | 1.
  %one = arith.constant 1 : i32
  %d = pto.tile.ors %tb, %one : !pto.tile<8x64xi32, vec>, i32
  %rem = pto.tile.rem %ta, %d : !pto.tile<8x64xi32, vec>, !pto.tile<8x64xi32, vec> -> !pto.tile<8x64xi32, vec>
  %seven = arith.constant 7 : i32
  %rems = pto.tile.rems %ta, %seven : !pto.tile<8x64xi32, vec>, i32
  %both = pto.tile.add %rem, %rems : !pto.tile<8x64xi32, vec>
  pto.tile.store %both, %r[%c0, %c0] : !pto.tile<8x64xi32, vec> -> !pto.tensor<6x64xi32>
  %tx = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
  %nx = pto.tile.neg %tx : !pto.tile<8x64xf32, vec> -> !pto.tile<8x64xf32, vec>
  pto.tile.store %nx, %y[%c0, %c0] : !pto.tile<8x64xf32, vec> -> !pto.tensor<8x64xf32>
  %th = pto.tile.load %h[%c0, %c0] : !pto.tensor<8x64xf16> -> !pto.tile<8x64xf16, vec>
  %nh = pto.tile.neg %th : !pto.tile<8x64xf16, vec> -> !pto.tile<8x64xf16, vec>
  pto.tile.store %nh, %g[%c0, %c0] : !pto.tile<8x64xf16, vec> -> !pto.tensor<8x64xf16>
  return
}
