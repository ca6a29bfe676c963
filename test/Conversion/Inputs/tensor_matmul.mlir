// Matmuls of whole integer tensors in an orchestration: each becomes
// launches of a generated cube kernel (a band of 16 rows a call, all of K
// in one tile, one mmad a tile; integer sums are exact in any order).
//   q = p @ r         int8 [40, 64] x [64, 96] -> i32 (a ragged band)
//   z = u @ v         batched int8 [2, 20, 32] x [2, 32, 64] -> i32
func.func @mm(%p: !pto.tensor<40x64xi8>, %r: !pto.tensor<64x96xi8>,
              %u: !pto.tensor<2x20x32xi8>, %v: !pto.tensor<2x32x64xi8>,
              %q: !pto.tensor<40x96xi32>, %z: !pto.tensor<2x20x64xi32>)
    -> (!pto.tensor<40x96xi32>, !pto.tensor<2x20x64xi32>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %mi = pto.tensor.matmul %p, %r : !pto.tensor<40x64xi8>, !pto.tensor<64x96xi8> -> !pto.tensor<40x96xi32>
  %q1 = pto.tensor.assemble %mi into %q[%c0, %c0] : !pto.tensor<40x96xi32> into !pto.tensor<40x96xi32>
  %mb = pto.tensor.matmul %u, %v : !pto.tensor<2x20x32xi8>, !pto.tensor<2x32x64xi8> -> !pto.tensor<2x20x64xi32>
  %z1 = pto.tensor.assemble %mb into %z[%c0, %c0, %c0] : !pto.tensor<2x20x64xi32> into !pto.tensor<2x20x64xi32>
  return %q1, %z1 : !pto.tensor<40x96xi32>, !pto.tensor<2x20x64xi32>
}
