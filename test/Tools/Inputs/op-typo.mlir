// An op name with a typo (op-names.test).
func.func @f(%t: !pto.tile<16x16xf32, vec>) -> !pto.tile<16x16xf32, vec>
    attributes {pto.kind = #pto.kind<incore>} {
  %a = pto.tile.sigmod %t : !pto.tile<16x16xf32, vec>
  return %a : !pto.tile<16x16xf32, vec>
}
