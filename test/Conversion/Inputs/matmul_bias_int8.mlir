// C = A B + bias for int8 A and B and an int32 bias, accumulated exactly
// in int32, at a ragged M and K: the bias row goes from GM to L1 (C1) and
// into the bias table (C2), which the mmad adds to its fresh products.
func.func @matmul_bias(%a: !pto.tensor<?x?xi8>, %b: !pto.tensor<?x64xi8>,
                       %bias: !pto.tensor<1x64xi32>, %c: !pto.tensor<?x64xi32>)
    -> !pto.tensor<?x64xi32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = pto.tensor.dim %a, 0 : !pto.tensor<?x?xi8>
  %k = pto.tensor.dim %a, 1 : !pto.tensor<?x?xi8>
  %a1 = pto.tile.load %a[%c0, %c0] valid [%m, %k] : !pto.tensor<?x?xi8> -> !pto.tile<64x64xi8, mat>
  %al = pto.tile.move %a1 : !pto.tile<64x64xi8, mat> -> !pto.tile<64x64xi8, left>
  %b1 = pto.tile.load %b[%c0, %c0] valid [%k, %c64] : !pto.tensor<?x64xi8> -> !pto.tile<64x64xi8, mat>
  %br = pto.tile.move %b1 : !pto.tile<64x64xi8, mat> -> !pto.tile<64x64xi8, right>
  %t1 = pto.tile.load %bias[%c0, %c0] : !pto.tensor<1x64xi32> -> !pto.tile<1x64xi32, mat>
  %tb = pto.tile.move %t1 : !pto.tile<1x64xi32, mat> -> !pto.tile<1x64xi32, bias>
  %p = pto.tile.matmul_bias %al, %br, %tb : !pto.tile<64x64xi8, left>, !pto.tile<64x64xi8, right>, !pto.tile<1x64xi32, bias> -> !pto.tile<64x64xi32, acc>
  %r = pto.tile.store %p, %c[%c0, %c0] : !pto.tile<64x64xi32, acc> -> !pto.tensor<?x64xi32>
  return %r : !pto.tensor<?x64xi32>
}
