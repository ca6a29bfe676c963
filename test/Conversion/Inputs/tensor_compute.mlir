// An orchestration that moves and computes data on whole tensors, with
// no in-core function of its own: every op becomes launches of a generated
// kernel (pto-outline-tensor-compute). Shapes are odd on purpose (37 x 45
// rows and columns, a 3-d tensor, a 1-d one).
//   x: [37, 45] f32, v: [3, 5, 70] f16, w: [50] i32, n: a run-time offset
//   y = exp(x) * 0.5 + x                        (unary, scalar, binary)
//   h = cast(y) to f16                           (cast)
//   z = full 2.0 of [20, 45], z[3, 7] = -1.0     (fill, element write)
//   s = slice x[8 + 16 i, 0] of [16, 45] for i in 0..1 (inside)
//   e = slice x[30, 40] of [16, 16], past the edge: its valid 7 x 5 part
//       is added to itself and assembled into z at [1, 2]
//   u = relu(v) - v                              (3-d)
//   w[n] = 7, w = w + w                          (1-d, a run-time index)
func.func @main(%x: !pto.tensor<37x45xf32>, %v: !pto.tensor<3x5x70xf16>,
                %w: !pto.tensor<50xi32>, %n: index,
                %y: !pto.tensor<37x45xf32>, %h: !pto.tensor<37x45xf16>,
                %z: !pto.tensor<20x45xf32>, %s: !pto.tensor<32x45xf32>,
                %u: !pto.tensor<3x5x70xf16>, %ww: !pto.tensor<50xi32>)
    -> (!pto.tensor<37x45xf32>, !pto.tensor<37x45xf16>, !pto.tensor<20x45xf32>,
        !pto.tensor<32x45xf32>, !pto.tensor<3x5x70xf16>, !pto.tensor<50xi32>)
    attributes {pto.kind = #pto.kind<orchestration>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c30 = arith.constant 30 : index
  %c40 = arith.constant 40 : index
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %minus = arith.constant -1.0 : f32
  %seven = arith.constant 7 : i32
  %ex = pto.tensor.exp %x : !pto.tensor<37x45xf32>
  %sc = pto.tensor.muls %ex, %half : !pto.tensor<37x45xf32>, f32
  %sum = pto.tensor.add %sc, %x : !pto.tensor<37x45xf32>
  %y1 = pto.tensor.assemble %sum into %y[%c0, %c0] : !pto.tensor<37x45xf32> into !pto.tensor<37x45xf32>
  %hc = pto.tensor.cast %y1 : !pto.tensor<37x45xf32> -> !pto.tensor<37x45xf16>
  %h1 = pto.tensor.assemble %hc into %h[%c0, %c0] : !pto.tensor<37x45xf16> into !pto.tensor<37x45xf16>
  %full = pto.tensor.full %two : f32 -> !pto.tensor<20x45xf32>
  %f1 = pto.tensor.write %minus, %full[%c3, %c7] : !pto.tensor<20x45xf32>
  %edge = pto.tensor.slice %x[%c30, %c40] : !pto.tensor<37x45xf32> -> !pto.tensor<16x16xf32>
  %twice = pto.tensor.add %edge, %edge : !pto.tensor<16x16xf32>
  %f2 = pto.tensor.assemble %twice into %f1[%c1, %c2] : !pto.tensor<16x16xf32> into !pto.tensor<20x45xf32>
  %z1 = pto.tensor.assemble %f2 into %z[%c0, %c0] : !pto.tensor<20x45xf32> into !pto.tensor<20x45xf32>
  %s1 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %s) -> !pto.tensor<32x45xf32> {
    %row = arith.muli %i, %c16 : index
    %from = arith.addi %row, %c8 : index
    %part = pto.tensor.slice %x[%from, %c0] : !pto.tensor<37x45xf32> -> !pto.tensor<16x45xf32>
    %next = pto.tensor.assemble %part into %acc[%row, %c0] : !pto.tensor<16x45xf32> into !pto.tensor<32x45xf32>
    scf.yield %next : !pto.tensor<32x45xf32>
  }
  %r = pto.tensor.relu %v : !pto.tensor<3x5x70xf16>
  %d = pto.tensor.sub %r, %v : !pto.tensor<3x5x70xf16>
  %u1 = pto.tensor.assemble %d into %u[%c0, %c0, %c0] : !pto.tensor<3x5x70xf16> into !pto.tensor<3x5x70xf16>
  %w1 = pto.tensor.write %seven, %w[%n] : !pto.tensor<50xi32>
  %w2 = pto.tensor.add %w1, %w1 : !pto.tensor<50xi32>
  %ww1 = pto.tensor.assemble %w2 into %ww[%c0] : !pto.tensor<50xi32> into !pto.tensor<50xi32>
  return %y1, %h1, %z1, %s1, %u1, %ww1 : !pto.tensor<37x45xf32>, !pto.tensor<37x45xf16>, !pto.tensor<20x45xf32>, !pto.tensor<32x45xf32>, !pto.tensor<3x5x70xf16>, !pto.tensor<50xi32>
}
