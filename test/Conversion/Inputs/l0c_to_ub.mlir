// A fixpipe from L0C straight into UB: a C310 path, which a C220 AI core
// does not have (its cores meet in GM). For compile-runtime-tests.test.
func.func @l0c_ub(%y: !ascendc.global_tensor<256xf32>) {
  %acc = ascendc.local_tensor_auto co1 : !ascendc.local_tensor<16x16xf32>
  %ub = ascendc.local_tensor_auto vecin input : !ascendc.local_tensor<16x16xf32>
  ascendc.fixpipe %ub, %acc : !ascendc.local_tensor<16x16xf32>, !ascendc.local_tensor<16x16xf32>
  return
}
