// An orchestration that steers by data on the device: it counts the rows
// of x whose first element is positive into n (element writes), reads the
// count back (pto.tensor.read) and scales that many rows, 16 at a time,
// by the last row's first element (read too).
func.func @scale(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>,
                 %r0: index, %rv: index, %s: f32) -> !pto.tensor<?x64xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = pto.tile.load %x[%r0, %c0] valid [%rv, %c64] : !pto.tensor<?x64xf32> -> !pto.tile<16x64xf32, vec>
  %m = pto.tile.muls %t, %s : !pto.tile<16x64xf32, vec>, f32
  %o = pto.tile.store %m, %y[%r0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  return %o : !pto.tensor<?x64xf32>
}

func.func @main(%x: !pto.tensor<?x64xf32>, %y: !pto.tensor<?x64xf32>,
                %n: !pto.tensor<1xi32>) -> !pto.tensor<?x64xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %none = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %rows = pto.tensor.dim %x, 0 : !pto.tensor<?x64xf32>
  %n0 = pto.tensor.write %none, %n[%c0] : !pto.tensor<1xi32>
  scf.for %i = %c0 to %rows step %c1 {
    %v = pto.tensor.read %x[%i, %c0] : !pto.tensor<?x64xf32>
    %pos = arith.cmpf ogt, %v, %zero : f32
    scf.if %pos {
      %k = pto.tensor.read %n[%c0] : !pto.tensor<1xi32>
      %k1 = arith.addi %k, %one : i32
      %n1 = pto.tensor.write %k1, %n[%c0] : !pto.tensor<1xi32>
    }
  }
  %count = pto.tensor.read %n[%c0] : !pto.tensor<1xi32>
  %m = arith.index_cast %count : i32 to index
  %last = arith.subi %rows, %c1 : index
  %s = pto.tensor.read %x[%last, %c0] : !pto.tensor<?x64xf32>
  scf.for %r0 = %c0 to %m step %c16 {
    %left = arith.subi %m, %r0 : index
    %rv = arith.minui %left, %c16 : index
    %done = func.call @scale(%x, %y, %r0, %rv, %s)
        : (!pto.tensor<?x64xf32>, !pto.tensor<?x64xf32>, index, index, f32) -> !pto.tensor<?x64xf32>
  }
  return %y : !pto.tensor<?x64xf32>
}
