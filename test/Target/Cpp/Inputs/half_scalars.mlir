// f16 scalars: a finite one and an infinity.
func.func @half_scalars(%x: !pto.tensor<16xf16>, %y: !pto.tensor<16xf16>) -> !pto.tensor<16xf16>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %s = arith.constant 1.5 : f16
  %inf = arith.constant 0x7C00 : f16
  %t = pto.tile.load %x[%c0] : !pto.tensor<16xf16> -> !pto.tile<16xf16, vec>
  %u = pto.tile.adds %t, %s : !pto.tile<16xf16, vec>, f16 -> !pto.tile<16xf16, vec>
  %v = pto.tile.mins %u, %inf : !pto.tile<16xf16, vec>, f16 -> !pto.tile<16xf16, vec>
  %o = pto.tile.store %v, %y[%c0] : !pto.tile<16xf16, vec> -> !pto.tensor<16xf16>
  return %o : !pto.tensor<16xf16>
}

// An f16 scalar argument: a `half` parameter.
func.func @half_argument(%x: !pto.tensor<16xf16>, %y: !pto.tensor<16xf16>, %s: f16) -> !pto.tensor<16xf16>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %t = pto.tile.load %x[%c0] : !pto.tensor<16xf16> -> !pto.tile<16xf16, vec>
  %u = pto.tile.muls %t, %s : !pto.tile<16xf16, vec>, f16 -> !pto.tile<16xf16, vec>
  %o = pto.tile.store %u, %y[%c0] : !pto.tile<16xf16, vec> -> !pto.tensor<16xf16>
  return %o : !pto.tensor<16xf16>
}

// A bf16 constant: converted from a float (bfloat16_t takes no immediate).
func.func @bf16_scalar(%x: !pto.tensor<16xbf16>, %y: !pto.tensor<16xbf16>) -> !pto.tensor<16xbf16>
    attributes {pto.kind = #pto.kind<aiv>} {
  %c0 = arith.constant 0 : index
  %s = arith.constant 1.5 : bf16
  %t = pto.tile.load %x[%c0] : !pto.tensor<16xbf16> -> !pto.tile<16xbf16, vec>
  %u = pto.tile.muls %t, %s : !pto.tile<16xbf16, vec>, bf16 -> !pto.tile<16xbf16, vec>
  %o = pto.tile.store %u, %y[%c0] : !pto.tile<16xbf16, vec> -> !pto.tensor<16xbf16>
  return %o : !pto.tensor<16xbf16>
}
