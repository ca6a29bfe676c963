/*===- CpuEntryABI.h - The entry of a kernel built for the CPU ---*- C -*-===*
 *
 * `tilekit run --compiled` builds a kernel's emitted C++ with an entry,
 *
 *   int tilekit_entry(void **args, int64_t block, int64_t blocks,
 *                     struct tilekit_cpu_limits *limits, char *error,
 *                     size_t error_size);
 *
 * (lib/Conversion/AscendCToEmitC emits it, runtime/ascendc-cpu runs it),
 * which runs one block and returns 0, or 1 with the fault in `error`:
 * "LOCATION\tLINE\tEARLIER LOCATION\tEARLIER LINE\tKIND\tMESSAGE", KIND
 * "stall" (a deadlock, a limit) or "fault". A launch kernel's object also
 * has
 *
 *   int tilekit_launch(void **args, int64_t *block,
 *                      struct tilekit_cpu_limits *limits, char *error,
 *                      size_t error_size);
 *
 * which runs the launch through the emitted host code (its tiling struct
 * filled from `args`, its launch function, ICPU_RUN_KF over all its
 * blocks) and, on a fault, sets `*block` to the block that stopped. A
 * kernel whose workspace has regions of run-time size also has
 *
 *   int64_t tilekit_workspace_bytes(void **args, int64_t blocks);
 *
 * the bytes its workspace takes for those arguments (the host code's
 * computation; the workspace slot is not read).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILEKIT_DRIVER_CPUENTRYABI_H
#define TILEKIT_DRIVER_CPUENTRYABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The run's limits, as the executor's --max-steps and --timeout: every
 * instruction counts one step, across the run's blocks and calls. */
struct tilekit_cpu_limits {
  uint64_t max_steps;  /* 0: none */
  uint64_t steps;      /* run so far; the entry adds the block's */
  int64_t deadline_ns; /* steady-clock time to stop at; 0: none */
};

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILEKIT_DRIVER_CPUENTRYABI_H */
