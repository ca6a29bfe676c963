// init_cond overwrites the accumulator where it holds and accumulates
// otherwise, at run time and as a literal. acc starts at 1 everywhere,
// A = 1 (2x16), B = 1 (16x16), so A @ B = 16.
// RUN: tilekit run %s --entry runtime --input c=zeros:16x16:f32 --input k=0 --print c | FileCheck %s --check-prefix=OVERWRITE
// RUN: tilekit run %s --entry runtime --input c=zeros:16x16:f32 --input k=1 --print c | FileCheck %s --check-prefix=ACCUMULATE
// RUN: tilekit run %s --entry literal_true --input c=zeros:16x16:f32 --print c | FileCheck %s --check-prefix=OVERWRITE
// RUN: tilekit run %s --entry literal_false --input c=zeros:16x16:f32 --print c | FileCheck %s --check-prefix=ACCUMULATE
// RUN: tilekit run %s --entry no_init --input c=zeros:16x16:f32 --print c | FileCheck %s --check-prefix=ACCUMULATE
// RUN: tilekit run %s --entry tensor_level --input c=zeros:16x16:f32 --input k=0 --print result | FileCheck %s --check-prefix=OVERWRITE
// RUN: tilekit run %s --entry tensor_level --input c=zeros:16x16:f32 --input k=3 --print result | FileCheck %s --check-prefix=ACCUMULATE

// OVERWRITE: [16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16]
// ACCUMULATE: [17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17]

func.func @runtime(%c: !pto.tensor<16x16xf32>, %k: index) -> !pto.tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %onef16 = arith.constant 1.0 : f16
  %acc = pto.tile.full %one : f32 -> !pto.tile<16x16xf32, acc>
  %a = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, left>
  %b = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, right>
  %first = arith.cmpi eq, %k, %c0 : index
  %r = pto.tile.matmul_acc %acc, %a, %b init %first : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %o = pto.tile.store %r, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return %o : !pto.tensor<16x16xf32>
}

func.func @literal_true(%c: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %one = arith.constant 1.0 : f32
  %onef16 = arith.constant 1.0 : f16
  %acc = pto.tile.full %one : f32 -> !pto.tile<16x16xf32, acc>
  %a = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, left>
  %b = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, right>
  %r = pto.tile.matmul_acc %acc, %a, %b init %true : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %o = pto.tile.store %r, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return %o : !pto.tensor<16x16xf32>
}

func.func @literal_false(%c: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %one = arith.constant 1.0 : f32
  %onef16 = arith.constant 1.0 : f16
  %acc = pto.tile.full %one : f32 -> !pto.tile<16x16xf32, acc>
  %a = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, left>
  %b = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, right>
  %r = pto.tile.matmul_acc %acc, %a, %b init %false : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %o = pto.tile.store %r, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return %o : !pto.tensor<16x16xf32>
}

func.func @no_init(%c: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %onef16 = arith.constant 1.0 : f16
  %acc = pto.tile.full %one : f32 -> !pto.tile<16x16xf32, acc>
  %a = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, left>
  %b = pto.tile.full %onef16 : f16 -> !pto.tile<16x16xf16, right>
  %r = pto.tile.matmul_acc %acc, %a, %b : !pto.tile<16x16xf32, acc>, !pto.tile<16x16xf16, left>, !pto.tile<16x16xf16, right>
  %o = pto.tile.store %r, %c[%c0, %c0] : !pto.tile<16x16xf32, acc> -> !pto.tensor<16x16xf32>
  return %o : !pto.tensor<16x16xf32>
}

func.func @tensor_level(%c: !pto.tensor<16x16xf32>, %k: index) -> !pto.tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %onef16 = arith.constant 1.0 : f16
  %acc = pto.tensor.full %one : f32 -> !pto.tensor<16x16xf32>
  %a = pto.tensor.full %onef16 : f16 -> !pto.tensor<16x16xf16>
  %first = arith.cmpi eq, %k, %c0 : index
  %r = pto.tensor.matmul_acc %acc, %a, %a init %first : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf16>, !pto.tensor<16x16xf16>
  return %r : !pto.tensor<16x16xf32>
}
