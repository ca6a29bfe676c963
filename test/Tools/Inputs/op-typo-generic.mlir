// An op name with a typo in generic form (op-names.test).
func.func @f() attributes {pto.kind = #pto.kind<incore>} {
  %c = "pto.tile.crate"() : () -> !pto.tile<16x16xf32, vec>
  return
}
