// Bitwise ops on i32 and i8 tiles (Ascend C's 16-bit And/Or/Not on a word
// view), subs on integers and subs/divs on f16 with f32 and f16 scalars.
func.func @bits(%a: !pto.tensor<8x64xi32>, %b: !pto.tensor<8x64xi32>, %o: !pto.tensor<8x64xi32>,
                %c: !pto.tensor<4x32xi8>, %d: !pto.tensor<4x32xi8>, %p: !pto.tensor<4x32xi8>,
                %x: !pto.tensor<8x64xf16>, %y: !pto.tensor<8x64xf16>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %k = arith.constant 7 : i32
  %s = arith.constant 0.3 : f32
  %t = arith.constant 3.0 : f16
  %ta = pto.tile.load %a[%c0, %c0] : !pto.tensor<8x64xi32> -> !pto.tile<8x64xi32, vec>
  %tb = pto.tile.load %b[%c0, %c0] : !pto.tensor<8x64xi32> -> !pto.tile<8x64xi32, vec>
  %and = pto.tile.and %ta, %tb : !pto.tile<8x64xi32, vec>, !pto.tile<8x64xi32, vec> -> !pto.tile<8x64xi32, vec>
  %not = pto.tile.not %and : !pto.tile<8x64xi32, vec> -> !pto.tile<8x64xi32, vec>
  %or = pto.tile.or %not, %ta : !pto.tile<8x64xi32, vec>, !pto.tile<8x64xi32, vec> -> !pto.tile<8x64xi32, vec>
  %sub = pto.tile.subs %or, %k : !pto.tile<8x64xi32, vec>, i32
  pto.tile.store %sub, %o[%c0, %c0] : !pto.tile<8x64xi32, vec> -> !pto.tensor<8x64xi32>
  %tc = pto.tile.load %c[%c0, %c0] : !pto.tensor<4x32xi8> -> !pto.tile<4x32xi8, vec>
  %td = pto.tile.load %d[%c0, %c0] : !pto.tensor<4x32xi8> -> !pto.tile<4x32xi8, vec>
  %or8 = pto.tile.or %tc, %td : !pto.tile<4x32xi8, vec>, !pto.tile<4x32xi8, vec> -> !pto.tile<4x32xi8, vec>
  %n8 = pto.tile.not %or8 : !pto.tile<4x32xi8, vec> -> !pto.tile<4x32xi8, vec>
  pto.tile.store %n8, %p[%c0, %c0] : !pto.tile<4x32xi8, vec> -> !pto.tensor<4x32xi8>
  %tx = pto.tile.load %x[%c0, %c0] : !pto.tensor<8x64xf16> -> !pto.tile<8x64xf16, vec>
  %d1 = pto.tile.divs %tx, %s : !pto.tile<8x64xf16, vec>, f32
  %d2 = pto.tile.subs %d1, %s : !pto.tile<8x64xf16, vec>, f32
  %d3 = pto.tile.divs %d2, %t : !pto.tile<8x64xf16, vec>, f16
  pto.tile.store %d3, %y[%c0, %c0] : !pto.tile<8x64xf16, vec> -> !pto.tensor<8x64xf16>
  return
}
