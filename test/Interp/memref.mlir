// The executor keeps a core's scalar memory in memrefs (the mmad init flag
// -ascendc-fixup-mmad-acc-params keeps): alloca gives zeros, store and load
// move one element, an index outside the buffer is an error at the op.
// RUN: tilekit run %s --input i=0 --print result | FileCheck %s --check-prefix=SET
// RUN: tilekit run %s --input i=1 --print result | FileCheck %s --check-prefix=ZERO
// RUN: not tilekit run %s --input i=2 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// SET: result: i1 1
// ZERO: result: i1 0
// OUTSIDE: memref.mlir:[[@LINE+6]]:8: error: 'memref.load' op index [2] is outside the tensor of shape [2]
func.func @flag(%i: index) -> i1 {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  %m = memref.alloca() : memref<2xi1>
  memref.store %t, %m[%c0] : memref<2xi1>
  %v = memref.load %m[%i] : memref<2xi1>
  return %v : i1
}
