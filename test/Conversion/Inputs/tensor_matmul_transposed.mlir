// Matmuls of whole tensors with transposed operands, or a K known at run
// time only. A transposed operand is transposed into a workspace first by
// a generated vector kernel (Ascend C's Transpose for 16-bit elements, the
// scalar unit for int8), which the cube kernel then reads as it is; a K of
// dynamic size is stepped by the widest tile, the last one ragged.
//   q = p^T @ r     f16 [600, 37]^T x [600, 100] -> f32
//   z = u @ v^T     batched f16 [2, 20, 72] x [2, 64, 72]^T -> f32
//   t = g @ h^T     int8 [24, 100] x [40, 100]^T -> i32
//   w = x^T @ y^T   bf16 [40, 24]^T x [32, 40]^T -> f32
//   d = a @ b       f16 [20, K] x [K, 48] -> f32, K = 300 at run time
// and integer matmul_acc, as the accumulator (times 0 where init holds)
// plus the product: integer sums wrap to the same bits in any order.
//   e = c + g @ h^T                     int8 -> i32
//   f = (k == 0 ? 0 : c) + g @ h^T      with init k == 0
func.func @mm(%p: !pto.tensor<600x37xf16>, %r: !pto.tensor<600x100xf16>,
              %u: !pto.tensor<2x20x72xf16>, %v: !pto.tensor<2x64x72xf16>,
              %g: !pto.tensor<24x100xi8>, %h: !pto.tensor<40x100xi8>,
              %x: !pto.tensor<40x24xbf16>, %y: !pto.tensor<32x40xbf16>,
              %a: !pto.tensor<20x?xf16>, %b: !pto.tensor<?x48xf16>,
              %q: !pto.tensor<37x100xf32>, %z: !pto.tensor<2x20x64xf32>,
              %t: !pto.tensor<24x40xi32>, %w: !pto.tensor<24x32xf32>,
              %d: !pto.tensor<20x48xf32>, %c: !pto.tensor<24x40xi32>,
              %e: !pto.tensor<24x40xi32>, %f: !pto.tensor<24x40xi32>,
              %k: index)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %mq = pto.tensor.matmul %p, %r {a_trans} : !pto.tensor<600x37xf16>, !pto.tensor<600x100xf16> -> !pto.tensor<37x100xf32>
  %q1 = pto.tensor.assemble %mq into %q[%c0, %c0] : !pto.tensor<37x100xf32> into !pto.tensor<37x100xf32>
  %mz = pto.tensor.matmul %u, %v {b_trans} : !pto.tensor<2x20x72xf16>, !pto.tensor<2x64x72xf16> -> !pto.tensor<2x20x64xf32>
  %z1 = pto.tensor.assemble %mz into %z[%c0, %c0, %c0] : !pto.tensor<2x20x64xf32> into !pto.tensor<2x20x64xf32>
  %mt = pto.tensor.matmul %g, %h {b_trans} : !pto.tensor<24x100xi8>, !pto.tensor<40x100xi8> -> !pto.tensor<24x40xi32>
  %t1 = pto.tensor.assemble %mt into %t[%c0, %c0] : !pto.tensor<24x40xi32> into !pto.tensor<24x40xi32>
  %mw = pto.tensor.matmul %x, %y {a_trans, b_trans} : !pto.tensor<40x24xbf16>, !pto.tensor<32x40xbf16> -> !pto.tensor<24x32xf32>
  %w1 = pto.tensor.assemble %mw into %w[%c0, %c0] : !pto.tensor<24x32xf32> into !pto.tensor<24x32xf32>
  %md = pto.tensor.matmul %a, %b : !pto.tensor<20x?xf16>, !pto.tensor<?x48xf16> -> !pto.tensor<20x48xf32>
  %d1 = pto.tensor.assemble %md into %d[%c0, %c0] : !pto.tensor<20x48xf32> into !pto.tensor<20x48xf32>
  %me = pto.tensor.matmul_acc %c, %g, %h {b_trans} : !pto.tensor<24x40xi32>, !pto.tensor<24x100xi8>, !pto.tensor<40x100xi8>
  %e1 = pto.tensor.assemble %me into %e[%c0, %c0] : !pto.tensor<24x40xi32> into !pto.tensor<24x40xi32>
  %first = arith.cmpi eq, %k, %c0 : index
  %mf = pto.tensor.matmul_acc %c, %g, %h init %first {b_trans} : !pto.tensor<24x40xi32>, !pto.tensor<24x100xi8>, !pto.tensor<40x100xi8>
  %f1 = pto.tensor.assemble %mf into %f[%c0, %c0] : !pto.tensor<24x40xi32> into !pto.tensor<24x40xi32>
  return
}
