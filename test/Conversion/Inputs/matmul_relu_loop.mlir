// An in-core kernel that mixes the cube and the vector unit in a loop: each
// 32-row block of a is multiplied by w on the cube, the product moved to
// UB, rectified on the vector unit and stored. The lowering splits it into
// core groups inside the loop.
func.func @matmul_relu(%a: !pto.tensor<?x64xf16>, %w: !pto.tensor<64x64xf16>, %y: !pto.tensor<?x64xf32>) -> !pto.tensor<?x64xf32> attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %m = pto.tensor.dim %a, 0 : !pto.tensor<?x64xf16>
  %w1 = pto.tile.load %w[%c0, %c0] : !pto.tensor<64x64xf16> -> !pto.tile<64x64xf16, mat>
  %wr = pto.tile.move %w1 : !pto.tile<64x64xf16, mat> -> !pto.tile<64x64xf16, right>
  %out = scf.for %r = %c0 to %m step %c32 iter_args(%o = %y) -> (!pto.tensor<?x64xf32>) {
    %a1 = pto.tile.load %a[%r, %c0] : !pto.tensor<?x64xf16> -> !pto.tile<32x64xf16, mat>
    %al = pto.tile.move %a1 : !pto.tile<32x64xf16, mat> -> !pto.tile<32x64xf16, left>
    %c = pto.tile.matmul %al, %wr : !pto.tile<32x64xf16, left>, !pto.tile<64x64xf16, right> -> !pto.tile<32x64xf32, acc>
    %v = pto.tile.move %c : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
    %h = pto.tile.relu %v : !pto.tile<32x64xf32, vec>
    %s = pto.tile.store %h, %o[%r, %c0] : !pto.tile<32x64xf32, vec> -> !pto.tensor<?x64xf32>
    scf.yield %s : !pto.tensor<?x64xf32>
  }
  return %out : !pto.tensor<?x64xf32>
}
