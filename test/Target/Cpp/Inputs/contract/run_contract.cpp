// Kernels that break the static-tensor contract at run time, each run as
// one block on the CPU stand-in; prints what the stand-in reports.
#include "kernel_operator.h"

#include <cstdio>
#include <string>

namespace {
void noInit() { AscendC::PipeBarrier<PIPE_ALL>(); }
void noFinalBarrier() {
  AscendC::InitSocState();
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
}
void reservedEvent() {
  AscendC::InitSocState();
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(6);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(6);
  AscendC::PipeBarrier<PIPE_ALL>();
}
void crossFlagPastRange() {
  AscendC::InitSocState();
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(16);
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag<0x2, PIPE_MTE2>(16);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}
// One bit per event: a second set before the wait of the first.
void setTwice() {
  AscendC::InitSocState();
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
  AscendC::PipeBarrier<PIPE_ALL>();
}
// A cross-core flag's counter holds 15 sets: the cube sets a 16th before
// the vector core's waits are ordered before it (whichever thread runs
// first, the count is the same).
void sixteenSets() {
  AscendC::InitSocState();
  if ASCEND_IS_AIC {
    for (int i = 0; i < 16; ++i)
      AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(0);
  }
  if ASCEND_IS_AIV {
    for (int i = 0; i < 16; ++i)
      AscendC::CrossCoreWaitFlag<0x2, PIPE_MTE2>(0);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}
void vectorTypeOnCube() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AscendC::InitSocState();
  AscendC::PipeBarrier<PIPE_ALL>();
}
void mixedOneToTwo() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::InitSocState();
  AscendC::PipeBarrier<PIPE_ALL>();
}
// 1:2: mode 2 reaches both vector cores from the cube and takes a set from
// each at the cube; on a vector core GetBlockIdx counts vector cores.
void oneToTwo() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::InitSocState();
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(0);
    AscendC::CrossCoreWaitFlag<0x2, PIPE_FIX>(1);
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag<0x2, PIPE_MTE3>(0);
    if (AscendC::GetBlockIdx() != 2 * 3 + AscendC::GetSubBlockIdx() ||
        AscendC::GetTaskRatio() != 2 || AscendC::GetSubBlockNum() != 2)
      AscendC::cpuFail("block index " + std::to_string(AscendC::GetBlockIdx()) +
                       " on sub-block " +
                       std::to_string(AscendC::GetSubBlockIdx()));
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(1);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}
// One vector core never sets the flag the cube waits for: in 1:2 the
// cube's wait takes a set from each.
void oneToTwoHalfSet() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::InitSocState();
  if ASCEND_IS_AIC {
    AscendC::CrossCoreWaitFlag<0x2, PIPE_FIX>(1);
  }
  if ASCEND_IS_AIV {
    if (AscendC::GetSubBlockIdx() == 0)
      AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(1);
  }
  AscendC::PipeBarrier<PIPE_ALL>();
}
void mixedOneToOne() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  AscendC::InitSocState();
  AscendC::PipeBarrier<PIPE_ALL>();
}
void keeps() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AscendC::InitSocState();
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(5);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(5);
  AscendC::PipeBarrier<PIPE_ALL>();
}
// A 16 x 128 f32 row maximum takes 16 rows x one repeat (64 f32) x 4 =
// 4096 bytes of scratch on C220 (GetReduceMaxMaxMinTmpSize).
void reduceWithScratch(uint32_t scratchBytes) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AscendC::InitSocState();
  AscendC::LocalTensor<float> wide(AscendC::TPosition::VECCALC, 0, 2048);
  AscendC::LocalTensor<float> column(AscendC::TPosition::VECCALC, 8192, 16);
  AscendC::LocalTensor<uint8_t> tmp(AscendC::TPosition::VECCALC, 8448,
                                    scratchBytes);
  const uint32_t shape[2] = {16, 128};
  AscendC::ReduceMax<float, AscendC::Pattern::Reduce::AR>(column, wide, tmp,
                                                          shape, true);
  AscendC::PipeBarrier<PIPE_ALL>();
}
void smallScratch() { reduceWithScratch(2048); }
void enoughScratch() { reduceWithScratch(4096); }
// C220's ReduceSum takes f32 only.
void halfSum() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AscendC::InitSocState();
  AscendC::LocalTensor<half> wide(AscendC::TPosition::VECCALC, 0, 1024);
  AscendC::LocalTensor<half> column(AscendC::TPosition::VECCALC, 4096, 16);
  AscendC::LocalTensor<uint8_t> tmp(AscendC::TPosition::VECCALC, 8192, 8192);
  const uint32_t shape[2] = {16, 64};
  AscendC::ReduceSum<half, AscendC::Pattern::Reduce::AR>(column, wide, tmp,
                                                         shape, true);
  AscendC::PipeBarrier<PIPE_ALL>();
}
// DataCopy by a count moves whole 32-byte blocks: three floats are not.
void partialBlock() {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AscendC::InitSocState();
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECCALC, 0, 8);
  AscendC::LocalTensor<float> b(AscendC::TPosition::VECCALC, 32, 8);
  AscendC::DataCopy(b, a, 3);
  AscendC::PipeBarrier<PIPE_ALL>();
}

void run(const char *name, AscendC::cpu::Cores cores, void (*kernel)(),
         int64_t block = 0, int64_t blocks = 1) {
  char error[512] = "";
  bool ok = AscendC::cpu::runBlock(cores, block, blocks, {}, kernel, nullptr,
                                   error, sizeof(error));
  // The fault's message is its last tab-separated field.
  const char *message = std::strrchr(error, '\t');
  std::printf("%s: %s\n", name, ok ? "ok" : message ? message + 1 : error);
}
} // namespace

int main() {
  using AscendC::cpu::Cores;
  run("no-init", Cores::Vector, noInit);
  run("no-final-barrier", Cores::Vector, noFinalBarrier);
  run("reserved-event", Cores::Vector, reservedEvent);
  run("cross-flag-16", Cores::Mixed, crossFlagPastRange);
  run("set-twice", Cores::Vector, setTwice);
  run("sixteen-sets", Cores::Mixed, sixteenSets);
  run("vector-type-on-cube", Cores::Cube, vectorTypeOnCube);
  run("mixed-1-2", Cores::Mixed, mixedOneToTwo);
  run("mixed-1-1", Cores::Mixed, mixedOneToOne);
  run("one-to-two", Cores::MixedOneToTwo, oneToTwo, 3, 4);
  run("one-to-two-half-set", Cores::MixedOneToTwo, oneToTwoHalfSet);
  run("one-to-one-on-two", Cores::MixedOneToTwo, mixedOneToOne);
  run("keeps", Cores::Vector, keeps);
  run("small-scratch", Cores::Vector, smallScratch);
  run("enough-scratch", Cores::Vector, enoughScratch);
  run("half-sum", Cores::Vector, halfSum);
  run("partial-block", Cores::Vector, partialBlock);
}
