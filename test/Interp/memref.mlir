// The executor keeps a core's scalar memory in memrefs (the mmad init flag
// -ascendc-fixup-mmad-acc-params keeps): alloca gives zeros, store and load
// move one element, an index outside the buffer is an error at the op.
// RUN: tilekit run %s --entry flag --input i=0 --print result | FileCheck %s --check-prefix=SET
// RUN: tilekit run %s --entry flag --input i=1 --print result | FileCheck %s --check-prefix=ZERO
// RUN: not tilekit run %s --entry flag --input i=2 2>&1 | FileCheck %s --check-prefix=OUTSIDE
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

// A memref too large to hold is an error at its alloca, not a crash (a
// fuzzer's input).
// RUN: not tilekit run %s --entry huge 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tilekit run %s --entry large 2>&1 | FileCheck %s --check-prefix=LARGE
// HUGE: memref.mlir:[[@LINE+4]]:8: error: 'memref.alloca' op tensor [4611686018427387904]: the size overflows 64 bits
// LARGE: memref.mlir:[[@LINE+9]]:8: error: 'memref.alloc' op tensor [1099511627776, 1024] needs {{[0-9]+}} bytes, more than this machine's {{[0-9]+}} bytes of memory
func.func @huge() -> i1 {
  %c0 = arith.constant 0 : index
  %m = memref.alloca() : memref<4611686018427387904xi1>
  %v = memref.load %m[%c0] : memref<4611686018427387904xi1>
  return %v : i1
}
func.func @large() -> f32 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<1099511627776x1024xf32>
  %v = memref.load %m[%c0, %c0] : memref<1099511627776x1024xf32>
  return %v : f32
}
