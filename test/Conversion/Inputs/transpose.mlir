// Transposes of 16-bit tiles in 16 x 16 blocks: an f16 tile of 32 x 48
// with 20 valid rows (the result has 20 valid columns), an i16 tile one
// block high and a bf16 tile one block wide.
func.func @transpose(%x: !pto.tensor<20x48xf16>, %y: !pto.tensor<48x20xf16>,
                     %a: !pto.tensor<16x64xi16>, %b: !pto.tensor<64x16xi16>,
                     %c: !pto.tensor<48x16xbf16>, %d: !pto.tensor<16x48xbf16>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c20 = arith.constant 20 : index
  %c48 = arith.constant 48 : index
  %t = pto.tile.load %x[%c0, %c0] valid [%c20, %c48] : !pto.tensor<20x48xf16> -> !pto.tile<32x48xf16, vec>
  %tt = pto.tile.transpose %t : !pto.tile<32x48xf16, vec> -> !pto.tile<48x32xf16, vec>
  pto.tile.store %tt, %y[%c0, %c0] : !pto.tile<48x32xf16, vec> -> !pto.tensor<48x20xf16>
  %ta = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x64xi16> -> !pto.tile<16x64xi16, vec>
  %tb = pto.tile.transpose %ta : !pto.tile<16x64xi16, vec> -> !pto.tile<64x16xi16, vec>
  pto.tile.store %tb, %b[%c0, %c0] : !pto.tile<64x16xi16, vec> -> !pto.tensor<64x16xi16>
  %tc = pto.tile.load %c[%c0, %c0] : !pto.tensor<48x16xbf16> -> !pto.tile<48x16xbf16, vec>
  %td = pto.tile.transpose %tc : !pto.tile<48x16xbf16, vec> -> !pto.tile<16x48xbf16, vec>
  pto.tile.store %td, %d[%c0, %c0] : !pto.tile<16x48xbf16, vec> -> !pto.tensor<16x48xbf16>
  return
}
