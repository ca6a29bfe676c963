// Mixed kernels whose cross-core flags can never all be answered.

// Each core waits for the other before setting its flag.
func.func @stuck(%y: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aic {
    ascendc.cross_core_wait_flag s, flag 0
    ascendc.cross_core_set_flag s, flag 1
  }
  ascendc.if_aiv {
    ascendc.cross_core_wait_flag s, flag 1
    ascendc.cross_core_set_flag s, flag 0
  }
  return
}

// The vector core waits for a flag the cube never sets.
func.func @forgotten(%y: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aic {
    ascendc.cross_core_set_flag s, flag 2
  }
  ascendc.if_aiv {
    ascendc.cross_core_wait_flag s, flag 2
    ascendc.cross_core_wait_flag s, flag 3
  }
  return
}
