module attributes {ascendc.arch = "c310"} {
  func.func @zero_rows(%arg0: !pto.tensor<8x64xf32> {tilekit.name = "x"}, %arg1: !pto.tensor<8x1xf32> {tilekit.name = "y"}, %arg2: index {tilekit.name = "n"}) -> !pto.tensor<8x1xf32> {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %0 = pto.tile.load %arg0[%c0, %c0] valid [%arg2, %c64] : !pto.tensor<8x64xf32> -> !pto.tile<8x64xf32, vec>
    %1 = pto.tile.row_max %0 : !pto.tile<8x64xf32, vec> -> !pto.tile<8x1xf32, vec>
    %2 = pto.tile.store %1, %arg1[%c0, %c0] : !pto.tile<8x1xf32, vec> -> !pto.tensor<8x1xf32>
    return %2 : !pto.tensor<8x1xf32>
  }
}
