// A mixed kernel whose cube group comes first in program order but waits
// for the vector core: the vector core doubles x into y and signals; the
// cube reads y into L1 and answers; only then does the vector core write
// z. Run in program order the cube's wait would never end.
func.func @handshake(%x: !ascendc.global_tensor<256xf32>,
                     %y: !ascendc.global_tensor<256xf32>,
                     %z: !ascendc.global_tensor<256xf32>) {
  %two = arith.constant 2.0 : f32
  %u = ascendc.local_tensor_auto vecin : !ascendc.local_tensor<256xf32>
  %d = ascendc.local_tensor_auto veccalc : !ascendc.local_tensor<256xf32>
  %l1 = ascendc.local_tensor_auto a1 : !ascendc.local_tensor<256xf32>
  ascendc.if_aic {
    ascendc.cross_core_wait_flag mte2, flag 0
    ascendc.data_copy %l1, %y : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
    ascendc.pipe_barrier all
    ascendc.cross_core_set_flag mte2, flag 1
  }
  ascendc.if_aiv {
    ascendc.data_copy %u, %x : !ascendc.local_tensor<256xf32>, !ascendc.global_tensor<256xf32>
    ascendc.pipe_barrier all
    ascendc.muls_l2 %d, %u, %two : !ascendc.local_tensor<256xf32>, !ascendc.local_tensor<256xf32>, f32
    ascendc.pipe_barrier all
    ascendc.data_copy %y, %d : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<256xf32>
    ascendc.pipe_barrier all
    ascendc.cross_core_set_flag mte2, flag 0
    ascendc.cross_core_wait_flag mte2, flag 1
    ascendc.data_copy %z, %d : !ascendc.global_tensor<256xf32>, !ascendc.local_tensor<256xf32>
  }
  return
}

// Each core waits for the other before setting its flag: a deadlock.
func.func @stuck(%x: !ascendc.global_tensor<256xf32>,
                 %y: !ascendc.global_tensor<256xf32>,
                 %z: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aic {
    ascendc.cross_core_wait_flag mte2, flag 0
    ascendc.cross_core_set_flag mte2, flag 1
  }
  ascendc.if_aiv {
    ascendc.cross_core_wait_flag mte2, flag 1
    ascendc.cross_core_set_flag mte2, flag 0
  }
  return
}

// The vector core waits for a flag the cube never sets.
func.func @forgotten(%x: !ascendc.global_tensor<256xf32>,
                     %y: !ascendc.global_tensor<256xf32>,
                     %z: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aic {
    ascendc.pipe_barrier all
  }
  ascendc.if_aiv {
    ascendc.cross_core_wait_flag mte2, flag 3
  }
  return
}
