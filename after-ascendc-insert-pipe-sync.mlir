module attributes {ascendc.alloc_strategy = "static", ascendc.arch = "c220", ascendc.memory_consumed = {BT = 0 : i64, L0A = 0 : i64, L0B = 0 : i64, L0C = 0 : i64, L1 = 0 : i64, UB = 28928 : i64}} {
  func.func @softmax_tile(%arg0: !ascendc.global_tensor<?x128xf32> {tilekit.name = "x"}, %arg1: !ascendc.global_tensor<?x128xf32> {tilekit.name = "y"}, %arg2: index {tilekit.name = "row"}, %arg3: index {tilekit.name = "rows"}) -> !ascendc.global_tensor<?x128xf32> attributes {pto.kind = #pto.kind<incore>} {
    %0 = ascendc.global_tensor.dim %arg0, 0 : <?x128xf32>
    %1 = arith.subi %0, %arg2 : index
    %2 = arith.minsi %arg3, %1 : index
    %c128 = arith.constant 128 : index
    %3 = arith.muli %arg2, %c128 : index
    %4 = ascendc.global_tensor.subindex %arg0[%3] : <?x128xf32> to <?x128xf32>
    %5 = ascendc.local_tensor vecin addr 0 size 8192 : <16x128xf32>
    %c128_0 = arith.constant 128 : index
    %6 = arith.muli %2, %c128_0 : index
    ascendc.data_copy %5, %4, %6 : !ascendc.local_tensor<16x128xf32>, !ascendc.global_tensor<?x128xf32>
    %7 = ascendc.local_tensor veccalc addr 8192 size 8192 : <16x128xf32>
    %8 = ascendc.reinterpret_cast %7 : <16x128xf32> to <16x1xf32>
    %c0 = arith.constant 0 : index
    %9 = arith.cmpi sgt, %2, %c0 : index
    %10 = ascendc.local_tensor veccalc addr 16384 size 8192 : <16x128xf32>
    %11 = ascendc.reinterpret_cast %10 : <16x128xf32> to <4096xui8>
    scf.if %9 {
      ascendc.set_flag mte2 -> v, event 0
      ascendc.wait_flag mte2 -> v, event 0
      ascendc.reduce_max %8, %5 axis 1 rows %2 scratch %11 : <16x1xf32>, <16x128xf32>, !ascendc.local_tensor<4096xui8>
    }
    %12 = ascendc.local_tensor veccalc addr 24576 size 256 : <256xui8>
    ascendc.broadcast %10, %8 axis 1 scratch %12 : <16x128xf32>, <16x1xf32>, !ascendc.local_tensor<256xui8>
    %c2048 = arith.constant 2048 : index
    ascendc.set_flag mte2 -> v, event 0
    ascendc.wait_flag mte2 -> v, event 0
    ascendc.sub_l2 %10, %5, %10, %c2048 : <16x128xf32>, <16x128xf32>, <16x128xf32>
    %c2048_1 = arith.constant 2048 : index
    ascendc.exp_l2 %10, %10, %c2048_1 : <16x128xf32>, <16x128xf32>
    %13 = ascendc.reinterpret_cast %5 : <16x128xf32> to <16x1xf32>
    %c0_2 = arith.constant 0 : index
    %14 = arith.cmpi sgt, %2, %c0_2 : index
    %15 = ascendc.local_tensor veccalc addr 24832 size 4096 : <4096xui8>
    scf.if %14 {
      ascendc.reduce_sum %13, %10 axis 1 rows %2 scratch %15 : <16x1xf32>, <16x128xf32>, !ascendc.local_tensor<4096xui8>
    }
    %16 = ascendc.reinterpret_cast %12 : <256xui8> to <256xui8>
    ascendc.broadcast %7, %13 axis 1 scratch %16 : <16x128xf32>, <16x1xf32>, !ascendc.local_tensor<256xui8>
    %c2048_3 = arith.constant 2048 : index
    ascendc.div_l2 %7, %10, %7, %c2048_3 : <16x128xf32>, <16x128xf32>, <16x128xf32>
    %c128_4 = arith.constant 128 : index
    %17 = arith.muli %arg2, %c128_4 : index
    %18 = ascendc.global_tensor.subindex %arg1[%17] : <?x128xf32> to <?x128xf32>
    %c128_5 = arith.constant 128 : index
    %19 = arith.muli %2, %c128_5 : index
    ascendc.set_flag v -> mte3, event 0
    ascendc.wait_flag v -> mte3, event 0
    ascendc.data_copy %18, %7, %19 : !ascendc.global_tensor<?x128xf32>, !ascendc.local_tensor<16x128xf32>
    return %arg1 : !ascendc.global_tensor<?x128xf32>
  }
  func.func @softmax(%arg0: !ascendc.global_tensor<?x128xf32> {tilekit.name = "x"}, %arg1: !ascendc.global_tensor<?x128xf32> {tilekit.name = "y"}) -> !ascendc.global_tensor<?x128xf32> attributes {ascendc.host, pto.independent_items, pto.kind = #pto.kind<orchestration>} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %0 = ascendc.global_tensor.dim %arg0, 0 : <?x128xf32>
    %1 = scf.for %arg2 = %c0 to %0 step %c16 iter_args(%arg3 = %arg1) -> (!ascendc.global_tensor<?x128xf32>) {
      %2 = arith.subi %0, %arg2 : index
      %3 = arith.minui %2, %c16 : index
      %4 = func.call @softmax_tile(%arg0, %arg3, %arg2, %3) : (!ascendc.global_tensor<?x128xf32>, !ascendc.global_tensor<?x128xf32>, index, index) -> !ascendc.global_tensor<?x128xf32>
      scf.yield %4 : !ascendc.global_tensor<?x128xf32>
    }
    return %1 : !ascendc.global_tensor<?x128xf32>
  }
}
