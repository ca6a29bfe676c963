// One op of each family the trace emitter records, in one in-core function
// (test/Timing/trace-records.test checks each record).
func.func @families(%x: !pto.tensor<16x32xf32>, %h: !pto.tensor<16x32xf16>,
                    %w: !pto.tensor<32x32xf16>, %y: !pto.tensor<16x32xf32>,
                    %z: !pto.tensor<16x32xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %s = arith.constant 2.0 : f32
  %t = pto.tile.load %x[%c0, %c0] : !pto.tensor<16x32xf32> -> !pto.tile<16x32xf32, vec>
  pto.system.sync_src mte2 -> v, event 1
  pto.system.sync_dst mte2 -> v, event 1
  %e = pto.tile.exp %t : !pto.tile<16x32xf32, vec>
  %m = pto.tile.muls %e, %s : !pto.tile<16x32xf32, vec>, f32
  %a = pto.tile.add %m, %t : !pto.tile<16x32xf32, vec>
  %r = pto.tile.row_sum %a : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
  %d = pto.tile.row_expand_div %a, %r : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
  pto.system.bar_v
  %o = pto.tile.store %d, %y[%c0, %c0] : !pto.tile<16x32xf32, vec> -> !pto.tensor<16x32xf32>
  %a1 = pto.tile.load %h[%c0, %c0] : !pto.tensor<16x32xf16> -> !pto.tile<16x32xf16, mat>
  %b1 = pto.tile.load %w[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %a0 = pto.tile.move %a1 : !pto.tile<16x32xf16, mat> -> !pto.tile<16x32xf16, left>
  %b0 = pto.tile.move %b1 : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %c = pto.tile.matmul %a0, %b0 : !pto.tile<16x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<16x32xf32, acc>
  %c2 = pto.tile.matmul_acc %c, %a0, %b0 : !pto.tile<16x32xf32, acc>, !pto.tile<16x32xf16, left>, !pto.tile<32x32xf16, right>
  pto.system.bar_m
  pto.system.bar_all
  %o2 = pto.tile.store %c2, %z[%c0, %c0] : !pto.tile<16x32xf32, acc> -> !pto.tensor<16x32xf32>
  return
}
