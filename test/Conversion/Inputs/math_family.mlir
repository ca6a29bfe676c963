// Ascend C's advanced math functions (Sigmoid, Tanh, Erf) on f32 and f16
// tiles, with an explicit barrier (the pipeline synchronizes the compiled
// kernel itself).
func.func @act(%x: !pto.tensor<20x64xf32>, %y: !pto.tensor<20x64xf32>, %h: !pto.tensor<20x64xf16>) attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<20x64xf32> -> !pto.tile<20x64xf32, vec>
  %s = pto.tile.sigmoid %t : !pto.tile<20x64xf32, vec> -> !pto.tile<20x64xf32, vec>
  %g = pto.tile.mul %t, %s : !pto.tile<20x64xf32, vec>, !pto.tile<20x64xf32, vec> -> !pto.tile<20x64xf32, vec>
  %th = pto.tile.tanh %g : !pto.tile<20x64xf32, vec> -> !pto.tile<20x64xf32, vec>
  %e = pto.tile.erf %th : !pto.tile<20x64xf32, vec> -> !pto.tile<20x64xf32, vec>
  pto.system.bar_v
  pto.tile.store %e, %y[%c0, %c0] : !pto.tile<20x64xf32, vec> -> !pto.tensor<20x64xf32>
  %c = pto.tile.cast %e : !pto.tile<20x64xf32, vec> -> !pto.tile<20x64xf16, vec>
  %ch = pto.tile.tanh %c : !pto.tile<20x64xf16, vec> -> !pto.tile<20x64xf16, vec>
  pto.tile.store %ch, %h[%c0, %c0] : !pto.tile<20x64xf16, vec> -> !pto.tensor<20x64xf16>
  return
}
