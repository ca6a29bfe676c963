// Rows in tiles of 16 over 37 rows: the last tile has 5 valid rows.
func.func @ragged(%x: !pto.tensor<37x64xf32>, %y: !pto.tensor<37x64xf32>) -> !pto.tensor<37x64xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c37 = arith.constant 37 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %r = scf.for %row = %c0 to %c37 step %c16 iter_args(%out = %y) -> (!pto.tensor<37x64xf32>) {
    %left = arith.subi %c37, %row : index
    %rows = arith.minui %left, %c16 : index
    %t = pto.tile.load %x[%row, %c0] valid [%rows, %c64] : !pto.tensor<37x64xf32> -> !pto.tile<16x64xf32, vec>
    %e = pto.tile.exp %t : !pto.tile<16x64xf32, vec>
    %m = pto.tile.muls %e, %two : !pto.tile<16x64xf32, vec>, f32 -> !pto.tile<16x64xf32, vec>
    %s = pto.tile.store %m, %out[%row, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<37x64xf32>
    scf.yield %s : !pto.tensor<37x64xf32>
  }
  return %r : !pto.tensor<37x64xf32>
}
