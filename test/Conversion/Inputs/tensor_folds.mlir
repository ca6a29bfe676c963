// Row and column folds of whole tensors in an orchestration: each becomes
// launches of a generated kernel whose tile holds whole rows (whole
// columns), so the fold sums in the executor's order.
//   x: [40, 64] f32 -> rs = row_sum(x) [40, 1], cm = col_max(x) [1, 64]
//   h: [20, 128] f16 -> hm = row_min(h) [20, 1]
func.func @folds(%x: !pto.tensor<40x64xf32>, %h: !pto.tensor<20x128xf16>,
                 %rs: !pto.tensor<40x1xf32>, %cm: !pto.tensor<1x64xf32>,
                 %hm: !pto.tensor<20x1xf16>)
    -> (!pto.tensor<40x1xf32>, !pto.tensor<1x64xf32>, !pto.tensor<20x1xf16>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %s = pto.tensor.row_sum %x : !pto.tensor<40x64xf32> -> !pto.tensor<40x1xf32>
  %rs1 = pto.tensor.assemble %s into %rs[%c0, %c0] : !pto.tensor<40x1xf32> into !pto.tensor<40x1xf32>
  %m = pto.tensor.col_max %x : !pto.tensor<40x64xf32> -> !pto.tensor<1x64xf32>
  %cm1 = pto.tensor.assemble %m into %cm[%c0, %c0] : !pto.tensor<1x64xf32> into !pto.tensor<1x64xf32>
  %n = pto.tensor.row_min %h : !pto.tensor<20x128xf16> -> !pto.tensor<20x1xf16>
  %hm1 = pto.tensor.assemble %n into %hm[%c0, %c0] : !pto.tensor<20x1xf16> into !pto.tensor<20x1xf16>
  return %rs1, %cm1, %hm1 : !pto.tensor<40x1xf32>, !pto.tensor<1x64xf32>, !pto.tensor<20x1xf16>
}
