// A mixed kernel whose cores exchange tiles inside an scf.while that counts
// an index to a bound: the group merge lifts each core's loop to an scf.for
// and fuses them (check-arch.test also makes a while it does not lift).
// A mixed cube + vector kernel: Y = relu((X * scale) @ W).
//
// The group @scaled_matmul runs @scaled_matmul_aic on the cube core and
// @scaled_matmul_aiv on two vector lanes (split 1, up/down). For each block
// of 64 rows of X:
//
//   1. each lane loads its 32 rows of X (f32), scales them, rounds them to
//      f16 and pushes them to the cube core;
//   2. the cube core pops the merged 64 x 64 block into L1, multiplies it by
//      W (64 x 64 f16) and pushes the f32 product back, split by rows;
//   3. each lane pops its 32 rows of the product, applies relu and stores
//      them to Y.
//
// X and Y are M x 64 with M a multiple of 64 (each lane moves whole rows, and
// split 1 needs an even extent). Y is a GM buffer the lanes write; the group
// returns nothing, as only lane 0 may return a value.

func.func @scaled_matmul_aic(%x: !pto.tensor<?x64xf32>, %w: !pto.tensor<64x64xf16>,
                             %y: !pto.tensor<?x64xf32>, %m0: index)
    attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  pto.system.aic_initialize_pipe 0 both slot_num 2 slot_size 16384
  %w1 = pto.tile.load %w[%c0, %c0] : !pto.tensor<64x64xf16> -> !pto.tile<64x64xf16, mat>
  %wr = pto.tile.move %w1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %done = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %c2 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %a1 = pto.tile.tpop_from_aiv split 1 : !pto.tile<64x64xf16, mat>
    %al = pto.tile.move %a1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, left>
    %c = pto.tile.matmul %al, %wr
        : !pto.tile<64x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<64x64xf32, acc>
    pto.tile.tpush_to_aiv %c split 1 : !pto.tile<64x64xf32, acc>
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}

func.func @scaled_matmul_aiv(%x: !pto.tensor<?x64xf32>, %w: !pto.tensor<64x64xf16>,
                             %y: !pto.tensor<?x64xf32>, %m0: index)
    attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %scale = arith.constant 5.000000e-01 : f32
  pto.system.aiv_initialize_pipe 0 both slot_num 2 slot_size 16384
  %lane = pto.tile.get_subblock_idx
  %lane_rows = arith.muli %lane, %c32 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %done = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %c2 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %blk = arith.muli %j, %c64 : index
    %base = arith.addi %m0, %blk : index
    %row = arith.addi %base, %lane_rows : index
    %t = pto.tile.load %x[%row, %c0] : !pto.tensor<?x64xf32> -> !pto.tile<32x64xf32, vec>
    %scaled = pto.tile.muls %t, %scale : !pto.tile<32x64xf32, vec>, f32
    %h = pto.tile.cast %scaled round rint : !pto.tile<32x64xf32, vec> -> !pto.tile<32x64xf16, vec>
    pto.tile.tpush_to_aic %h split 1 : !pto.tile<32x64xf16, vec>
    %r = pto.tile.tpop_from_aic split 1 : !pto.tile<32x64xf32, vec>
    %act = pto.tile.relu %r : !pto.tile<32x64xf32, vec>
    %stored = pto.tile.store %act, %y[%row, %c0] : !pto.tile<32x64xf32, vec> -> !pto.tensor<?x64xf32>
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}

func.func @scaled_matmul(%x: !pto.tensor<?x64xf32>, %w: !pto.tensor<64x64xf16>,
                         %y: !pto.tensor<?x64xf32>, %m0: index)
    attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}

func.func @main(%x: !pto.tensor<?x64xf32>, %w: !pto.tensor<64x64xf16>,
                %y: !pto.tensor<?x64xf32>) -> !pto.tensor<?x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 128 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x64xf32>
  scf.for %m0 = %c0 to %m step %c64 {
    func.call @scaled_matmul(%x, %w, %y, %m0)
        : (!pto.tensor<?x64xf32>, !pto.tensor<64x64xf16>, !pto.tensor<?x64xf32>, index) -> ()
  }
  return %y : !pto.tensor<?x64xf32>
}
