// Transposes of 16-bit tiles in 16 x 16 blocks: an f16 tile of 32 x 48
// with 20 valid rows (the result has 20 valid columns), an i16 tile one
// block high and a bf16 tile one block wide. Then tiles Ascend C's
// Transpose does not take, which the scalar unit transposes: f32 with 5 x 19
// of 8 x 24 valid, i8 of 32 x 64 whole, i32 of 8 x 8 with a run-time count
// of valid rows.
func.func @transpose(%x: !pto.tensor<20x48xf16>, %y: !pto.tensor<48x20xf16>,
                     %a: !pto.tensor<16x64xi16>, %b: !pto.tensor<64x16xi16>,
                     %c: !pto.tensor<48x16xbf16>, %d: !pto.tensor<16x48xbf16>,
                     %e: !pto.tensor<5x19xf32>, %f: !pto.tensor<19x5xf32>,
                     %g: !pto.tensor<32x64xi8>, %h: !pto.tensor<64x32xi8>,
                     %i: !pto.tensor<6x8xi32>, %j: !pto.tensor<8x6xi32>,
                     %n: index)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c19 = arith.constant 19 : index
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
  %te = pto.tile.load %e[%c0, %c0] valid [%c5, %c19] : !pto.tensor<5x19xf32> -> !pto.tile<8x24xf32, vec>
  %tf = pto.tile.transpose %te : !pto.tile<8x24xf32, vec> -> !pto.tile<24x8xf32, vec>
  pto.tile.store %tf, %f[%c0, %c0] : !pto.tile<24x8xf32, vec> -> !pto.tensor<19x5xf32>
  %tg = pto.tile.load %g[%c0, %c0] : !pto.tensor<32x64xi8> -> !pto.tile<32x64xi8, vec>
  %th = pto.tile.transpose %tg : !pto.tile<32x64xi8, vec> -> !pto.tile<64x32xi8, vec>
  pto.tile.store %th, %h[%c0, %c0] : !pto.tile<64x32xi8, vec> -> !pto.tensor<64x32xi8>
  %ti = pto.tile.load %i[%c0, %c0] valid [%n, %c8] : !pto.tensor<6x8xi32> -> !pto.tile<8x8xi32, vec>
  %tj = pto.tile.transpose %ti : !pto.tile<8x8xi32, vec> -> !pto.tile<8x8xi32, vec>
  pto.tile.store %tj, %j[%c0, %c0] : !pto.tile<8x8xi32, vec> -> !pto.tensor<8x6xi32>
  return
}
