// A vector-core kernel written at the AscendC level: y = relu(2 x + 1) over
// 1024 f32 elements, 256 at a time. It says nothing about synchronization:
// the pipes that load (MTE2), compute (V) and store (MTE3) run at once, so
// as written it races, and `tilekit run` says where. Either pipeline orders
// the pipes (C220 with set/wait flags, C310 with buffer ids):
//
//   tilekit-opt examples/ascendc/scale_relu.mlir -ascendc-c220-pipeline -o k.mlir
//   tilekit run k.mlir --input arg0=x.npy --input arg1=zeros:1024:f32 --output arg1=y.npy
module attributes {ascendc.arch = "c220"} {
  func.func @scale_relu(%x: !ascendc.global_tensor<1024xf32>,
                        %y: !ascendc.global_tensor<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    scf.for %off = %c0 to %c1024 step %c256 {
      %xin = ascendc.global_tensor.subindex %x[%off] : !ascendc.global_tensor<1024xf32> to !ascendc.global_tensor<1024xf32>
      %yout = ascendc.global_tensor.subindex %y[%off] : !ascendc.global_tensor<1024xf32> to !ascendc.global_tensor<1024xf32>
      %in = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<256xf32>
      %t = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
      %out = ascendc.local_tensor_auto vecout : !ascendc.local_tensor<256xf32>
      ascendc.data_copy %in, %xin : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<1024xf32>
      ascendc.muls_l2 %t, %in, %two : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, f32
      ascendc.adds_l2 %t, %t, %one : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, f32
      ascendc.relu_l2 %out, %t : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>
      ascendc.data_copy %yout, %out : !ascendc.global_tensor<1024xf32>, !ascendc.local_tensor<256xf32>
    }
    return
  }
}
