// The forms of the core test the device compiles: `if ASCEND_IS_AIC {` and
// a comparison of g_coreType.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void forms(GM_ADDR x) {
  (void)x;
  AscendC::InitSocState();
  if ASCEND_IS_AIC {
  }
  if ASCEND_IS_AIV {
  }
  if (g_coreType == AscendC::AIC) {
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}
