// A 2-D grid of 8x16 tiles of y = exp(x) * 2 over a ragged M x N, skipping
// the tile column given by %skip (its y stays as passed): nested loops and a
// branch around the call, for the one-launch form (ascendc-form-launch).
func.func @grid_tile(%x: !pto.tensor<?x?xf32>, %y: !pto.tensor<?x?xf32>,
                     %r: index, %c: index, %rows: index, %cols: index)
    -> !pto.tensor<?x?xf32> attributes {pto.kind = #pto.kind<incore>} {
  %t = pto.tile.load %x[%r, %c] valid [%rows, %cols]
      : !pto.tensor<?x?xf32> -> !pto.tile<8x16xf32, vec>
  %e = pto.tile.exp %t : !pto.tile<8x16xf32, vec>
  %d = pto.tile.add %e, %e : !pto.tile<8x16xf32, vec>
  %o = pto.tile.store %d, %y[%r, %c] : !pto.tile<8x16xf32, vec> -> !pto.tensor<?x?xf32>
  return %o : !pto.tensor<?x?xf32>
}

func.func @grid(%x: !pto.tensor<?x?xf32>, %y: !pto.tensor<?x?xf32>, %skip: index)
    -> !pto.tensor<?x?xf32> attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x?xf32>
  %n = pto.tensor.dim %x, 1 : !pto.tensor<?x?xf32>
  %r = scf.for %i = %c0 to %m step %c8 iter_args(%a = %y) -> (!pto.tensor<?x?xf32>) {
    %left = arith.subi %m, %i : index
    %rv = arith.minui %left, %c8 : index
    %s = scf.for %j = %c0 to %n step %c16 iter_args(%b = %a) -> (!pto.tensor<?x?xf32>) {
      %cl = arith.subi %n, %j : index
      %cv = arith.minui %cl, %c16 : index
      %go = arith.cmpi ne, %j, %skip : index
      %c = scf.if %go -> (!pto.tensor<?x?xf32>) {
        %d = func.call @grid_tile(%x, %b, %i, %j, %rv, %cv)
            : (!pto.tensor<?x?xf32>, !pto.tensor<?x?xf32>, index, index, index, index)
            -> !pto.tensor<?x?xf32>
        scf.yield %d : !pto.tensor<?x?xf32>
      } else {
        scf.yield %b : !pto.tensor<?x?xf32>
      }
      scf.yield %c : !pto.tensor<?x?xf32>
    }
    scf.yield %s : !pto.tensor<?x?xf32>
  }
  return %r : !pto.tensor<?x?xf32>
}
