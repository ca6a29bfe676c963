// Tiles passed to helper functions: a helper that calls another, one
// returning two tiles, a call inside a loop. The kernel is named `main`,
// which C++ reserves (the emitted function is `main_`).
func.func private @scale(%t: !pto.tile<8x64xf32, vec>, %s: f32) -> !pto.tile<8x64xf32, vec> {
  %r = pto.tile.muls %t, %s : !pto.tile<8x64xf32, vec>, f32
  return %r : !pto.tile<8x64xf32, vec>
}
func.func private @split(%t: !pto.tile<8x64xf32, vec>) -> (!pto.tile<8x64xf32, vec>, !pto.tile<8x64xf32, vec>) {
  %half = arith.constant 0.5 : f32
  %a = func.call @scale(%t, %half) : (!pto.tile<8x64xf32, vec>, f32) -> !pto.tile<8x64xf32, vec>
  %b = pto.tile.relu %t : !pto.tile<8x64xf32, vec>
  return %a, %b : !pto.tile<8x64xf32, vec>, !pto.tile<8x64xf32, vec>
}
func.func @main(%x: !pto.tensor<32x64xf32>, %y: !pto.tensor<32x64xf32>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.for %r = %c0 to %c32 step %c8 {
    %t = pto.tile.load %x[%r, %c0] : !pto.tensor<32x64xf32> -> !pto.tile<8x64xf32, vec>
    %a, %b = func.call @split(%t) : (!pto.tile<8x64xf32, vec>) -> (!pto.tile<8x64xf32, vec>, !pto.tile<8x64xf32, vec>)
    %s = pto.tile.add %a, %b : !pto.tile<8x64xf32, vec>
    pto.tile.store %s, %y[%r, %c0] : !pto.tile<8x64xf32, vec> -> !pto.tensor<32x64xf32>
  }
  return
}
