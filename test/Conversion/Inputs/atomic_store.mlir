// Stores that add into GM (atomic_add): Ascend C's SetAtomicAdd<T>() around
// the DMA. Vector tiles of f32, f16 and i32 with ragged rows and columns
// (y += 2 x, in two adds, over a run-time row count), and a split-K matmul
// whose two halves of K each add their f32 product into C.
func.func @atomic_vec(%x: !pto.tensor<?x48xf32>, %y: !pto.tensor<?x48xf32>,
                      %h: !pto.tensor<?x40xf16>, %g: !pto.tensor<?x40xf16>,
                      %i: !pto.tensor<?x24xi32>, %j: !pto.tensor<?x24xi32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = pto.tensor.dim %x, 0 : !pto.tensor<?x48xf32>
  scf.for %b = %c0 to %n step %c16 {
    %t = pto.tile.load %x[%b, %c0] : !pto.tensor<?x48xf32> -> !pto.tile<16x64xf32, vec>
    %1 = pto.tile.store %t, %y[%b, %c0] atomic_add : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x48xf32>
    %2 = pto.tile.store %t, %1[%b, %c0] atomic_add : !pto.tile<16x64xf32, vec> -> !pto.tensor<?x48xf32>
    %th = pto.tile.load %h[%b, %c0] : !pto.tensor<?x40xf16> -> !pto.tile<16x64xf16, vec>
    %3 = pto.tile.store %th, %g[%b, %c0] atomic_add : !pto.tile<16x64xf16, vec> -> !pto.tensor<?x40xf16>
    %4 = pto.tile.store %th, %3[%b, %c0] atomic_add : !pto.tile<16x64xf16, vec> -> !pto.tensor<?x40xf16>
    %ti = pto.tile.load %i[%b, %c0] : !pto.tensor<?x24xi32> -> !pto.tile<16x32xi32, vec>
    %5 = pto.tile.store %ti, %j[%b, %c0] atomic_add : !pto.tile<16x32xi32, vec> -> !pto.tensor<?x24xi32>
    %6 = pto.tile.store %ti, %5[%b, %c0] atomic_add : !pto.tile<16x32xi32, vec> -> !pto.tensor<?x24xi32>
  }
  return
}

func.func @atomic_split_k(%a: !pto.tensor<48x64xf16>, %b: !pto.tensor<64x32xf16>,
                          %c: !pto.tensor<48x32xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c32 {
    %a1 = pto.tile.load %a[%c0, %k] : !pto.tensor<48x64xf16> -> !pto.tile<48x32xf16, mat>
    %al = pto.tile.move %a1 : !pto.tile<48x32xf16, mat> -> !pto.tile<48x32xf16, left>
    %b1 = pto.tile.load %b[%k, %c0] : !pto.tensor<64x32xf16> -> !pto.tile<32x32xf16, mat>
    %br = pto.tile.move %b1 : !pto.tile<32x32xf16, mat> -> !pto.tile<32x32xf16, right>
    %p = pto.tile.matmul %al, %br : !pto.tile<48x32xf16, left>, !pto.tile<32x32xf16, right> -> !pto.tile<48x32xf32, acc>
    %r = pto.tile.store %p, %c[%c0, %c0] atomic_add : !pto.tile<48x32xf32, acc> -> !pto.tensor<48x32xf32>
  }
  return
}
