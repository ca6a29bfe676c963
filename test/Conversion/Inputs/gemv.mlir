// y = x W as a GEMV over K in two steps (a left tile of one row; the first
// step overwrites the accumulator, the second accumulates), and z = x[:32]
// W[:32] as one plain GEMV.
func.func @gemv(%x: !pto.tensor<1x64xf16>, %w: !pto.tensor<64x48xf16>,
                %y: !pto.tensor<1x48xf32>, %z: !pto.tensor<1x48xf32>)
    attributes {pto.kind = #pto.kind<incore>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %acc0 = pto.tile.create : !pto.tile<1x48xf32, acc>
  %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%a = %acc0) -> (!pto.tile<1x48xf32, acc>) {
    %x1 = pto.tile.load %x[%c0, %k] : !pto.tensor<1x64xf16> -> !pto.tile<1x32xf16, mat>
    %xl = pto.tile.move %x1 : !pto.tile<1x32xf16, mat> -> !pto.tile<1x32xf16, left>
    %w1 = pto.tile.load %w[%k, %c0] : !pto.tensor<64x48xf16> -> !pto.tile<32x48xf16, mat>
    %wr = pto.tile.move %w1 : !pto.tile<32x48xf16, mat> -> !pto.tile<32x48xf16, right>
    %first = arith.cmpi eq, %k, %c0 : index
    %n = pto.tile.gemv_acc %a, %xl, %wr init %first : !pto.tile<1x48xf32, acc>, !pto.tile<1x32xf16, left>, !pto.tile<32x48xf16, right>
    scf.yield %n : !pto.tile<1x48xf32, acc>
  }
  pto.tile.store %acc, %y[%c0, %c0] : !pto.tile<1x48xf32, acc> -> !pto.tensor<1x48xf32>
  %x2 = pto.tile.load %x[%c0, %c0] : !pto.tensor<1x64xf16> -> !pto.tile<1x32xf16, mat>
  %xl2 = pto.tile.move %x2 : !pto.tile<1x32xf16, mat> -> !pto.tile<1x32xf16, left>
  %w2 = pto.tile.load %w[%c0, %c0] : !pto.tensor<64x48xf16> -> !pto.tile<32x48xf16, mat>
  %wr2 = pto.tile.move %w2 : !pto.tile<32x48xf16, mat> -> !pto.tile<32x48xf16, right>
  %p = pto.tile.gemv %xl2, %wr2 : !pto.tile<1x32xf16, left>, !pto.tile<32x48xf16, right> -> !pto.tile<1x48xf32, acc>
  pto.tile.store %p, %z[%c0, %c0] : !pto.tile<1x48xf32, acc> -> !pto.tensor<1x48xf32>
  return
}
