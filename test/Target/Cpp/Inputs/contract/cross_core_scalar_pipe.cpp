// A cross-core flag on PIPE_S, which CrossCoreSetFlag's page excludes.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scalar_pipe(GM_ADDR x) {
  (void)x;
  AscendC::CrossCoreSetFlag<0x2, PIPE_S>(1);
}
