// A launch of N blocks: block i handles rows [4i, 4i + 4) through
// get_block_idx; `run` checks the numbers, `sim` spreads the blocks (work
// items) over the cores.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(96, dtype=np.float32).reshape(12, 8))"
// RUN: tilekit run %s --blocks 3 --input x=%t.x.npy --input y=zeros:12x8:f32 --print y | FileCheck %s
// RUN: tilekit sim %s --blocks 3 --input x=%t.x.npy --input y=zeros:12x8:f32 --json | FileCheck %s --check-prefix=SIM
// RUN: not tilekit run %s --blocks 0 --input x=%t.x.npy --input y=zeros:12x8:f32 2>&1 | FileCheck %s --check-prefix=ZERO

// Each block doubles its rows and adds its block count (3).
// CHECK: y: f32 [12, 8]
// CHECK-NEXT: [3, 5, 7, 9, 11, 13, 15, 17]
// CHECK: [179, 181, 183, 185, 187, 189, 191, 193]

// SIM: "active_cores": 3,
// SIM: "gm_ub": {
// SIM-NEXT: "bytes": 384,

// ZERO: tilekit run: --blocks 0: expected 1 to 1048576
func.func @scale_rows(%x: !pto.tensor<12x8xf32>, %y: !pto.tensor<12x8xf32>) -> !pto.tensor<12x8xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %block = pto.tile.get_block_idx
  %blocks = pto.tile.get_block_num
  %row = arith.muli %block, %c4 : index
  %t = pto.tile.load %x[%row, %c0] : !pto.tensor<12x8xf32> -> !pto.tile<4x8xf32, vec>
  %d = pto.tile.add %t, %t : !pto.tile<4x8xf32, vec>
  %n = arith.index_cast %blocks : index to i32
  %f = arith.sitofp %n : i32 to f32
  %e = pto.tile.adds %d, %f : !pto.tile<4x8xf32, vec>, f32
  %o = pto.tile.store %e, %y[%row, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<12x8xf32>
  return %o : !pto.tensor<12x8xf32>
}
