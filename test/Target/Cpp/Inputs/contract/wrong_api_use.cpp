// Calls the public API wrongly: tensors of two element types in one Add,
// the host's parenthesized core test, an event between pipes the chip does
// not pair, a copy without its count.
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void wrong(GM_ADDR x) {
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECCALC, 0, 64);
  AscendC::LocalTensor<half> b(AscendC::TPosition::VECCALC, 256, 64);
  AscendC::Add(a, a, b, 64);
  if (ASCEND_IS_AIC) {
  }
  AscendC::SetFlag<AscendC::HardEvent::S_MTE1>(0);
  AscendC::DataCopy(a, a);
}
