// Two groups name one aiv function (`pto.aiv`): each merges a copy of it,
// and the member is erased once. Entry @run_both launches both groups.
func.func @push_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 0 : !pto.tile<32x32xf32, acc>
  return
}
func.func @push_swapped_aic(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %a = pto.tile.load %eye[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %al = pto.tile.move %a : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, left>
  %b = pto.tile.load %x[%c0, %c0] : !pto.tensor<32x32xf16> -> !pto.tile<32x32xf16, mat>
  %br = pto.tile.move %b : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<32x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<32x32xf32, acc>
  pto.tile.tpush_to_aiv %p split 0 : !pto.tile<32x32xf32, acc>
  return
}
func.func @add_aiv(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<32x32xf32, vec>
  %old = pto.tile.load %y[%c0, %c0] : !pto.tensor<32x32xf32> -> !pto.tile<32x32xf32, vec>
  %s = pto.tile.add %t, %old : !pto.tile<32x32xf32, vec>
  %o = pto.tile.store %s, %y[%c0, %c0] : !pto.tile<32x32xf32, vec> -> !pto.tensor<32x32xf32>
  return
}
func.func @once(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>) attributes {pto.kind = #pto.kind<group>, pto.aic = @push_aic, pto.aiv = @add_aiv} {
  return
}
func.func @swapped(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>) attributes {pto.kind = #pto.kind<group>, pto.aic = @push_swapped_aic, pto.aiv = @add_aiv} {
  return
}
func.func @run_both(%x: !pto.tensor<32x32xf16>, %eye: !pto.tensor<32x32xf16>, %y: !pto.tensor<32x32xf32>) attributes {pto.kind = #pto.kind<orchestration>} {
  call @once(%x, %eye, %y) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>) -> ()
  call @swapped(%x, %eye, %y) : (!pto.tensor<32x32xf16>, !pto.tensor<32x32xf16>, !pto.tensor<32x32xf32>) -> ()
  return
}
