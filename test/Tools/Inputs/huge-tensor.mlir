// A tensor sized at run time from an argument.
func.func @make(%n: index) attributes {pto.kind = #pto.kind<orchestration>} {
  %t = pto.tensor.create[%n, %n] : !pto.tensor<?x?xf32>
  return
}
