// Whole-tensor compute on tensors whose extents are known at run time only.
// A result that is not assembled into an argument is a fresh region of the
// workspace whose size the host computes from the arguments' extents before
// it launches (compile --emit=host); the kernels find the regions at
// offsets they compute the same way.
//   x: [R, 45] f32, a: [K, 64] f16, b: [K, 48] f16, n: a row count
//   t = exp(x)                 fresh [R, 45], read by three ops
//   o = t * 0.5 + t            assembled into o [R, 45]
//   s = row_sum(t)             fresh [R, 1], assembled into s
//   u = t seen as [5 R, 9], halved by an in-core kernel 16 rows at a time
//   q = a^T @ b                f32 [64, 48]; a^T is a fresh [64, K]
//   g[0:n] = full 2.0 of [n, 45]
func.func @halve(%src: !pto.tensor<?x9xf32>, %dst: !pto.tensor<?x9xf32>,
                 %r0: index, %rv: index) -> !pto.tensor<?x9xf32>
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %half = arith.constant 0.5 : f32
  %t = pto.tile.load %src[%r0, %c0] valid [%rv, %c9] : !pto.tensor<?x9xf32> -> !pto.tile<16x16xf32, vec>
  %h = pto.tile.muls %t, %half : !pto.tile<16x16xf32, vec>, f32
  %out = pto.tile.store %h, %dst[%r0, %c0] : !pto.tile<16x16xf32, vec> -> !pto.tensor<?x9xf32>
  return %out : !pto.tensor<?x9xf32>
}

func.func @main(%x: !pto.tensor<?x45xf32>, %a: !pto.tensor<?x64xf16>,
                %b: !pto.tensor<?x48xf16>, %n: index,
                %o: !pto.tensor<?x45xf32>, %s: !pto.tensor<?x1xf32>,
                %u: !pto.tensor<?x9xf32>, %q: !pto.tensor<64x48xf32>,
                %g: !pto.tensor<?x45xf32>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %t = pto.tensor.exp %x : !pto.tensor<?x45xf32>
  %th = pto.tensor.muls %t, %half : !pto.tensor<?x45xf32>, f32
  %ts = pto.tensor.add %th, %t : !pto.tensor<?x45xf32>
  %o1 = pto.tensor.assemble %ts into %o[%c0, %c0] : !pto.tensor<?x45xf32> into !pto.tensor<?x45xf32>
  %sum = pto.tensor.row_sum %t : !pto.tensor<?x45xf32> -> !pto.tensor<?x1xf32>
  %s1 = pto.tensor.assemble %sum into %s[%c0, %c0] : !pto.tensor<?x1xf32> into !pto.tensor<?x1xf32>
  %r = pto.tensor.dim %x, 0 : !pto.tensor<?x45xf32>
  %rows = arith.muli %r, %c5 : index
  %tv = pto.tensor.view %t[%rows] : !pto.tensor<?x45xf32> -> !pto.tensor<?x9xf32>
  scf.for %r0 = %c0 to %rows step %c16 {
    %left = arith.subi %rows, %r0 : index
    %rv = arith.minui %left, %c16 : index
    %done = func.call @halve(%tv, %u, %r0, %rv)
        : (!pto.tensor<?x9xf32>, !pto.tensor<?x9xf32>, index, index) -> !pto.tensor<?x9xf32>
  }
  %m = pto.tensor.matmul %a, %b {a_trans} : !pto.tensor<?x64xf16>, !pto.tensor<?x48xf16> -> !pto.tensor<64x48xf32>
  %q1 = pto.tensor.assemble %m into %q[%c0, %c0] : !pto.tensor<64x48xf32> into !pto.tensor<64x48xf32>
  %f = pto.tensor.full %two [%n] : f32 -> !pto.tensor<?x45xf32>
  %g1 = pto.tensor.assemble %f into %g[%c0, %c0] : !pto.tensor<?x45xf32> into !pto.tensor<?x45xf32>
  return
}
