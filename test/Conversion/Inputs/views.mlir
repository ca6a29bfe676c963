// A tile viewed with another shape (reshape: the same storage) and a
// valid extent read back (valid_dim: the row count the tile was loaded
// with, added to every element as a float). %x is static: a 16-row load
// from a tensor of dynamic rows may hold fewer (the load clamps), and a
// tile with fewer valid rows does not reshape.
func.func @views(%x: !pto.tensor<16x64xf32>, %y: !pto.tensor<32x32xf32>,
                 %z: !pto.tensor<?x64xf32>) -> !pto.tensor<?x64xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %w = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %v = pto.tile.reshape %w : !pto.tile<16x64xf32, vec> -> !pto.tile<32x32xf32, vec>
  %s = pto.tile.muls %v, %two : !pto.tile<32x32xf32, vec>, f32
  %ys = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<32x32xf32, vec> -> !pto.tensor<32x32xf32>
  %n = pto.tensor.dim %z, 0 : !pto.tensor<?x64xf32>
  %t = pto.tile.load %x[%c0, %c0] valid [%n, %c64] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
  %rows = pto.tile.valid_dim %t, 0 : !pto.tile<16x64xf32, vec>
  %cols = pto.tile.valid_dim %t, 1 : !pto.tile<16x64xf32, vec>
  %sum = arith.addi %rows, %cols : index
  %i = arith.index_cast %sum : index to i32
  %f = arith.sitofp %i : i32 to f32
  %u = pto.tile.adds %t, %f : !pto.tile<16x64xf32, vec>, f32
  %zs = pto.tile.store %u, %z[%c0, %c0] : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x64xf32>
  return %zs : !pto.tensor<?x64xf32>
}
