// RUN: tilekit-opt %s -split-input-file -ascendc-dispatch-alloc -verify-diagnostics | FileCheck %s

// Allocation is static, on either architecture.
// CHECK: module attributes {ascendc.alloc_strategy = "static"}
module {
}

// -----

// A column broadcast on C220 takes one block of scratch (GetBroadCastMaxMinTmpSize: axis 0 is 32 B).
// CHECK-LABEL: func.func @column
// CHECK: %[[TMP:.+]] = ascendc.local_tensor_auto veccalc : <32xui8>
// CHECK-NEXT: ascendc.broadcast %{{.+}}, %{{.+}} axis 0 scratch %[[TMP]] : {{.*}}, !ascendc.local_tensor<32xui8>
module attributes {ascendc.arch = "c220"} {
  func.func @column() {
    %row = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x64xf32>
    %all = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf32>
    ascendc.broadcast %all, %row axis 0 : !ascendc.local_tensor<8x64xf32>, !ascendc.local_tensor<1x64xf32>
    return
  }
}

// -----

// Row broadcasts on C220: a block-aligned row takes an 8 x 8 f32 square,
// 8 * 8 * 4 = 256 B; an unaligned f16 row of 100 adds 16 rows of 112
// (100 rounded to 16): 16 * 16 * 2 + 16 * 112 * 2 = 512 + 3584 = 4096 B.
// CHECK-LABEL: func.func @rows
// CHECK: ascendc.local_tensor_auto veccalc : <256xui8>
// CHECK: ascendc.local_tensor_auto veccalc : <4096xui8>
module attributes {ascendc.arch = "c220"} {
  func.func @rows() {
    %col = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x1xf32>
    %all = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x64xf32>
    ascendc.broadcast %all, %col axis 1 : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x1xf32>
    %hcol = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x1xf16>
    %hall = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x100xf16>
    ascendc.broadcast %hall, %hcol axis 1 : !ascendc.local_tensor<16x100xf16>, !ascendc.local_tensor<16x1xf16>
    return
  }
}

// -----

// C310's broadcast takes none; the call still gets one block.
// CHECK: module attributes {ascendc.alloc_strategy = "static", ascendc.arch = "c310"}
// CHECK-LABEL: func.func @c310
// CHECK: ascendc.local_tensor_auto veccalc : <32xui8>
module attributes {ascendc.arch = "c310"} {
  func.func @c310() {
    %col = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x1xf32>
    %all = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x64xf32>
    ascendc.broadcast %all, %col axis 1 : !ascendc.local_tensor<16x64xf32>, !ascendc.local_tensor<16x1xf32>
    return
  }
}

// -----

// Reductions (GetReduce<Op>MaxMinTmpSize):
// - sum of rows of 64 f32: one repeat, none (one block);
// - sum of rows of 256 f32: 8 rows x 128 (256 halved) x 4 = 4096 B;
// - max of rows of 128 f16: 16 rows x one repeat (128) x 2 = 4096 B;
// - max of the columns of 16 x 64 f32: 8 (16 halved) x 256 B = 2048 B;
// - sum of the columns of 24 x 16 f32: 16 (24 folded by halves) x 16 x 4 = 1024 B;
// - product of rows of 64 f32: (32 + 8 x 8) x 4 + 256 = 640 B.
// CHECK-LABEL: func.func @folds
// CHECK: local_tensor_auto veccalc : <32xui8>
// CHECK: local_tensor_auto veccalc : <4096xui8>
// CHECK: local_tensor_auto veccalc : <4096xui8>
// CHECK: local_tensor_auto veccalc : <2048xui8>
// CHECK: local_tensor_auto veccalc : <1024xui8>
// CHECK: local_tensor_auto veccalc : <640xui8>
module attributes {ascendc.arch = "c220"} {
  func.func @folds() {
    %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf32>
    %as = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x1xf32>
    ascendc.reduce_sum %as, %a axis 1 : !ascendc.local_tensor<8x1xf32>, !ascendc.local_tensor<8x64xf32>
    %b = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x256xf32>
    %bs = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x1xf32>
    ascendc.reduce_sum %bs, %b axis 1 : !ascendc.local_tensor<8x1xf32>, !ascendc.local_tensor<8x256xf32>
    %c = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x128xf16>
    %cs = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x1xf16>
    ascendc.reduce_max %cs, %c axis 1 : !ascendc.local_tensor<16x1xf16>, !ascendc.local_tensor<16x128xf16>
    %d = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<16x64xf32>
    %ds = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x64xf32>
    ascendc.reduce_max %ds, %d axis 0 : !ascendc.local_tensor<1x64xf32>, !ascendc.local_tensor<16x64xf32>
    %e = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<24x16xf32>
    %es = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x16xf32>
    ascendc.reduce_sum %es, %e axis 0 : !ascendc.local_tensor<1x16xf32>, !ascendc.local_tensor<24x16xf32>
    ascendc.reduce_prod %as, %a axis 1 : !ascendc.local_tensor<8x1xf32>, !ascendc.local_tensor<8x64xf32>
    return
  }
}

// -----

// Scratch already given is kept.
// CHECK-LABEL: func.func @given
// CHECK-NOT: <32xui8>
// CHECK: scratch %arg0
module attributes {ascendc.arch = "c220"} {
  func.func @given(%tmp: !ascendc.local_tensor<64xui8>) {
    %row = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<1x64xf32>
    %all = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf32>
    ascendc.broadcast %all, %row axis 0 scratch %tmp : !ascendc.local_tensor<8x64xf32>, !ascendc.local_tensor<1x64xf32>, !ascendc.local_tensor<64xui8>
    return
  }
}

// -----

// C220's ReduceSum takes f32 only.
module attributes {ascendc.arch = "c220"} {
  func.func @f16_sum() {
    %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x64xf16>
    %as = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8x1xf16>
    // expected-error @+1 {{folds 'f16', which the API's ReduceSum does not take on C220; cast to f32 first}}
    ascendc.reduce_sum %as, %a axis 1 : !ascendc.local_tensor<8x1xf16>, !ascendc.local_tensor<8x64xf16>
    return
  }
}

// -----

// TPipe-managed buffers are not emitted.
// expected-error @+1 {{asks for TPipe-managed buffers (ascendc.static_alloc = false), which are not emitted}}
module attributes {ascendc.arch = "c310", ascendc.static_alloc = false} {
}

// -----

// expected-error @+1 {{has ascendc.arch = "c100"; expected "c220" or "c310"}}
module attributes {ascendc.arch = "c100"} {
}
