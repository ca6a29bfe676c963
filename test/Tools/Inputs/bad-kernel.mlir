// A matmul placed on a vector core: `tilekit check` must reject it.
func.func @bad(%a: !pto.tile<16x16xf16, left>, %b: !pto.tile<16x16xf16, right>)
    attributes {pto.kind = #pto.kind<aiv>} {
  // The error names this op and its location.

  %c = pto.tile.matmul %a, %b : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  return
}
