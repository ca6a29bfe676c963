// Dual dispatch: both lanes run the whole aiv function on the whole tile.
// Each lane pushes its own P (lane 1's plus 10), the cube keeps lane 0's,
// multiplies it by w and pushes the product to both lanes; lane l stores
// the product plus l at rows [64 l, 64 l + 64) of y.
func.func @dual_aic(%x: !pto.tensor<64x32xf32>, %w: !pto.tensor<32x64xf16>,
                    %y: !pto.tensor<128x64xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %p = pto.tile.tpop_from_aiv split 0 : !pto.tile<64x32xf16, mat>
  %pl = pto.tile.move %p : !pto.tile<64x32xf16, mat> -> !pto.tile<64x32xf16, left>
  %w1 = pto.tile.load %w[%c0, %c0] : !pto.tensor<32x64xf16> -> !pto.tile<32x64xf16, mat>
  %wr = pto.tile.move %w1 : !pto.tile<32x64xf16, mat> -> !pto.tile<32x64xf16, right>
  %c = pto.tile.matmul %pl, %wr : !pto.tile<64x32xf16, left>, !pto.tile<32x64xf16, right> -> !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %c split 0 : !pto.tile<64x64xf32, acc>
  return
}
func.func @dual_aiv(%x: !pto.tensor<64x32xf32>, %w: !pto.tensor<32x64xf16>,
                    %y: !pto.tensor<128x64xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %ten = arith.constant 10.0 : f32
  %lane = pto.tile.get_subblock_idx
  %li = arith.index_cast %lane : index to i32
  %lf = arith.sitofp %li : i32 to f32
  %bump = arith.mulf %lf, %ten : f32
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<64x32xf32> -> !pto.tile<64x32xf32, vec>
  %u = pto.tile.adds %t, %bump : !pto.tile<64x32xf32, vec>, f32
  %h = pto.tile.cast %u round rint : !pto.tile<64x32xf32, vec> -> !pto.tile<64x32xf16, vec>
  pto.tile.tpush_to_aic %h split 0 : !pto.tile<64x32xf16, vec>
  %r = pto.tile.tpop_from_aic split 0 : !pto.tile<64x64xf32, vec>
  %s = pto.tile.adds %r, %lf : !pto.tile<64x64xf32, vec>, f32
  %row = arith.muli %lane, %c64 : index
  %o = pto.tile.store %s, %y[%row, %c0] : !pto.tile<64x64xf32, vec> -> !pto.tensor<128x64xf32>
  return
}
func.func @dual(%x: !pto.tensor<64x32xf32>, %w: !pto.tensor<32x64xf16>,
                %y: !pto.tensor<128x64xf32>) attributes {pto.kind = #pto.kind<group>, pto.dual_aiv_dispatch} {
  return
}
func.func @main(%x: !pto.tensor<64x32xf32>, %w: !pto.tensor<32x64xf16>,
                %y: !pto.tensor<128x64xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @dual(%x, %w, %y) : (!pto.tensor<64x32xf32>, !pto.tensor<32x64xf16>, !pto.tensor<128x64xf32>) -> ()
  return
}
