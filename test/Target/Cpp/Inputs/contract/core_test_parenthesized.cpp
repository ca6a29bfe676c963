// `if (ASCEND_IS_AIC)`: on the device `if (constexpr(...))`, no C++.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void parenthesized(GM_ADDR x) {
  (void)x;
  if (ASCEND_IS_AIC) {
  }
}
