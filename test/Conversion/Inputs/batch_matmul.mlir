// A batch of four 32 x 32 matmuls, then the same products accumulated once
// more into the batch accumulator (batch_matmul_acc): C = 2 (A B) per batch.
// 3-d tiles in L1, L0A, L0B and L0C move one matrix at a time.
func.func @bmm(%a: !pto.tensor<4x32x32xf16>, %b: !pto.tensor<4x32x32xf16>, %c: !pto.tensor<4x32x32xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a1 = pto.tile.load %a[%c0, %c0, %c0] : !pto.tensor<4x32x32xf16> -> !pto.tile<4x32x32xf16, mat>
  %b1 = pto.tile.load %b[%c0, %c0, %c0] : !pto.tensor<4x32x32xf16> -> !pto.tile<4x32x32xf16, mat>
  %a0 = pto.tile.move %a1 : !pto.tile<4x32x32xf16, mat> -> !pto.tile<4x32x32xf16, left>
  %b0 = pto.tile.move %b1 : !pto.tile<4x32x32xf16, mat> -> !pto.tile<4x32x32xf16, right>
  %r = pto.tile.batch_matmul %a0, %b0 : !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right> -> !pto.tile<4x32x32xf32, acc>
  %r2 = pto.tile.batch_matmul_acc %r, %a0, %b0 : !pto.tile<4x32x32xf32, acc>, !pto.tile<4x32x32xf16, left>, !pto.tile<4x32x32xf16, right>
  pto.tile.store %r2, %c[%c0, %c0, %c0] : !pto.tile<4x32x32xf32, acc> -> !pto.tensor<4x32x32xf32>
  return
}
