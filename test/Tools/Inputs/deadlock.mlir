// Kernels whose flags are never all answered.

// Each core waits for the other before setting its flag.
func.func @stuck(%y: !ascendc.global_tensor<256xf32>) {
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
func.func @forgotten(%y: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aic {
    ascendc.cross_core_set_flag mte2, flag 2
  }
  ascendc.if_aiv {
    ascendc.cross_core_wait_flag mte2, flag 2
    ascendc.cross_core_wait_flag mte2, flag 3
  }
  return
}

// The cube sets a flag the vector core never waits for.
func.func @unwaited(%y: !ascendc.global_tensor<256xf32>) {
  ascendc.if_aic {
    ascendc.cross_core_set_flag mte2, flag 4
  }
  ascendc.if_aiv {
    ascendc.pipe_barrier all
  }
  return
}

// A flag between two pipes of one core, set and never waited.
func.func @unwaited_event(%y: !ascendc.global_tensor<256xf32>) {
  ascendc.set_flag v -> mte3, event 1
  return
}
