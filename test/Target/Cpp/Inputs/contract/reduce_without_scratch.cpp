// ReduceMax in its form without a sharedTmpBuffer (scratch from a TPipe).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void reduce(GM_ADDR x) {
  (void)x;
  AscendC::LocalTensor<float> wide(AscendC::TPosition::VECCALC, 0, 1024);
  AscendC::LocalTensor<float> column(AscendC::TPosition::VECCALC, 4096, 16);
  const uint32_t shape[2] = {16, 64};
  AscendC::ReduceMax<float, AscendC::Pattern::Reduce::AR>(column, wide, shape,
                                                          true);
}
