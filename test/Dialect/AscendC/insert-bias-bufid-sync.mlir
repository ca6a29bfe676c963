// RUN: tilekit-opt %s -split-input-file -ascendc-insert-bias-bufid-sync -verify-diagnostics | FileCheck %s

// Every mmad reading the bias gets the bias tensor's buffer id on the cube
// pipe around it; mmads without bias do not.
// CHECK-LABEL: func.func @bias(
// CHECK: ascendc.get_buf m, 5
// CHECK-NEXT: ascendc.mmad {{.*}} bias
// CHECK-NEXT: ascendc.rls_buf m, 5
// CHECK-NEXT: ascendc.mmad
// CHECK-NOT: _buf
func.func @bias(%n: index) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor b2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %bt = ascendc.local_tensor c2 addr 0 size 64 {ascendc.buf_id = 5 : i64} : !ascendc.local_tensor<16xf32>
  ascendc.mmad %acc, %a, %b bias %bt m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16xf32>
  ascendc.mmad %acc, %a, %b m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>
  return
}

// -----

// Without a buffer id on the bias tensor there is nothing to guard.
// CHECK-LABEL: func.func @no_id(
// CHECK-NOT: _buf
func.func @no_id(%n: index) {
  %acc = ascendc.local_tensor co1 addr 0 size 1024 : !ascendc.local_tensor<16x16xf32>
  %a = ascendc.local_tensor a2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %b = ascendc.local_tensor b2 addr 0 size 512 : !ascendc.local_tensor<16x16xf16>
  %bt = ascendc.local_tensor c2 addr 0 size 64 : !ascendc.local_tensor<16xf32>
  ascendc.mmad %acc, %a, %b bias %bt m %n n %n k %n : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16x16xf16>, !ascendc.local_tensor<16xf32>
  return
}

// -----

func.func @two() {
  // expected-note @+1 {{the first}}
  %b0 = ascendc.local_tensor c2 addr 0 size 64 {ascendc.buf_id = 1 : i64} : !ascendc.local_tensor<16xf32>
  // expected-error @+1 {{is a second bias-table tensor with a buffer id; run -ascendc-unify-bias-tensor first}}
  %b1 = ascendc.local_tensor c2 addr 64 size 64 {ascendc.buf_id = 2 : i64} : !ascendc.local_tensor<16xf32>
  return
}
