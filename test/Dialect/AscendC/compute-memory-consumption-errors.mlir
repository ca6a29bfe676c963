// RUN: tilekit-opt %s -split-input-file -ascendc-compute-memory-consumption="check-capacity=true ub-bytes=8192" -verify-diagnostics

// With check-capacity, a buffer past its capacity is an error naming the
// buffer, the need and the capacity, with a note at the tensor crossing it.
// expected-error @+1 {{kernel 'too_big' needs 9216 bytes of UB, more than its capacity of 8192 bytes}}
func.func @too_big() {
  %a = ascendc.local_tensor veccalc addr 0 size 8192 : !ascendc.local_tensor<2048xf32>
  // expected-note @+1 {{this tensor ends at byte 9216}}
  %b = ascendc.local_tensor veccalc addr 8192 size 1024 : !ascendc.local_tensor<256xf32>
  return
}

// -----

func.func @unplanned() {
  // expected-error @+1 {{has no address yet; run -ascendc-allocate-tensor before -ascendc-compute-memory-consumption}}
  %a = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<8xf32>
  return
}
