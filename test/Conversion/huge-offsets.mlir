// Offsets and loop bounds may be any index: the lowering's test for loads
// past the tensor's edge compares without overflowing (fuzz-verify-each
// found `offset + extent` overflow under UBSan, which the sanitizer suite
// runs this test under). A loop from the largest index to 2 runs no trip,
// and the lowering drops it.
// RUN: tilekit-opt %s --convert-pto-to-ascendc | FileCheck %s
// RUN: tilekit compile %s --arch=c220 --verify-each --input x=rand:2x72:f16 --input y=zeros:2x72:f16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EACH
// CHECK-LABEL: func.func @huge
// CHECK-NOT: scf.for
// CHECK: return %arg1
// EACH: verify-each: {{[0-9]+}} passes, the outputs equal before and after each

func.func @huge(%x: !pto.tensor<2x72xf16>, %y: !pto.tensor<2x72xf16>) -> !pto.tensor<2x72xf16>
    attributes {pto.kind = #pto.kind<incore>} {
  %big = arith.constant 9223372036854775807 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %big to %c2 step %c1 iter_args(%o = %y) -> (!pto.tensor<2x72xf16>) {
    %t = pto.tile.load %x[%c0, %i] : !pto.tensor<2x72xf16> -> !pto.tile<1x72xf16, vec>
    %s = pto.tile.store %t, %o[%c0, %c0] : !pto.tile<1x72xf16, vec> -> !pto.tensor<2x72xf16>
    scf.yield %s : !pto.tensor<2x72xf16>
  }
  return %r : !pto.tensor<2x72xf16>
}
