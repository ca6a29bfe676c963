// Carried tiles that trade places every trip (after an even number of
// trips each is back home: y = 1 - 2).
func.func @swap(%y: !pto.tensor<4x8xf32>) -> !pto.tensor<4x8xf32>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %g = arith.constant 2.0 : f32
  %x0 = pto.tile.full %f : f32 -> !pto.tile<4x8xf32, vec>
  %y0 = pto.tile.full %g : f32 -> !pto.tile<4x8xf32, vec>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x0, %b = %y0) -> (!pto.tile<4x8xf32, vec>, !pto.tile<4x8xf32, vec>) {
    scf.yield %b, %a : !pto.tile<4x8xf32, vec>, !pto.tile<4x8xf32, vec>
  }
  %s = pto.tile.sub %r#0, %r#1 : !pto.tile<4x8xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<4x8xf32, vec> -> !pto.tensor<4x8xf32>
  return %o : !pto.tensor<4x8xf32>
}
