// --threads N runs in-core calls whose GM accesses do not conflict at once,
// and must give what one thread gives, bit for bit: independent ragged row
// tiles, a chain of calls updating one box (float sums, so any reordering
// would show in the bits), calls meeting through views of one buffer with
// different shapes, offsets read from tile data (no footprint: run
// inline), a launch of blocks, and an error in the middle of a run.
//
// RUN: %python -c "import numpy as np; r = np.random.default_rng(7); np.save('%t.x.npy', r.standard_normal((37, 8)).astype(np.float32)); np.save('%t.idx.npy', np.array([[3, 0, 5, 1, 4, 2, 7, 6]], dtype=np.int32))"
// RUN: for t in 1 3; do \
// RUN:   tilekit run %s --entry rows --threads $t --input x=%t.x.npy --input y=zeros:37x8:f32 --output y=%t.rows.$t.npy && \
// RUN:   tilekit run %s --entry chain --threads $t --input x=%t.x.npy --input y=zeros:4x8:f32 --output y=%t.chain.$t.npy && \
// RUN:   tilekit run %s --entry viewed --threads $t --input x=%t.x.npy --input y=zeros:8x8:f32 --input z=zeros:8x8:f32 --output z=%t.viewed.$t.npy && \
// RUN:   tilekit run %s --entry gathered --threads $t --input x=%t.x.npy --input idx=%t.idx.npy --input y=zeros:32x8:f32 --output y=%t.gathered.$t.npy && \
// RUN:   tilekit run %s --entry block_rows --blocks 10 --threads $t --input x=%t.x.npy --input y=zeros:37x8:f32 --output y=%t.blocks.$t.npy && \
// RUN:   not tilekit run %s --entry past_end --threads $t --input x=%t.x.npy --input y=zeros:37x8:f32 2> %t.error.$t.txt; \
// RUN: done
// RUN: cmp %t.rows.1.npy %t.rows.3.npy
// RUN: cmp %t.chain.1.npy %t.chain.3.npy
// RUN: cmp %t.viewed.1.npy %t.viewed.3.npy
// RUN: cmp %t.gathered.1.npy %t.gathered.3.npy
// RUN: cmp %t.blocks.1.npy %t.blocks.3.npy
// RUN: cmp %t.rows.1.npy %t.blocks.1.npy
// RUN: diff %t.error.1.txt %t.error.3.txt
// RUN: FileCheck %s --check-prefix=ERROR < %t.error.3.txt
// The values themselves, against NumPy.
// RUN: %python %S/Inputs/check_threads.py %t

// The first failing call in program order, and nothing after it.
// ERROR: threads.mlir:[[# @LINE + 10]]:8: error: 'pto.tile.load' op offset [40, 0] is outside the tensor of shape [37, 8]
// ERROR: error: 'func.call' op failed in its call of '@row_tile'
// ERROR-NOT: error

// y[row:row+rows] = exp(x[row:row+rows]) * 2
func.func @row_tile(%x: !pto.tensor<37x8xf32>, %y: !pto.tensor<37x8xf32>,
                    %row: index, %rows: index) -> !pto.tensor<37x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = pto.tile.load %x[%row, %c0] valid [%rows, %c8]
      : !pto.tensor<37x8xf32> -> !pto.tile<4x8xf32, vec>
  %e = pto.tile.exp %t : !pto.tile<4x8xf32, vec>
  %d = pto.tile.add %e, %e : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %d, %y[%row, %c0]
      : !pto.tile<4x8xf32, vec> -> !pto.tensor<37x8xf32>
  return %o : !pto.tensor<37x8xf32>
}

func.func @rows(%x: !pto.tensor<37x8xf32>, %y: !pto.tensor<37x8xf32>)
    -> !pto.tensor<37x8xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c37 = arith.constant 37 : index
  %r = scf.for %row = %c0 to %c37 step %c4 iter_args(%out = %y)
      -> (!pto.tensor<37x8xf32>) {
    %left = arith.subi %c37, %row : index
    %rows = arith.minui %left, %c4 : index
    %next = func.call @row_tile(%x, %out, %row, %rows)
        : (!pto.tensor<37x8xf32>, !pto.tensor<37x8xf32>, index, index)
        -> !pto.tensor<37x8xf32>
    scf.yield %next : !pto.tensor<37x8xf32>
  }
  return %r : !pto.tensor<37x8xf32>
}

// y = y * 0.5 + x[row:row+4]: every call reads and writes all of y.
func.func @accumulate(%x: !pto.tensor<37x8xf32>, %y: !pto.tensor<4x8xf32>,
                      %row: index) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %t = pto.tile.load %x[%row, %c0] : !pto.tensor<37x8xf32> -> !pto.tile<4x8xf32, vec>
  %a = pto.tile.load %y[%c0, %c0] : !pto.tensor<4x8xf32> -> !pto.tile<4x8xf32, vec>
  %h = pto.tile.muls %a, %half : !pto.tile<4x8xf32, vec>, f32
  %s = pto.tile.add %h, %t : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}

func.func @chain(%x: !pto.tensor<37x8xf32>, %y: !pto.tensor<4x8xf32>)
    -> !pto.tensor<4x8xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c34 = arith.constant 34 : index
  %r = scf.for %pass = %c0 to %c16 step %c1 iter_args(%acc = %y)
      -> (!pto.tensor<4x8xf32>) {
    %p = scf.for %row = %c0 to %c34 step %c1 iter_args(%out = %acc)
        -> (!pto.tensor<4x8xf32>) {
      %next = func.call @accumulate(%x, %out, %row)
          : (!pto.tensor<37x8xf32>, !pto.tensor<4x8xf32>, index) -> !pto.tensor<4x8xf32>
      scf.yield %next : !pto.tensor<4x8xf32>
    }
    scf.yield %p : !pto.tensor<4x8xf32>
  }
  return %r : !pto.tensor<4x8xf32>
}

// Writes row `row` of a 4x16 view of y (rows 2row and 2row+1 of y).
func.func @write_wide(%x: !pto.tensor<37x8xf32>, %v: !pto.tensor<4x16xf32>,
                      %row: index) -> !pto.tensor<4x16xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%row, %c0] : !pto.tensor<37x8xf32> -> !pto.tile<1x8xf32, vec>
  %e = pto.tile.exp %t : !pto.tile<1x8xf32, vec>
  %o = pto.tile.store %e, %v[%row, %c0] : !pto.tile<1x8xf32, vec> -> !pto.tensor<4x16xf32>
  %c8 = arith.constant 8 : index
  %p = pto.tile.store %t, %v[%row, %c8] : !pto.tile<1x8xf32, vec> -> !pto.tensor<4x16xf32>
  return %p : !pto.tensor<4x16xf32>
}

// z[r] = y[r] + 1 for rows r, r+1 of the 8x8 shape.
func.func @read_narrow(%y: !pto.tensor<8x8xf32>, %z: !pto.tensor<8x8xf32>,
                       %row: index) -> !pto.tensor<8x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %t = pto.tile.load %y[%row, %c0] : !pto.tensor<8x8xf32> -> !pto.tile<2x8xf32, vec>
  %a = pto.tile.adds %t, %one : !pto.tile<2x8xf32, vec>, f32
  %o = pto.tile.store %a, %z[%row, %c0] : !pto.tile<2x8xf32, vec> -> !pto.tensor<8x8xf32>
  return %o : !pto.tensor<8x8xf32>
}

func.func @viewed(%x: !pto.tensor<37x8xf32>, %y: !pto.tensor<8x8xf32>,
                  %z: !pto.tensor<8x8xf32>) -> !pto.tensor<8x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %v = pto.tensor.view %y : !pto.tensor<8x8xf32> -> !pto.tensor<4x16xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%out = %z)
      -> (!pto.tensor<8x8xf32>) {
    %w = func.call @write_wide(%x, %v, %i)
        : (!pto.tensor<37x8xf32>, !pto.tensor<4x16xf32>, index) -> !pto.tensor<4x16xf32>
    %row = arith.muli %i, %c2 : index
    %next = func.call @read_narrow(%y, %out, %row)
        : (!pto.tensor<8x8xf32>, !pto.tensor<8x8xf32>, index) -> !pto.tensor<8x8xf32>
    scf.yield %next : !pto.tensor<8x8xf32>
  }
  return %r : !pto.tensor<8x8xf32>
}

// y[4i:4i+4] = x[idx[i]*4 : idx[i]*4+4]: the load's offset is tile data.
func.func @gather_rows(%x: !pto.tensor<37x8xf32>, %idx: !pto.tensor<1x8xi32>,
                       %y: !pto.tensor<32x8xf32>, %i: index) -> !pto.tensor<32x8xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %it = pto.tile.load %idx[%c0, %c0] : !pto.tensor<1x8xi32> -> !pto.tile<1x8xi32, vec>
  %k = pto.tile.read %it[%c0, %i] : !pto.tile<1x8xi32, vec>
  %ki = arith.index_cast %k : i32 to index
  %src = arith.muli %ki, %c4 : index
  %dst = arith.muli %i, %c4 : index
  %t = pto.tile.load %x[%src, %c0] : !pto.tensor<37x8xf32> -> !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %t, %y[%dst, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<32x8xf32>
  return %o : !pto.tensor<32x8xf32>
}

func.func @gathered(%x: !pto.tensor<37x8xf32>, %idx: !pto.tensor<1x8xi32>,
                    %y: !pto.tensor<32x8xf32>) -> !pto.tensor<32x8xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%out = %y)
      -> (!pto.tensor<32x8xf32>) {
    %next = func.call @gather_rows(%x, %idx, %out, %i)
        : (!pto.tensor<37x8xf32>, !pto.tensor<1x8xi32>, !pto.tensor<32x8xf32>, index)
        -> !pto.tensor<32x8xf32>
    scf.yield %next : !pto.tensor<32x8xf32>
  }
  return %r : !pto.tensor<32x8xf32>
}

// Block b computes rows [4b, 4b + 4) like @row_tile (the last block 1 row).
func.func @block_rows(%x: !pto.tensor<37x8xf32>, %y: !pto.tensor<37x8xf32>)
    -> !pto.tensor<37x8xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c4 = arith.constant 4 : index
  %c37 = arith.constant 37 : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %b = pto.tile.get_block_idx
  %row = arith.muli %b, %c4 : index
  %left = arith.subi %c37, %row : index
  %rows = arith.minui %left, %c4 : index
  %t = pto.tile.load %x[%row, %c0] valid [%rows, %c8]
      : !pto.tensor<37x8xf32> -> !pto.tile<4x8xf32, vec>
  %e = pto.tile.exp %t : !pto.tile<4x8xf32, vec>
  %d = pto.tile.add %e, %e : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %d, %y[%row, %c0]
      : !pto.tile<4x8xf32, vec> -> !pto.tensor<37x8xf32>
  return %o : !pto.tensor<37x8xf32>
}

// 4-row tiles every 4 rows up to row 48: the loads from row 40 on start
// past the end; the first of them is the error.
func.func @past_end(%x: !pto.tensor<37x8xf32>, %y: !pto.tensor<37x8xf32>)
    -> !pto.tensor<37x8xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c37 = arith.constant 37 : index
  %c52 = arith.constant 52 : index
  %r = scf.for %row = %c0 to %c52 step %c4 iter_args(%out = %y)
      -> (!pto.tensor<37x8xf32>) {
    %next = func.call @row_tile(%x, %out, %row, %c4)
        : (!pto.tensor<37x8xf32>, !pto.tensor<37x8xf32>, index, index)
        -> !pto.tensor<37x8xf32>
    scf.yield %next : !pto.tensor<37x8xf32>
  }
  return %r : !pto.tensor<37x8xf32>
}
