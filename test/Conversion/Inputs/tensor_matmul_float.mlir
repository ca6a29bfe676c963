// Matmuls of whole float tensors in an orchestration: each becomes launches
// of a generated cube kernel (a band of 16 rows a call, K in steps of one
// tile accumulating in L0C). The executor adds each element's products in
// K order whatever the shapes, so the kernel's sums are its sums, bit for
// bit.
//   q = p @ r   f16 [37, 600] x [600, 100] -> f32: K in steps of 256 (the
//               last ragged), a ragged band and ragged columns
//   z = u @ v   batched f16 [2, 20, 72] x [2, 72, 64] -> f32
//   t = g @ h   int8 [24, 1100] x [1100, 40] -> i32: K in steps of 512
func.func @mm(%p: !pto.tensor<37x600xf16>, %r: !pto.tensor<600x100xf16>,
              %u: !pto.tensor<2x20x72xf16>, %v: !pto.tensor<2x72x64xf16>,
              %g: !pto.tensor<24x1100xi8>, %h: !pto.tensor<1100x40xi8>,
              %q: !pto.tensor<37x100xf32>, %z: !pto.tensor<2x20x64xf32>,
              %t: !pto.tensor<24x40xi32>)
    -> (!pto.tensor<37x100xf32>, !pto.tensor<2x20x64xf32>,
        !pto.tensor<24x40xi32>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %mq = pto.tensor.matmul %p, %r : !pto.tensor<37x600xf16>, !pto.tensor<600x100xf16> -> !pto.tensor<37x100xf32>
  %q1 = pto.tensor.assemble %mq into %q[%c0, %c0] : !pto.tensor<37x100xf32> into !pto.tensor<37x100xf32>
  %mz = pto.tensor.matmul %u, %v : !pto.tensor<2x20x72xf16>, !pto.tensor<2x72x64xf16> -> !pto.tensor<2x20x64xf32>
  %z1 = pto.tensor.assemble %mz into %z[%c0, %c0, %c0] : !pto.tensor<2x20x64xf32> into !pto.tensor<2x20x64xf32>
  %mt = pto.tensor.matmul %g, %h : !pto.tensor<24x1100xi8>, !pto.tensor<1100x40xi8> -> !pto.tensor<24x40xi32>
  %t1 = pto.tensor.assemble %mt into %t[%c0, %c0] : !pto.tensor<24x40xi32> into !pto.tensor<24x40xi32>
  return %q1, %z1, %t1 : !pto.tensor<37x100xf32>, !pto.tensor<2x20x64xf32>, !pto.tensor<24x40xi32>
}
