//===- kernel_operator.h - The Ascend C API tilekit emits, for the CPU ----===//
//
// The subset of the Ascend C kernel API that `tilekit compile --emit=cpp`
// calls, declared as Ascend C declares it (names, templates, parameter
// structs; docs/emit-cpp.md cites the API pages), so that emitted kernels
// compile on a CPU with any C++17 compiler. This file states the interface
// only: the emitted code is checked against it (test/Target/Cpp), and the
// CPU implementation of each call, with positions as byte arrays, cores as
// threads and flags as semaphores, is what comes next (docs/emit-cpp.md,
// "Running the emitted code").
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_RUNTIME_ASCENDC_CPU_KERNEL_OPERATOR_H
#define TILEKIT_RUNTIME_ASCENDC_CPU_KERNEL_OPERATOR_H

#include <cstddef>
#include <cstdint>

// Function and address-space qualifiers of the device compiler: nothing on
// the CPU.
#define __global__
#define __aicore__
#define __gm__

using GM_ADDR = uint8_t *;
using half = _Float16;
using bfloat16_t = __bf16;

enum pipe_t {
  PIPE_S,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_FIX,
  PIPE_ALL,
};

// C310 buffer ids (mode 0: blocking).
void get_buf(pipe_t pipe, uint64_t bufId, uint64_t mode);
void rls_buf(pipe_t pipe, uint64_t bufId, uint64_t mode);

namespace AscendC {

// The core a kernel's code runs on: a mixed kernel branches on it.
bool IsCubeCore();
int64_t GetBlockIdx();
int64_t GetBlockNum();
int64_t GetSubBlockIdx();

enum class TPosition {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
};

enum class HardEvent {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_V,
  V_FIX,
  MTE3_FIX,
  S_M,
  S_MTE1,
  MTE1_S,
  S_FIX,
};

enum class RoundMode {
  CAST_NONE,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD,
};

enum class CMPMODE { LT, GT, EQ, LE, GE, NE };

template <typename T> class GlobalTensor {
public:
  void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize = 0);
  GlobalTensor operator[](uint64_t offset) const;
  __gm__ T *GetPhyAddr() const;

private:
  __gm__ T *address = nullptr;
};

template <typename T> class LocalTensor {
public:
  LocalTensor() = default;
  // Static tensor programming: a tensor at a planned address.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize);
  template <typename U> LocalTensor<U> ReinterpretCast() const;

private:
  TPosition position = TPosition::VECCALC;
  uint32_t address = 0, size = 0;
};

// Data movement.
struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};
template <typename T> struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
};
struct Nd2NzParams {
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
              uint32_t count);
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
              uint32_t count);
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
              uint32_t count);
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
              const DataCopyParams &params);
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
              const Nd2NzParams &params);
template <typename T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                 const DataCopyExtParams &params,
                 const DataCopyPadExtParams<T> &padParams);
template <typename T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                 const DataCopyExtParams &params);

// The cube.
struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint16_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint8_t sid = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};
struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  bool cmatrixInitVal = true;
};
struct FixpipeParamsV220 {
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
};
struct FixpipeConfig {
  int format;
};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {1};

template <typename T>
void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
              const LoadData2DParams &params);
template <typename C, typename A, typename B>
void Mmad(const LocalTensor<C> &dst, const LocalTensor<A> &a,
          const LocalTensor<B> &b, const MmadParams &params);
template <typename C, typename A, typename B, typename Bias>
void Mmad(const LocalTensor<C> &dst, const LocalTensor<A> &a,
          const LocalTensor<B> &b, const LocalTensor<Bias> &bias,
          const MmadParams &params);
template <typename D, typename S, const FixpipeConfig &config>
void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src,
             const FixpipeParamsV220 &params);
template <typename D, typename S, const FixpipeConfig &config>
void Fixpipe(const LocalTensor<D> &dst, const LocalTensor<S> &src,
             const FixpipeParamsV220 &params);

// The vector unit: level 2 (a count) and level 0 (mask, repeat, strides).
struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dstBlkStride, uint16_t srcBlkStride,
                    uint8_t dstRepStride, uint8_t srcRepStride)
      : dstBlkStride(dstBlkStride), srcBlkStride(srcBlkStride),
        dstRepStride(dstRepStride), srcRepStride(srcRepStride) {}
  uint16_t dstBlkStride = 1, srcBlkStride = 1;
  uint8_t dstRepStride = 8, srcRepStride = 8;
};
struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dstBlkStride, uint8_t src0BlkStride,
                     uint8_t src1BlkStride, uint8_t dstRepStride,
                     uint8_t src0RepStride, uint8_t src1RepStride)
      : dstBlkStride(dstBlkStride), src0BlkStride(src0BlkStride),
        src1BlkStride(src1BlkStride), dstRepStride(dstRepStride),
        src0RepStride(src0RepStride), src1RepStride(src1RepStride) {}
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
  uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
};

#define TILEKIT_UNARY(Name)                                                    \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const int32_t &count);                                             \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            uint64_t mask, const uint8_t repeatTimes,                          \
            const UnaryRepeatParams &params);                                  \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            uint64_t mask[2], const uint8_t repeatTimes,                       \
            const UnaryRepeatParams &params);
#define TILEKIT_BINARY(Name)                                                   \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, const int32_t &count);                 \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, uint64_t mask,                         \
            const uint8_t repeatTimes, const BinaryRepeatParams &params);      \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, uint64_t mask[2],                      \
            const uint8_t repeatTimes, const BinaryRepeatParams &params);
#define TILEKIT_SCALAR(Name)                                                   \
  template <typename T, typename U>                                            \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, const int32_t &count);                            \
  template <typename T, typename U>                                            \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, uint64_t mask, const uint8_t repeatTimes,         \
            const UnaryRepeatParams &params);                                  \
  template <typename T, typename U>                                            \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, uint64_t mask[2], const uint8_t repeatTimes,      \
            const UnaryRepeatParams &params);

TILEKIT_UNARY(Abs)
TILEKIT_UNARY(Exp)
TILEKIT_UNARY(Ln)
TILEKIT_UNARY(Sqrt)
TILEKIT_UNARY(Rsqrt)
TILEKIT_UNARY(Reciprocal)
TILEKIT_UNARY(Relu)
TILEKIT_UNARY(Not)
TILEKIT_BINARY(Add)
TILEKIT_BINARY(Sub)
TILEKIT_BINARY(Mul)
TILEKIT_BINARY(Div)
TILEKIT_BINARY(Max)
TILEKIT_BINARY(Min)
TILEKIT_BINARY(And)
TILEKIT_BINARY(Or)
TILEKIT_SCALAR(Adds)
TILEKIT_SCALAR(Muls)
TILEKIT_SCALAR(Maxs)
TILEKIT_SCALAR(Mins)
#undef TILEKIT_UNARY
#undef TILEKIT_BINARY
#undef TILEKIT_SCALAR

template <typename T, typename U>
void Duplicate(const LocalTensor<T> &dst, const U &scalar,
               const int32_t &count);
template <typename T, typename U>
void Duplicate(const LocalTensor<T> &dst, const U &scalar, uint64_t mask,
               const uint8_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride);
template <typename T, typename U>
void Duplicate(const LocalTensor<T> &dst, const U &scalar, uint64_t mask[2],
               const uint8_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride);
template <typename D, typename S>
void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src,
          const RoundMode &round, const uint32_t count);
template <typename D, typename S>
void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src,
          const RoundMode &round, uint64_t mask, const uint8_t repeatTimes,
          const UnaryRepeatParams &params);
template <typename D, typename S>
void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src,
          const RoundMode &round, uint64_t mask[2], const uint8_t repeatTimes,
          const UnaryRepeatParams &params);
template <typename U, typename T>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
             const LocalTensor<T> &src1, CMPMODE mode, uint32_t count);
template <typename U, typename T>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
             const LocalTensor<T> &src1, CMPMODE mode, uint64_t mask,
             uint8_t repeatTimes, const BinaryRepeatParams &params);
template <typename U, typename T>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
             const LocalTensor<T> &src1, CMPMODE mode, uint64_t mask[2],
             uint8_t repeatTimes, const BinaryRepeatParams &params);

// Advanced API: broadcasts and reductions of 2-d tensors.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]);
namespace Pattern::Reduce {
struct AR {};
struct RA {};
} // namespace Pattern::Reduce
#define TILEKIT_REDUCE(Name)                                                   \
  template <typename T, class pattern, bool isReuseSource = false>             \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const uint32_t srcShape[], bool srcInnerPad);
TILEKIT_REDUCE(ReduceSum)
TILEKIT_REDUCE(ReduceMax)
TILEKIT_REDUCE(ReduceMin)
TILEKIT_REDUCE(ReduceProd)
#undef TILEKIT_REDUCE

// Synchronization.
template <HardEvent event> void SetFlag(int32_t eventID);
template <HardEvent event> void WaitFlag(int32_t eventID);
template <pipe_t pipe> void PipeBarrier();
template <uint8_t modeId, pipe_t pipe> void CrossCoreSetFlag(uint16_t flagId);
template <uint8_t modeId, pipe_t pipe> void CrossCoreWaitFlag(uint16_t flagId);

// Debugging.
void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t dumpSize);
template <typename... Args> void printf(const char *format, Args... args);
template <typename T>
void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize);

} // namespace AscendC

#define ASCEND_IS_AIC (AscendC::IsCubeCore())
#define ASCEND_IS_AIV (!AscendC::IsCubeCore())

// Kernel assertions stop the kernel with the message.
void assert(bool condition, const char *message);

#endif // TILEKIT_RUNTIME_ASCENDC_CPU_KERNEL_OPERATOR_H
