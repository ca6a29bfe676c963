// The vector instructions of pto-isa's A2/A3 flash attention for one lane
// and one 256-key tile (pto_macro_fa_softmax.hpp, pto_macro_fa_gu.hpp):
// 64 rows x 256 keys of S, 64 x 128 of P V.
func.func @lane_tile(%s: !pto.tensor<?x256xf32>, %pv: !pto.tensor<?x128xf32>,
                     %p: !pto.tensor<?x256xf16>, %o: !pto.tensor<?x128xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %scale = arith.constant 0.0883883461 : f32
  %x = pto.tile.load %s[%c0, %c0] valid [%c64, %c256] : !pto.tensor<?x256xf32> -> !pto.tile<64x256xf32, vec>
  %m = pto.tile.row_max %x : !pto.tile<64x256xf32, vec> -> !pto.tile<64x1xf32, vec>
  %d = pto.tile.row_expand_sub %x, %m : !pto.tile<64x256xf32, vec>, !pto.tile<64x1xf32, vec>
  %ds = pto.tile.muls %d, %scale : !pto.tile<64x256xf32, vec>, f32
  %e = pto.tile.exp %ds : !pto.tile<64x256xf32, vec>
  %l = pto.tile.row_sum %e : !pto.tile<64x256xf32, vec> -> !pto.tile<64x1xf32, vec>
  %e16 = pto.tile.cast %e round rint : !pto.tile<64x256xf32, vec> -> !pto.tile<64x256xf16, vec>
  %w = pto.tile.store %e16, %p[%c0, %c0] : !pto.tile<64x256xf16, vec> -> !pto.tensor<?x256xf16>
  %acc = pto.tile.load %pv[%c0, %c0] valid [%c64, %c128] : !pto.tensor<?x128xf32> -> !pto.tile<64x128xf32, vec>
  %o1 = pto.tile.row_expand_mul %acc, %l : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
  %o2 = pto.tile.add %o1, %acc : !pto.tile<64x128xf32, vec>
  %w2 = pto.tile.store %o2, %o[%c0, %c0] : !pto.tile<64x128xf32, vec> -> !pto.tensor<?x128xf32>
  return
}
