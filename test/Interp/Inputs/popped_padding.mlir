// The cube pushes a product with 2 valid rows of 16; the vector core pops
// it and either stores its valid rows (defined) or widens its valid shape
// over the padding first, reading what the slot held: undefined data.
func.func @padding_aic(%x: !pto.tensor<16x16xf16>, %eye: !pto.tensor<16x16xf16>, %y: !pto.tensor<16x16xf32>, %widen: i1) attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %a = pto.tile.load %x[%c0, %c0] valid [%c2, %c16] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %al = pto.tile.move %a : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, left>
  %b = pto.tile.load %eye[%c0, %c0] : !pto.tensor<16x16xf16> -> !pto.tile<16x16xf16, mat>
  %br = pto.tile.move %b : !pto.tile<16x16xf16, mat> -> !pto.tile<16x16xf16, right>
  %p = pto.tile.matmul %al, %br : !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right> -> !pto.tile<16x16xf32, acc>
  pto.tile.tpush_to_aiv %p split 0 : !pto.tile<16x16xf32, acc>
  return
}
func.func @padding_aiv(%x: !pto.tensor<16x16xf16>, %eye: !pto.tensor<16x16xf16>, %y: !pto.tensor<16x16xf32>, %widen: i1) attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %t = pto.tile.tpop_from_aic split 0 : !pto.tile<16x16xf32, vec>
  scf.if %widen {
    %w = pto.tile.set_validshape %t[%c16, %c16] : !pto.tile<16x16xf32, vec>
    %o = pto.tile.store %w, %y[%c0, %c0] : !pto.tile<16x16xf32, vec> -> !pto.tensor<16x16xf32>
  } else {
    %o = pto.tile.store %t, %y[%c0, %c0] : !pto.tile<16x16xf32, vec> -> !pto.tensor<16x16xf32>
  }
  return
}
func.func @padding(%x: !pto.tensor<16x16xf16>, %eye: !pto.tensor<16x16xf16>, %y: !pto.tensor<16x16xf32>, %widen: i1) attributes {pto.kind = #pto.kind<group>} {
  return
}
func.func @run_padding(%x: !pto.tensor<16x16xf16>, %eye: !pto.tensor<16x16xf16>, %y: !pto.tensor<16x16xf32>, %widen: i1) attributes {pto.kind = #pto.kind<orchestration>} {
  call @padding(%x, %eye, %y, %widen) : (!pto.tensor<16x16xf16>, !pto.tensor<16x16xf16>, !pto.tensor<16x16xf32>, i1) -> ()
  return
}
