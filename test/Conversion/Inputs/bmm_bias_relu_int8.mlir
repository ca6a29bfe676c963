// The int8 form of a batched matmul + bias + ReLU as one mixed kernel:
// Y[b] = relu(X[b] @ W[b] + bias) for int8 X, W and an int32 bias,
// accumulated exactly in int32. The cube core walks the batch, adds the
// bias in the mmad and pushes each product to the vector lanes (split 1:
// 32 rows each), which apply ReLU and store. X, W and Y are 3-d tensors;
// each in-core tile is one matrix of the batch.

func.func @bmm_relu_aic(%x: !pto.tensor<?x64x64xi8>, %w: !pto.tensor<?x64x64xi8>,
                        %bias: !pto.tensor<1x64xi32>, %y: !pto.tensor<?x64x64xi32>)
    attributes {pto.kind = #pto.kind<aic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  pto.system.aic_initialize_pipe 0 to_aiv slot_num 2 slot_size 16384
  %batch = pto.tensor.dim %x, 0 : !pto.tensor<?x64x64xi8>
  %t1 = pto.tile.load %bias[%c0, %c0] : !pto.tensor<1x64xi32> -> !pto.tile<1x64xi32, mat>
  %tb = pto.tile.move %t1 : !pto.tile<1x64xi32, mat> -> !pto.tile<1x64xi32, bias>
  scf.for %b = %c0 to %batch step %c1 {
    %x1 = pto.tile.load %x[%b, %c0, %c0] : !pto.tensor<?x64x64xi8> -> !pto.tile<64x64xi8, mat>
    %w1 = pto.tile.load %w[%b, %c0, %c0] : !pto.tensor<?x64x64xi8> -> !pto.tile<64x64xi8, mat>
    %xl = pto.tile.move %x1 : !pto.tile<64x64xi8, mat> -> !pto.tile<64x64xi8, left>
    %wr = pto.tile.move %w1 : !pto.tile<64x64xi8, mat> -> !pto.tile<64x64xi8, right>
    %p = pto.tile.matmul_bias %xl, %wr, %tb
        : !pto.tile<64x64xi8, left>, !pto.tile<64x64xi8, right>, !pto.tile<1x64xi32, bias> -> !pto.tile<64x64xi32, acc>
    pto.tile.tpush_to_aiv %p split 1 : !pto.tile<64x64xi32, acc>
  }
  return
}

func.func @bmm_relu_aiv(%x: !pto.tensor<?x64x64xi8>, %w: !pto.tensor<?x64x64xi8>,
                        %bias: !pto.tensor<1x64xi32>, %y: !pto.tensor<?x64x64xi32>)
    attributes {pto.kind = #pto.kind<aiv>, pto.split = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  pto.system.aiv_initialize_pipe 0 to_aiv slot_num 2 slot_size 16384
  %batch = pto.tensor.dim %x, 0 : !pto.tensor<?x64x64xi8>
  %lane = pto.tile.get_subblock_idx
  %row = arith.muli %lane, %c32 : index
  scf.for %b = %c0 to %batch step %c1 {
    %r = pto.tile.tpop_from_aic split 1 : !pto.tile<32x64xi32, vec>
    %act = pto.tile.relu %r : !pto.tile<32x64xi32, vec>
    pto.tile.store %act, %y[%b, %row, %c0] : !pto.tile<32x64xi32, vec> -> !pto.tensor<?x64x64xi32>
  }
  return
}

func.func @bmm_relu(%x: !pto.tensor<?x64x64xi8>, %w: !pto.tensor<?x64x64xi8>,
                    %bias: !pto.tensor<1x64xi32>, %y: !pto.tensor<?x64x64xi32>)
    attributes {pto.kind = #pto.kind<group>, pto.split = 1 : i32} {
  return
}
