// Broadcast in its form without a sharedTmpBuffer, which takes scratch
// from a TPipe that a static-tensor kernel does not create.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void broadcast(GM_ADDR x) {
  (void)x;
  AscendC::LocalTensor<float> wide(AscendC::TPosition::VECCALC, 0, 1024);
  AscendC::LocalTensor<float> column(AscendC::TPosition::VECCALC, 4096, 16);
  const uint32_t wideShape[2] = {16, 64}, columnShape[2] = {16, 1};
  AscendC::Broadcast<float, 2, 1>(wide, column, wideShape, columnShape);
}
