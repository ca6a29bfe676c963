// A hard event between pipes the chips do not synchronize (S -> MTE1):
// their HardEvent has no such member.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void event(GM_ADDR x) {
  (void)x;
  AscendC::SetFlag<AscendC::HardEvent::S_MTE1>(0);
}
