// Compares and selects: a causal-style mask (keep x where x < y, else
// y), a clamp of negatives to a scalar (cmps + sels), on f32 and f16 tiles
// of whole 256-byte repeats, the masks Ascend C's bit masks.
func.func @select(%x: !pto.tensor<16x64xf32>, %y: !pto.tensor<16x64xf32>,
                  %o: !pto.tensor<16x64xf32>, %h: !pto.tensor<8x128xf16>,
                  %p: !pto.tensor<8x128xf16>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %floor = arith.constant -0.25 : f32
  %tx = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %ty = pto.tile.load %y[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %lt = pto.tile.cmp lt, %tx, %ty : !pto.tile<16x64xf32, vec>, !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xi1, vec>
  %m = pto.tile.sel %lt, %tx, %ty : !pto.tile<16x64xi1, vec>, !pto.tile<16x64xf32, vec>, !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec>
  pto.tile.store %m, %o[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  %th = pto.tile.load %h[%c0, %c0] : !pto.tensor<8x128xf16> -> !pto.tile<8x128xf16, vec>
  %ge = pto.tile.cmps ge, %th, %zero : !pto.tile<8x128xf16, vec>, f32 -> !pto.tile<8x128xi1, vec>
  %c = pto.tile.sels %ge, %th, %floor : !pto.tile<8x128xi1, vec>, !pto.tile<8x128xf16, vec>, f32 -> !pto.tile<8x128xf16, vec>
  pto.tile.store %c, %p[%c0, %c0] : !pto.tile<8x128xf16, vec> -> !pto.tensor<8x128xf16>
  return
}
