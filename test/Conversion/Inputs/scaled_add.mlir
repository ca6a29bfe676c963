// z = relu(x * a + y) - exp(min(x, y)) over a 64 x 128 f32 matrix, 16 rows
// per tile: whole-row tiles of vector ops, for the PTO -> AscendC lowering.
func.func @scaled_add(%x: !pto.tensor<64x128xf32>, %y: !pto.tensor<64x128xf32>,
                      %z: !pto.tensor<64x128xf32>, %a: f32)
    -> !pto.tensor<64x128xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %result = scf.for %row = %c0 to %c64 step %c16
      iter_args(%out = %z) -> (!pto.tensor<64x128xf32>) {
    %tx = pto.tile.load %x[%row, %c0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
    %ty = pto.tile.load %y[%row, %c0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
    %ax = pto.tile.muls %tx, %a : !pto.tile<16x128xf32, vec>, f32 -> !pto.tile<16x128xf32, vec>
    %s = pto.tile.add %ax, %ty : !pto.tile<16x128xf32, vec>
    %r = pto.tile.relu %s : !pto.tile<16x128xf32, vec>
    %m = pto.tile.min %tx, %ty : !pto.tile<16x128xf32, vec>
    %e = pto.tile.exp %m : !pto.tile<16x128xf32, vec>
    %d = pto.tile.sub %r, %e : !pto.tile<16x128xf32, vec>
    %next = pto.tile.store %d, %out[%row, %c0] : !pto.tile<16x128xf32, vec> -> !pto.tensor<64x128xf32>
    scf.yield %next : !pto.tensor<64x128xf32>
  }
  return %result : !pto.tensor<64x128xf32>
}
