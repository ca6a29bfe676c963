// A kernel named like a field of the API's parameter structs (MmadParams
// has m, n and k): its C++ on the CPU still builds and runs.
func.func @k(%a: !pto.tensor<16x16xf16>, %b: !pto.tensor<16x16xf16>, %c: !pto.tensor<16x16xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %ta = pto.tile.load %a[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %tb = pto.tile.load %b[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %l = pto.tile.move %ta : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
  %r = pto.tile.move %tb : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
  %p = pto.tile.matmul %l, %r : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  pto.tile.store %p, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return
}
