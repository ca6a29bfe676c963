// A scratch tensor whose row count is an element of GM: the host does not
// have it before it launches, so the orchestration stays a host loop.
func.func @main(%count: !pto.tensor<1xi32>, %g: !pto.tensor<?x45xf32>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %e = pto.tensor.read %count[%c0] : !pto.tensor<1xi32>
  %n = arith.index_cast %e : i32 to index
  %f = pto.tensor.full %two [%n] : f32 -> !pto.tensor<?x45xf32>
  %g1 = pto.tensor.assemble %f into %g[%c0, %c0] : !pto.tensor<?x45xf32> into !pto.tensor<?x45xf32>
  return
}
