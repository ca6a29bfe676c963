module attributes {ascendc.arch = "c310"} {
  func.func @zero_rows(%arg0: !ascendc.global_tensor<8x64xf32> {tilekit.name = "x"}, %arg1: !ascendc.global_tensor<8x1xf32> {tilekit.name = "y"}, %arg2: index {tilekit.name = "n"}) -> !ascendc.global_tensor<8x1xf32> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %0 = arith.subi %c8, %c0 : index
    %1 = arith.minsi %arg2, %0 : index
    %c64 = arith.constant 64 : index
    %2 = arith.muli %c0, %c64 : index
    %3 = ascendc.global_tensor.subindex %arg0[%2] : <8x64xf32> to <8x64xf32>
    %4 = ascendc.local_tensor_auto vecin : <8x64xf32>
    %c64_0 = arith.constant 64 : index
    %5 = arith.muli %1, %c64_0 : index
    ascendc.data_copy %4, %3, %5 : !ascendc.local_tensor<8x64xf32>, !ascendc.global_tensor<8x64xf32>
    %6 = ascendc.local_tensor_auto veccalc : <8x1xf32>
    ascendc.reduce_max %6, %4 axis 1 rows %1 : <8x1xf32>, <8x64xf32>
    %c1 = arith.constant 1 : index
    %7 = arith.muli %c0, %c1 : index
    %8 = ascendc.global_tensor.subindex %arg1[%7] : <8x1xf32> to <8x1xf32>
    %c1_1 = arith.constant 1 : index
    %9 = arith.muli %1, %c1_1 : index
    ascendc.data_copy %8, %6, %9 : !ascendc.global_tensor<8x1xf32>, !ascendc.local_tensor<8x1xf32>
    return %arg1 : !ascendc.global_tensor<8x1xf32>
  }
}
