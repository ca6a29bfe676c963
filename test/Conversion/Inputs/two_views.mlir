// Two views of the same tensor y handed to the items: the proof that items
// are independent compares offsets in one shape, so the items run on one
// core, in order, with a warning that names the second view.
func.func @rows(%x: !pto.tensor<?x128xf32>, %y: !pto.tensor<?x128xf32>, %r0: index, %rv: index)
    -> !pto.tensor<?x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %half = arith.constant 0.5 : f32
  %t = pto.tile.load %x[%r0, %c0] valid [%rv, %c128] : !pto.tensor<?x128xf32> -> !pto.tile<16x128xf32, vec>
  %s = pto.tile.muls %t, %half : !pto.tile<16x128xf32, vec>, f32
  %e = pto.tile.exp %s : !pto.tile<16x128xf32, vec>
  %out = pto.tile.store %e, %y[%r0, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<?x128xf32>
  return %out : !pto.tensor<?x128xf32>
}

func.func @main(%x: !pto.tensor<?x12x128xf32>, %y: !pto.tensor<?x12x128xf32>) -> !pto.tensor<?x12x128xf32>
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %s = pto.tensor.dim %x, 0 : !pto.tensor<?x12x128xf32>
  %rows = arith.muli %s, %c12 : index
  %xf = pto.tensor.view %x[%rows] : !pto.tensor<?x12x128xf32> -> !pto.tensor<?x128xf32>
  %yf = pto.tensor.view %y[%rows] : !pto.tensor<?x12x128xf32> -> !pto.tensor<?x128xf32>
  %yg = pto.tensor.view %y[%rows] : !pto.tensor<?x12x128xf32> -> !pto.tensor<?x128xf32>
  scf.for %r0 = %c0 to %rows step %c16 {
    %left = arith.subi %rows, %r0 : index
    %rv = arith.minui %left, %c16 : index
    %done = func.call @rows(%xf, %yf, %r0, %rv)
        : (!pto.tensor<?x128xf32>, !pto.tensor<?x128xf32>, index, index) -> !pto.tensor<?x128xf32>
    %again = func.call @rows(%xf, %yg, %r0, %rv)
        : (!pto.tensor<?x128xf32>, !pto.tensor<?x128xf32>, index, index) -> !pto.tensor<?x128xf32>
  }
  return %y : !pto.tensor<?x12x128xf32>
}
