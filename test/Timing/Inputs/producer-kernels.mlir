// Kernels for the compiled trace producer (trace-producer.test).

// A value read from a tile only scales tile data: the producer drops it
// (it needs no data) and writes the interpreter's records.
func.func @scale_by_first(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x64xf32>
  scf.for %r = %c0 to %rows step %c16 {
    %left = arith.subi %rows, %r : index
    %rv = arith.minui %left, %c16 : index
    %t = pto.tile.load %x[%r, %c0] valid [%rv, %c64]
        : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
    %first = pto.tile.read %t[%c0, %c0] : !pto.tile<16x64xf32, vec>
    %twice = arith.addf %first, %first : f32
    %s = pto.tile.muls %t, %twice : !pto.tile<16x64xf32, vec>, f32
    %o = pto.tile.store %s, %y[%r, %c0]
        : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  }
  return
}

// The trip count comes from tile data: refused at the loop.
func.func @data_loop(%x: !pto.tensor<16x64xf32>, %y: !pto.tensor<16x64xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %first = pto.tile.read %t[%c0, %c0] : !pto.tile<16x64xf32, vec>
  %count = arith.fptosi %first : f32 to i32
  %n = arith.index_cast %count : i32 to index
  scf.for %i = %c0 to %n step %c1 {
    %o = pto.tile.store %t, %y[%c0, %c0]
        : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  }
  return
}

// A branch on tile data: refused at the branch.
func.func @data_branch(%x: !pto.tensor<16x64xf32>, %y: !pto.tensor<16x64xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %first = pto.tile.read %t[%c0, %c0] : !pto.tile<16x64xf32, vec>
  %positive = arith.cmpf ogt, %first, %zero : f32
  scf.if %positive {
    %o = pto.tile.store %t, %y[%c0, %c0]
        : !pto.tile<16x64xf32, vec> -> !pto.tensor<16x64xf32>
  }
  return
}

// A load past the end of its tensor at the shapes given: a fault of the
// run, reported with the op's location.
func.func @past_end(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>, %at: index)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%at, %c0] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  %o = pto.tile.store %t, %y[%c0, %c0]
      : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  return
}

// Index arithmetic with the integer ops MLIR's EmitC conversion has no
// rule for (unsigned division and remainder, ceiling and floor division,
// unsigned min and max): each tile's row and valid rows come from them.
func.func @index_arith(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x64xf32>
  %tiles = arith.ceildivui %rows, %c16 : index
  %tiles_s = arith.ceildivsi %rows, %c16 : index
  %same = arith.maxui %tiles, %tiles_s : index
  scf.for %i = %c0 to %same step %c1 {
    // Tiles in the order 0, 3, 6, ..., 1, 4, ...: i -> (i % 3) * ceil + i / 3
    // for a count that 3 divides, else in order.
    %per = arith.ceildivui %same, %c3 : index
    %lane = arith.remui %i, %c3 : index
    %step = arith.divui %i, %c3 : index
    %spread = arith.muli %lane, %per : index
    %slot = arith.addi %spread, %step : index
    %whole = arith.floordivsi %same, %c3 : index
    %exact = arith.muli %whole, %c3 : index
    %divides = arith.cmpi eq, %exact, %same : index
    %tile = arith.select %divides, %slot, %i : index
    %r = arith.muli %tile, %c16 : index
    %left = arith.subi %rows, %r : index
    %rv = arith.minsi %left, %c16 : index
    %t = pto.tile.load %x[%r, %c0] valid [%rv, %c64]
        : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
    %e = pto.tile.exp %t : !pto.tile<16x64xf32, vec>
    %o = pto.tile.store %e, %y[%r, %c0]
        : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  }
  return
}
