// Two phases: each item of the first doubles 16 rows of x into t; each item
// of the second adds to 16 rows of x the 16 rows of t that mirror them
// (rows m - 16 - row on), which another item of the first phase wrote. The
// rows of x are a multiple of 16.

func.func @double(%x: !pto.tensor<?x128xf32>, %t: !pto.tensor<?x128xf32>,
                  %row: index) -> !pto.tensor<?x128xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%row, %c0] : !pto.tensor<?x128xf32> -> !pto.tile<16x128xf32, vec>
  %d = pto.tile.add %a, %a : !pto.tile<16x128xf32, vec>
  %o = pto.tile.store %d, %t[%row, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<?x128xf32>
  return %o : !pto.tensor<?x128xf32>
}

func.func @mirror_add(%x: !pto.tensor<?x128xf32>, %t: !pto.tensor<?x128xf32>,
                      %y: !pto.tensor<?x128xf32>, %row: index, %from: index)
    -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %t[%from, %c0] : !pto.tensor<?x128xf32> -> !pto.tile<16x128xf32, vec>
  %b = pto.tile.load %x[%row, %c0] : !pto.tensor<?x128xf32> -> !pto.tile<16x128xf32, vec>
  %s = pto.tile.add %a, %b : !pto.tile<16x128xf32, vec>
  %o = pto.tile.store %s, %y[%row, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<?x128xf32>
  return %o : !pto.tensor<?x128xf32>
}

func.func @twice(%x: !pto.tensor<?x128xf32>, %t: !pto.tensor<?x128xf32>,
                 %y: !pto.tensor<?x128xf32>) -> !pto.tensor<?x128xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %m = pto.tensor.dim %x, 0 : !pto.tensor<?x128xf32>
  %doubled = scf.for %row = %c0 to %m step %c16
      iter_args(%tt = %t) -> (!pto.tensor<?x128xf32>) {
    %n = func.call @double(%x, %tt, %row)
        : (!pto.tensor<?x128xf32>, !pto.tensor<?x128xf32>, index) -> !pto.tensor<?x128xf32>
    scf.yield %n : !pto.tensor<?x128xf32>
  }
  %last = arith.subi %m, %c16 : index
  %sum = scf.for %row = %c0 to %m step %c16
      iter_args(%yy = %y) -> (!pto.tensor<?x128xf32>) {
    %from = arith.subi %last, %row : index
    %n = func.call @mirror_add(%x, %doubled, %yy, %row, %from)
        : (!pto.tensor<?x128xf32>, !pto.tensor<?x128xf32>, !pto.tensor<?x128xf32>, index, index) -> !pto.tensor<?x128xf32>
    scf.yield %n : !pto.tensor<?x128xf32>
  }
  return %sum : !pto.tensor<?x128xf32>
}
