// f16 row sums and column products of 16 x 100 f16 tensors in tiles of
// 112 columns (whole 32-byte blocks, as the API reads rows): folds the API
// takes in f32 only.
func.func @half_sum(%x: !pto.tensor<16x100xf16>, %s: !pto.tensor<16x1xf16>, %p: !pto.tensor<1x100xf16>) -> (!pto.tensor<16x1xf16>, !pto.tensor<1x100xf16>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x100xf16> -> !pto.tile<16x112xf16, vec>
  %sum = pto.tile.row_sum %t : !pto.tile<16x112xf16, vec> -> !pto.tile<16x1xf16, vec>
  %prod = pto.tile.col_prod %t : !pto.tile<16x112xf16, vec> -> !pto.tile<1x112xf16, vec>
  %r = pto.tile.store %sum, %s[%c0, %c0] : !pto.tile<16x1xf16, vec> -> !pto.tensor<16x1xf16>
  %q = pto.tile.store %prod, %p[%c0, %c0] : !pto.tile<1x112xf16, vec> -> !pto.tensor<1x100xf16>
  return %r, %q : !pto.tensor<16x1xf16>, !pto.tensor<1x100xf16>
}
