// An op at module scope: C++ has no statements at file scope.
%c = arith.constant 1 : index
func.func @kernel(%x: !ascendc.global_tensor<64xf32>) {
  return
}
