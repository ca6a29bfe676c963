// shl / shr by a tile of amounts on i32 and i16 tiles (amounts in range,
// negative and past the width), 5 valid rows of 8: the scalar unit walks
// the valid region. A ui8 tile shifts logically (amounts past the width
// give 0 both ways).
func.func @shift(%a: !pto.tensor<5x64xi32>, %s: !pto.tensor<5x64xi32>, %l: !pto.tensor<5x64xi32>, %r: !pto.tensor<5x64xi32>,
                 %h: !pto.tensor<4x32xi16>, %t: !pto.tensor<4x32xi16>, %hl: !pto.tensor<4x32xi16>, %hr: !pto.tensor<4x32xi16>,
                 %u: !pto.tensor<4x32xui8>, %v: !pto.tensor<4x32xui8>, %ul: !pto.tensor<4x32xui8>, %ur: !pto.tensor<4x32xui8>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %x = pto.tile.load %a[%c0, %c0] valid [%c5, %c64] : !pto.tensor<5x64xi32> -> !pto.tile<8x64xi32, vec>
  %n = pto.tile.load %s[%c0, %c0] valid [%c5, %c64] : !pto.tensor<5x64xi32> -> !pto.tile<8x64xi32, vec>
  %left = pto.tile.shl %x, %n : !pto.tile<8x64xi32, vec>
  %right = pto.tile.shr %x, %n : !pto.tile<8x64xi32, vec>
  pto.tile.store %left, %l[%c0, %c0] : !pto.tile<8x64xi32, vec> -> !pto.tensor<5x64xi32>
  pto.tile.store %right, %r[%c0, %c0] : !pto.tile<8x64xi32, vec> -> !pto.tensor<5x64xi32>
  %y = pto.tile.load %h[%c0, %c0] : !pto.tensor<4x32xi16> -> !pto.tile<4x32xi16, vec>
  %m = pto.tile.load %t[%c0, %c0] : !pto.tensor<4x32xi16> -> !pto.tile<4x32xi16, vec>
  %yl = pto.tile.shl %y, %m : !pto.tile<4x32xi16, vec>
  %yr = pto.tile.shr %y, %m : !pto.tile<4x32xi16, vec>
  pto.tile.store %yl, %hl[%c0, %c0] : !pto.tile<4x32xi16, vec> -> !pto.tensor<4x32xi16>
  pto.tile.store %yr, %hr[%c0, %c0] : !pto.tile<4x32xi16, vec> -> !pto.tensor<4x32xi16>
  %z = pto.tile.load %u[%c0, %c0] : !pto.tensor<4x32xui8> -> !pto.tile<4x32xui8, vec>
  %k = pto.tile.load %v[%c0, %c0] : !pto.tensor<4x32xui8> -> !pto.tile<4x32xui8, vec>
  %zl = pto.tile.shl %z, %k : !pto.tile<4x32xui8, vec>
  %zr = pto.tile.shr %z, %k : !pto.tile<4x32xui8, vec>
  pto.tile.store %zl, %ul[%c0, %c0] : !pto.tile<4x32xui8, vec> -> !pto.tensor<4x32xui8>
  pto.tile.store %zr, %ur[%c0, %c0] : !pto.tile<4x32xui8, vec> -> !pto.tensor<4x32xui8>
  return
}
