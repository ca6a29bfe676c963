// ASCEND_IS_AIV as a value: on the device `bool v = constexpr(...)`.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void value(GM_ADDR x) {
  (void)x;
  bool vector = ASCEND_IS_AIV;
  (void)vector;
}
