// An int8 matmul whose right tile is 16 columns wide: L0B takes 1-byte
// elements in 32 x 32 squares, so the C++ form needs n a multiple of 32.
func.func @mm8(%a: !pto.tensor<32x32xi8>, %b: !pto.tensor<32x16xi8>, %c: !pto.tensor<32x16xi32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a1 = pto.tile.load %a[%c0, %c0] : !pto.tensor<32x32xi8> -> !pto.tile<32x32xi8, mat>
  %b1 = pto.tile.load %b[%c0, %c0] : !pto.tensor<32x16xi8> -> !pto.tile<32x16xi8, mat>
  %a0 = pto.tile.move %a1 : !pto.tile<32x32xi8, mat> -> !pto.tile<32x32xi8, left>
  %b0 = pto.tile.move %b1 : !pto.tile<32x16xi8, mat> -> !pto.tile<32x16xi8, right>
  %r = pto.tile.matmul %a0, %b0 : !pto.tile<32x32xi8, left>, !pto.tile<32x16xi8, right> -> !pto.tile<32x16xi32, acc>
  pto.tile.store %r, %c[%c0, %c0] : !pto.tile<32x16xi32, acc> -> !pto.tensor<32x16xi32>
  return
}
