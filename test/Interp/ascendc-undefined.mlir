// AscendC kernels under --undefined=check: a buffer byte (or a workspace
// element) no op wrote is undefined, and so is every lane computed from
// one. Computing on them is allowed; writing them to a kernel argument is
// an error at the op that writes them. Under --undefined=nan such bytes
// read as 0xFF (a NaN in f32).
// RUN: tilekit run %s --entry padding --undefined=check --input x=rand:10:f32 --input y=zeros:10:f32 --print y | FileCheck %s --check-prefix=PADDING
// RUN: not tilekit run %s --entry whole --undefined=check --input x=rand:10:f32 --input y=zeros:16:f32 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: tilekit run %s --entry whole --input x=rand:10:f32 --input y=zeros:16:f32 --print y | FileCheck %s --check-prefix=ZERO
// RUN: tilekit run %s --entry whole --undefined=nan --input x=rand:10:f32 --input y=zeros:16:f32 --print y | FileCheck %s --check-prefix=NAN
// RUN: tilekit run %s --entry workspace --undefined=check --input x=rand:8x64:f32 --input y=zeros:8x64:f32 --input n=5 --print y | FileCheck %s --check-prefix=WORKSPACE
// RUN: not tilekit run %s --entry workspace --undefined=check --input x=rand:8x64:f32 --input y=zeros:8x64:f32 --input n=3 2>&1 | FileCheck %s --check-prefix=WORKSPACE-SHORT
// RUN: tilekit run %s --entry fold --undefined=check --input x=rand:4x16:f32 --input y=zeros:4:f32 --input n=4 --print y | FileCheck %s --check-prefix=FOLD
// RUN: not tilekit run %s --entry fold --undefined=check --input x=rand:4x16:f32 --input y=zeros:4:f32 --input n=3 2>&1 | FileCheck %s --check-prefix=FOLD-SHORT
// RUN: tilekit run %s --entry divide --undefined=check --input y=zeros:8:i32 --print y | FileCheck %s --check-prefix=DIVIDE
// RUN: not tilekit run %s --entry divide --input y=zeros:8:i32 2>&1 | FileCheck %s --check-prefix=DIVIDE-ZERO
// RUN: tilekit run %s --entry cube --undefined=check --input x=rand:16x16:f16 --input y=zeros:16x16:f32 --input rows=12 --input k=12 --print y | FileCheck %s --check-prefix=CUBE
// RUN: not tilekit run %s --entry cube --undefined=check --input x=rand:16x16:f16 --input y=zeros:16x16:f32 --input rows=12 --input k=16 2>&1 | FileCheck %s --check-prefix=CUBE-SHORT

// The first 10 lanes come from x; lanes 10..15 are never written, and the
// add computes them too, but only the first 10 leave.
// PADDING: y: f32 [10]
func.func @padding(%x: !ascendc.global_tensor<10xf32>, %y: !ascendc.global_tensor<10xf32>) {
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16xf32>
  %b = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<16xf32>
  ascendc.data_copy %a, %x, %c10 : !ascendc.local_tensor<16xf32>, !ascendc.global_tensor<10xf32>
  ascendc.pipe_barrier all
  ascendc.add_l2 %b, %a, %a, %c16 : !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  ascendc.pipe_barrier all
  ascendc.data_copy %y, %b, %c10 : !ascendc.global_tensor<10xf32>, !ascendc.local_tensor<16xf32>
  return
}

// All 16 lanes leave: 6 of them hold bytes no op wrote.
// WHOLE: ascendc-undefined.mlir:[[# @LINE + 12]]:3: error: 'ascendc.data_copy' op writes undefined data to GM: element 10 of the destination would hold bytes that no op wrote (6 of the 16 elements it writes)
// ZERO: y: f32 [16]
// ZERO: 0, 0, 0, 0, 0, 0]
// NAN: nan, nan, nan, nan, nan, nan]
func.func @whole(%x: !ascendc.global_tensor<10xf32>, %y: !ascendc.global_tensor<16xf32>) {
  %c10 = arith.constant 10 : index
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<16xf32>
  %b = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<16xf32>
  ascendc.data_copy %a, %x, %c10 : !ascendc.local_tensor<16xf32>, !ascendc.global_tensor<10xf32>
  ascendc.pipe_barrier all
  ascendc.abs_l2 %b, %a : !ascendc.local_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  ascendc.pipe_barrier all
  ascendc.data_copy %y, %b : !ascendc.global_tensor<16xf32>, !ascendc.local_tensor<16xf32>
  return
}

// A workspace is not cleared: the first %n rows go through it, all 8 come
// back into UB, and the first 5 leave.
// WORKSPACE: y: f32 [8, 64]
// WORKSPACE-SHORT: error: 'ascendc.data_copy' op writes undefined data to GM: element 192 of the destination would hold bytes that no op wrote (128 of the 320 elements it writes)
func.func @workspace(%x: !ascendc.global_tensor<8x64xf32>, %y: !ascendc.global_tensor<8x64xf32>, %n: index) {
  %c64 = arith.constant 64 : index
  %c320 = arith.constant 320 : index
  %ws = ascendc.workspace : !ascendc.global_tensor<8x64xf32>
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<8x64xf32>
  %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf32>
  %count = arith.muli %n, %c64 : index
  ascendc.data_copy %a, %x : !ascendc.local_tensor<8x64xf32>, !ascendc.global_tensor<8x64xf32>
  ascendc.pipe_barrier all
  ascendc.data_copy %ws, %a, %count : !ascendc.global_tensor<8x64xf32>, !ascendc.local_tensor<8x64xf32>
  ascendc.pipe_barrier all
  ascendc.data_copy %b, %ws : !ascendc.local_tensor<8x64xf32>, !ascendc.global_tensor<8x64xf32>
  ascendc.pipe_barrier all
  ascendc.data_copy %y, %b, %c320 : !ascendc.global_tensor<8x64xf32>, !ascendc.local_tensor<8x64xf32>
  return
}

// A row sum is undefined when any element of its row is.
// FOLD: y: f32 [4]
// FOLD-SHORT: error: 'ascendc.data_copy' op writes undefined data to GM: element 3 of the destination would hold bytes that no op wrote (1 of the 4 elements it writes)
func.func @fold(%x: !ascendc.global_tensor<4x16xf32>, %y: !ascendc.global_tensor<4xf32>, %n: index) {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<4x16xf32>
  %s = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<4x1xf32>
  %count = arith.muli %n, %c16 : index
  ascendc.data_copy %a, %x, %count : !ascendc.local_tensor<4x16xf32>, !ascendc.global_tensor<4x16xf32>
  ascendc.pipe_barrier all
  ascendc.reduce_sum %s, %a axis 1 : !ascendc.local_tensor<4x1xf32>, !ascendc.local_tensor<4x16xf32>
  ascendc.pipe_barrier all
  ascendc.data_copy %y, %s, %c4 : !ascendc.global_tensor<4xf32>, !ascendc.local_tensor<4x1xf32>
  return
}

// Lanes 8..15 are never written: dividing them by themselves is no error
// under --undefined=check (their quotient is undefined anyway); with the
// zeros of --undefined=zero it is a division by zero.
// DIVIDE: y: i32 [8]
// DIVIDE-NEXT: [1, 1, 1, 1, 1, 1, 1, 1]
// DIVIDE-ZERO: error: 'ascendc.div_l2' op divides by zero at lane 8
func.func @divide(%y: !ascendc.global_tensor<8xi32>) {
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i32
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16xi32>
  %q = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<16xi32>
  ascendc.duplicate_l2 %a, %one, %c8 : !ascendc.local_tensor<16xi32>, i32
  ascendc.pipe_barrier all
  ascendc.div_l2 %q, %a, %a, %c16 : !ascendc.local_tensor<16xi32>, !ascendc.local_tensor<16xi32>, !ascendc.local_tensor<16xi32>
  ascendc.pipe_barrier all
  ascendc.data_copy %y, %q, %c8 : !ascendc.global_tensor<8xi32>, !ascendc.local_tensor<16xi32>
  return
}

// B's first %rows rows are written; a product over k of them is defined,
// one over more is not.
// CUBE: y: f32 [16, 16]
// CUBE-SHORT: error: 'ascendc.fixpipe' op writes undefined data to GM: element 0 of the destination would hold bytes that no op wrote (256 of the 256 elements it writes)
func.func @cube(%x: !ascendc.global_tensor<16x16xf16>, %y: !ascendc.global_tensor<16x16xf32>, %rows: index, %k: index) {
  %c16 = arith.constant 16 : index
  ascendc.if_aic {
    %l1a = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<16x16xf16>
    %l1b = ascendc.local_tensor_auto b1 : !ascendc.local_tensor<16x16xf16>
    %l0a = ascendc.local_tensor_auto a2 : !ascendc.local_tensor<16x16xf16>
    %l0b = ascendc.local_tensor_auto b2 : !ascendc.local_tensor<16x16xf16>
    %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
    %count = arith.muli %rows, %c16 : index
    ascendc.data_copy %l1a, %x : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
    ascendc.data_copy %l1b, %x, %count : !ascendc.local_tensor<16x16xf16>, !ascendc.global_tensor<16x16xf16>
    ascendc.pipe_barrier all
    ascendc.load_data %l0a, %l1a : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.load_data %l0b, %l1b : !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.pipe_barrier all
    ascendc.mmad %acc, %l0a, %l0b m %c16 n %c16 k %k : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
    ascendc.pipe_barrier all
    ascendc.fixpipe %y, %acc : !ascendc.global_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  }
  return
}
