// A stream through a two-slot pipe: each group call moves 4 chunks of 64
// rows of X from the vector lanes (32 rows each, rounded to f16) to the
// cube, which squares each chunk (Y = X X, 64 x 64) and stores it: the
// lanes run ahead of the cube by at most two chunks.
func.func @stream_aic(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>,
                      %m0: index)
    attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  pto.system.aic_initialize_pipe 0 to_aic slot_num 2 slot_size 4096
  scf.for %i = %c0 to %c4 step %c1 {
    %a1 = pto.tile.tpop_from_aiv split 1 : !pto.tile<64x64xf16, mat>
    %al = pto.tile.move %a1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
    %ar = pto.tile.move %a1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
    %c = pto.tile.matmul %al, %ar
        : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc>
    %off = arith.muli %i, %c64 : index
    %row = arith.addi %m0, %off : index
    %s = pto.tile.store %c, %y[%row, %c0] : !pto.tile<64x64xf32, acc> -> !pto.tensor<?x64xf32>
  }
  return
}

func.func @stream_aiv(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>,
                      %m0: index)
    attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  pto.system.aiv_initialize_pipe 0 to_aic slot_num 2 slot_size 4096
  %lane = pto.tile.get_subblock_idx
  %lane_rows = arith.muli %lane, %c32 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %off = arith.muli %i, %c64 : index
    %base = arith.addi %m0, %off : index
    %row = arith.addi %base, %lane_rows : index
    %t = pto.tile.load %x[%row, %c0] : !pto.tensor<?x64xf32> -> !pto.tile<32x64xf32, vec>
    %h = pto.tile.cast %t round rint : !pto.tile<32x64xf32, vec> -> !pto.tile<32x64xf16, vec>
    pto.tile.tpush_to_aic %h split 1 : !pto.tile<32x64xf16, vec>
  }
  return
}

func.func @stream(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>,
                  %m0: index)
    attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

func.func @main(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>)
    -> !pto.tensor<?x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x64xf32>
  scf.for %m0 = %c0 to %m step %c256 {
    func.call @stream(%x, %y, %m0)
        : (!pto.tensor<?x64xf32>, !pto.tensor<?x64xf32>, index) -> ()
  }
  return %y : !pto.tensor<?x64xf32>
}
