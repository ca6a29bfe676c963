// A cube kernel that also writes an element of GM (pto.tensor.write, scalar
// work: no record in either producer).
func.func @k(%a: !pto.tensor<16x16xf16>, %b: !pto.tensor<16x16xf16>, %c: !pto.tensor<16x16xf32>, %flag: !pto.tensor<1xi32>) {
  %c0 = arith.constant 0 : index
  %ta = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %tb = pto.tile.load %b[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %l = pto.tile.move %ta : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
  %r = pto.tile.move %tb : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
  %p = pto.tile.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  %o = pto.tile.store %p, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  %one = arith.constant 1 : i32
  %f = pto.tensor.write %one, %flag[%c0] : !pto.tensor<1xi32>
  return
}
