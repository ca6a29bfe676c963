// RUN: tilekit-opt %s -ascendc-set-target-arch -verify-diagnostics -split-input-file

// A local tensor passed to a function would get no buffer id and no
// synchronization there: the pipeline's first pass refuses the function and
// the call, each at its op.

// expected-error @+1 {{'func.func' op takes or returns a local tensor, which the AscendC passes do not follow into or out of a function}}
func.func private @scale(%t: !ascendc.local_tensor<64xf32>) {
  %c = arith.constant 2.0 : f32
  ascendc.muls_l2 %t, %t, %c : !ascendc.local_tensor<64xf32>, !ascendc.local_tensor<64xf32>, f32
  return
}

func.func @kernel() {
  %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<64xf32>
  // expected-error @+1 {{'func.call' op passes a local tensor across a call, which the AscendC passes do not follow; inline the callee}}
  func.call @scale(%t) : (!ascendc.local_tensor<64xf32>) -> ()
  return
}

// -----

// GM tensors and scalars cross calls freely.
func.func private @helper(%g: !ascendc.global_tensor<64xf32>, %n: index) {
  return
}

func.func @kernel(%g: !ascendc.global_tensor<64xf32>) {
  %c = arith.constant 4 : index
  func.call @helper(%g, %c) : (!ascendc.global_tensor<64xf32>, index) -> ()
  return
}
