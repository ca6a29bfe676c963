// Values named like C++ keywords, like the emitter's own `v<N>`, and the
// same name in two regions: the C++ names stay valid and distinct.
func.func @tricky(%int: !pto.tensor<64x32xf32>, %v3: !pto.tensor<64x32xf32>, %half: !pto.tensor<64x32xf16>, %flag: i1) -> !pto.tensor<64x32xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  scf.for %for = %c0 to %c4 step %c1 {
    %row = arith.muli %for, %c16 : index
    %t = pto.tile.load %int[%row, %c0] : !pto.tensor<64x32xf32> -> !pto.tile<16x32xf32, vec>
    scf.if %flag {
      %a = pto.tile.exp %t : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec>
      %s = pto.tile.store %a, %v3[%row, %c0] : !pto.tile<16x32xf32, vec> -> !pto.tensor<64x32xf32>
    } else {
      %a = pto.tile.cast %t : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf16, vec>
      %s = pto.tile.store %a, %half[%row, %c0] : !pto.tile<16x32xf16, vec> -> !pto.tensor<64x32xf16>
    }
  }
  return %v3 : !pto.tensor<64x32xf32>
}
