// A ragged product cut between the lanes: the cube multiplies the rows of
// x that exist (valid rows %rv of a 64-row block) and pushes the product
// with split code SPLIT (1: up/down, 3: up/down odd, where lane 0 holds one
// valid row more); each lane pops its part, whose valid rows are its share
// of %rv, and stores just those rows.
func.func @ragged_aic(%x: !pto.tensor<?x32xf16>, %w: !pto.tensor<32x64xf16>,
                      %y: !pto.tensor<?x64xf32>, %rv: index)
    attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %a = pto.tile.load %x[%c0, %c0] valid [%rv, %c32] : !pto.tensor<?x32xf16> -> !pto.tile<64x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<64x32xf16, mat> -> !pto.tile<64x32xf16, left>
  %b = pto.tile.load %w[%c0, %c0] : !pto.tensor<32x64xf16> -> !pto.tile<32x64xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x64xf16, mat> -> !pto.tile<32x64xf16, right>
  %c = pto.tile.matmul %al, %br : !pto.tile<64x32xf16, left>, !pto.tile<32x64xf16, right> -> !pto.tile<64x64xf32, acc>
  pto.tile.tpush_to_aiv %c split SPLIT : !pto.tile<64x64xf32, acc>
  return
}

func.func @ragged_aiv(%x: !pto.tensor<?x32xf16>, %w: !pto.tensor<32x64xf16>,
                      %y: !pto.tensor<?x64xf32>, %rv: index)
    attributes {pto.kind = #pto.kind<aiv>, pto.split = SPLIT : i32} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %lane = pto.tile.get_subblock_idx
  %row = arith.muli %lane, %c32 : index
  %t = pto.tile.tpop_from_aic split SPLIT : !pto.tile<32x64xf32, vec>
  %r = pto.tile.relu %t : !pto.tile<32x64xf32, vec>
  %o = pto.tile.store %r, %y[%row, %c0] : !pto.tile<32x64xf32, vec> -> !pto.tensor<?x64xf32>
  return
}

func.func @ragged(%x: !pto.tensor<?x32xf16>, %w: !pto.tensor<32x64xf16>,
                  %y: !pto.tensor<?x64xf32>, %rv: index)
    attributes {pto.kind = #pto.kind<group>, pto.split = SPLIT : i32} {
  return
}

func.func @main(%x: !pto.tensor<?x32xf16>, %w: !pto.tensor<32x64xf16>,
                %y: !pto.tensor<?x64xf32>) -> !pto.tensor<?x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x32xf16>
  func.call @ragged(%x, %w, %y, %rows) : (!pto.tensor<?x32xf16>, !pto.tensor<32x64xf16>, !pto.tensor<?x64xf32>, index) -> ()
  return %y : !pto.tensor<?x64xf32>
}
