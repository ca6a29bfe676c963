//===- kernel_operator.h - The Ascend C API tilekit emits, on the CPU -----===//
//
// The subset of the Ascend C kernel API that `tilekit compile --emit=cpp`
// calls, declared as Ascend C declares it (names, templates, parameter
// structs; docs/emit-cpp.md cites the API pages), so that emitted kernels
// compile on a CPU with any C++17 compiler, and implemented for the CPU
// where tilekit runs the emitted code (docs/emit-cpp.md):
// each core's buffers are byte arrays at the planned addresses, the vector
// unit computes as the executor does (f32 arithmetic, one rounding into the
// element type, the same exp), the cube keeps its operands in the fractal
// layouts the machine uses and sums products in f32, and a block's cube and
// vector core are two threads with cross-core flags as counting semaphores
// between them. A core runs its instructions in order (the flags between
// its own pipes hold trivially). A fault (an access past a buffer, a
// cross-core deadlock) stops the kernel and is reported by its entry.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_RUNTIME_ASCENDC_CPU_KERNEL_OPERATOR_H
#define TILEKIT_RUNTIME_ASCENDC_CPU_KERNEL_OPERATOR_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// The executor's own arithmetic (max/min with their NaN and signed-zero
// rules, exp as the vector unit computes it): one definition for both.
#include "tilekit/Driver/CpuEntryABI.h"
#include "tilekit/Interp/MachineArith.h"
#include "tilekit/Machine/ApiScratch.h"
#include "tilekit/Support/HalfFloat.h"
#include "tilekit/Support/VectorMath.h"

#include "happens_before.h"

// Function and address-space qualifiers of the device compiler: nothing on
// the CPU.
#define __global__
#define __aicore__
#define __gm__

using GM_ADDR = uint8_t *;
using half = _Float16;
using bfloat16_t = __bf16;

/// The kind of the core running (AscendC::AIC or AIV; MIX, 0, outside a
/// kernel run): on the device a constant of the core's compilation, here
/// the thread's, set as its core starts. Kernels test it as
/// `if (g_coreType == AscendC::AIC)`.
inline thread_local int32_t g_coreType = 0;

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

namespace AscendC {

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

/// The state of the core running the calling thread: its block, its
/// buffers (byte arrays sized as the largest machine's) and its kind.
/// The limits of a run (`tilekit run --compiled --max-steps/--timeout`),
/// shared by the block's threads: instructions run so far (across the
/// run's blocks and calls) against the step limit, and the deadline.
struct StepBudget {
  std::atomic<uint64_t> steps{0};
  uint64_t maxSteps = 0; // 0: none
  std::chrono::steady_clock::time_point deadline;
  bool timed = false;
};

struct CpuCore {
  /// Whether this thread probes a kernel's type rather than running it
  /// (runLaunch's mixedCores).
  bool probing = false;
  /// The block's ordering model, shared with the other core's thread.
  cpu::HappensBefore *model = nullptr;
  /// The run's limits (null outside a --compiled build's run).
  StepBudget *budget = nullptr;
  /// Whether the block has a cube and a vector thread.
  bool mixed = false;
  /// Whether the kernel has called InitSocState (static tensor programming
  /// calls it before any instruction).
  bool socInitialized = false;
  /// Whether an instruction has run since the last PipeBarrier<PIPE_ALL>
  /// (a kernel returns with none in flight).
  bool inFlight = false;
  /// The instruction being run: its MLIR location and emitted line.
  cpu::Origin at;
  bool cube = false;
  /// The element type of SetAtomicAdd<T>() (cpu::typeTag<T>) while
  /// transfers into GM add to it; null while they overwrite it.
  const void *atomicAdd = nullptr;
  int64_t block = 0, blocks = 1, subBlock = 0;
  /// Vector cores per cube: 2 in a 1:2 kernel, else 1.
  int64_t taskRatio = 1;
  /// On the cube core of a mixed block: the vector core, whose UB the
  /// cube's copies into UB write (950's L1 -> UB and L0C -> UB paths).
  CpuCore *vectorCore = nullptr;
  std::vector<uint8_t> ub = std::vector<uint8_t>(253952);
  std::vector<uint8_t> l1 = std::vector<uint8_t>(524288);
  std::vector<uint8_t> l0a = std::vector<uint8_t>(65536);
  std::vector<uint8_t> l0b = std::vector<uint8_t>(65536);
  std::vector<uint8_t> l0c = std::vector<uint8_t>(262144);
  std::vector<uint8_t> bias = std::vector<uint8_t>(4096);

  std::vector<uint8_t> &buffer(TPosition position) {
    switch (position) {
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
      return l1;
    case TPosition::A2:
      return l0a;
    case TPosition::B2:
      return l0b;
    case TPosition::C2:
      return bias;
    case TPosition::CO1:
      return l0c;
    default:
      // A cube's copy into UB in a 1:2 block would name one of two vector
      // cores, which the API's copies here do not.
      if (cube && mixed && taskRatio == 2)
        throw cpu::KernelFault{"copies into UB from the cube of a 1:2 "
                               "block, whose two vector cores' UBs this "
                               "runtime does not tell apart",
                               at};
      return vectorCore ? vectorCore->ub : ub;
    }
  }
};

/// What a probe of a mixed kernel's type found (mixedCores): the
/// KERNEL_TASK_TYPE_DEFAULT value, or none when the kernel did something
/// else first.
struct KernelTypeProbe {
  int type;
  bool declared;
};
/// This thread's core, unchecked.
inline CpuCore &threadCore() {
  static thread_local CpuCore core;
  return core;
}
/// Whether this thread is probing a kernel's type rather than running it.
inline bool &probingKernelType() { return threadCore().probing; }

inline CpuCore &currentCore() {
  CpuCore &core = threadCore();
  // A probe stops at the kernel's first instruction.
  if (core.probing)
    throw KernelTypeProbe{0, false};
  return core;
}

/// Stops the kernel: what the machine would not do, or what is not
/// modelled here.
[[noreturn]] inline void cpuFail(const std::string &what) {
  throw cpu::KernelFault{what, currentCore().at};
}

/// The buffer a position is in (Machine.def's TILEKIT_POSITION).
inline cpu::Buffer bufferOf(TPosition position) {
  switch (position) {
  case TPosition::A1:
  case TPosition::B1:
  case TPosition::C1:
    return cpu::Buffer::L1;
  case TPosition::A2:
    return cpu::Buffer::L0A;
  case TPosition::B2:
    return cpu::Buffer::L0B;
  case TPosition::C2:
    return cpu::Buffer::Bias;
  case TPosition::CO1:
    return cpu::Buffer::L0C;
  case TPosition::GM:
    return cpu::Buffer::GM;
  default:
    return cpu::Buffer::UB;
  }
}

// The core kinds (kernel_macros.h); on the device g_coreType is a
// constant of each core's compilation, here the running core's.
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
// On a vector core GetBlockIdx counts the vector cores: block x ratio +
// sub-block (the ratio is 2 in a 1:2 kernel; asc-devkit's dav_c220
// kernel_operator_sys_var_impl.h).
inline int64_t GetTaskRatio() {
  return currentCore().cube ? 1 : currentCore().taskRatio;
}
inline int64_t GetSubBlockNum() { return GetTaskRatio(); }
inline int64_t GetBlockIdx() {
  const CpuCore &core = currentCore();
  return core.cube ? core.block : core.block * core.taskRatio + core.subBlock;
}
inline int64_t GetBlockNum() { return currentCore().blocks; }
inline int64_t GetSubBlockIdx() { return currentCore().subBlock; }

// The hard events between two pipes of a core, SRC_DST: those the chips
// have (Machine.def), no others.
enum class HardEvent {
#define TILEKIT_HARD_EVENT(SRC, DST) SRC##_##DST,
#include "tilekit/Machine/Machine.def"
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

namespace cpu {
/// The GM elements an instruction touches from a tensor's view on: `rows`
/// rows of `width` elements, `pitch` elements apart (width < 0: it is not
/// known, the whole buffer).
struct GmRows {
  int64_t width = -1, rows = 1, pitch = 0;
};
} // namespace cpu

template <typename T> class GlobalTensor {
public:
  void SetGlobalBuffer(__gm__ T *buffer, uint64_t bufferSize = 0) {
    (void)bufferSize;
    address = buffer;
    root = buffer;
  }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor view = *this;
    view.address = address + offset;
    return view;
  }
  __gm__ T *GetPhyAddr() const { return address; }
  /// What the race model names: the rows of elements `span` gives from
  /// the view on, or (none) all of the buffer set.
  cpu::Storage storage(cpu::GmRows span = {}) const {
    if (span.width < 0)
      return {root};
    int64_t bytes = sizeof(T);
    int64_t begin = reinterpret_cast<const char *>(address) -
                    static_cast<const char *>(root);
    return {root,
            -1,
            begin,
            begin + std::max<int64_t>(span.width, 1) * bytes,
            0,
            std::max<int64_t>(span.rows, 1),
            span.pitch * bytes};
  }

private:
  __gm__ T *address = nullptr;
  const void *root = nullptr;
};

template <typename T> class LocalTensor {
public:
  LocalTensor() = default;
  // Static tensor programming: a tensor at a planned address.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize)
      : position(pos), address(addr), size(tileSize), rootBegin(addr),
        rootEnd(addr + tileSize * sizeof(T)) {}
  /// The tensor from element `offset` on.
  LocalTensor operator[](uint32_t offset) const {
    LocalTensor view = *this;
    view.address = address + offset * sizeof(T);
    view.size = size > offset ? size - offset : 0;
    return view;
  }
  template <typename U> LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> view(position, address,
                        static_cast<uint32_t>(size * sizeof(T) / sizeof(U)));
    view.rootBegin = rootBegin;
    view.rootEnd = rootEnd;
    return view;
  }
  /// What the race model names: the allocation the tensor was made at,
  /// whatever the view (as the executor names it).
  cpu::Storage storage() const {
    cpu::Buffer buffer = bufferOf(position);
    // Each vector core of a block has its own UB.
    unsigned owner = buffer == cpu::Buffer::UB && !currentCore().cube
                         ? unsigned(currentCore().subBlock)
                         : 0;
    return {nullptr, static_cast<int>(buffer), rootBegin, rootEnd, owner};
  }
  TPosition GetPosition() const { return position; }
  uint32_t GetSize() const { return size; }
  /// The element at `index` (an element past the tensor's buffer stops the
  /// kernel).
  T *at(int64_t index) const {
    std::vector<uint8_t> &buffer = currentCore().buffer(position);
    int64_t byte = address + index * static_cast<int64_t>(sizeof(T));
    if (byte < 0 || byte + static_cast<int64_t>(sizeof(T)) >
                        static_cast<int64_t>(buffer.size()))
      cpuFail("a local tensor access past its buffer");
    return reinterpret_cast<T *>(buffer.data() + byte);
  }
  /// Elements [0, count) of the tensor, checked once: for loops over many.
  T *span(int64_t count) const {
    std::vector<uint8_t> &buffer = currentCore().buffer(position);
    if (count < 0 || address + count * static_cast<int64_t>(sizeof(T)) >
                         static_cast<int64_t>(buffer.size()))
      cpuFail("a local tensor access past its buffer");
    return reinterpret_cast<T *>(buffer.data() + address);
  }
  /// The scalar unit's access to one element (PIPE_S).
  T GetValue(const uint32_t index) const;
  void SetValue(const uint32_t index, const T &value) const;
  /// The element `bytes` bytes into the tensor's buffer from its start.
  T *atByte(int64_t bytes) const {
    return at(0) + bytes / static_cast<int64_t>(sizeof(T));
  }

private:
  template <typename> friend class LocalTensor;
  TPosition position = TPosition::VECCALC;
  uint32_t address = 0, size = 0;
  int64_t rootBegin = 0, rootEnd = 0;
};

namespace cpu {
// A local tensor is named whole; a GM one by the rows of it the
// instruction touches (`span`; none: all).
template <typename T>
TensorUse reads(const LocalTensor<T> &tensor, GmRows = {}) {
  return {tensor.storage(), false};
}
template <typename T>
TensorUse reads(const GlobalTensor<T> &tensor, GmRows span = {}) {
  return {tensor.storage(span), false};
}
template <typename T>
TensorUse writes(const LocalTensor<T> &tensor, GmRows = {}) {
  return {tensor.storage(), true};
}
template <typename T>
TensorUse writes(const GlobalTensor<T> &tensor, GmRows span = {}) {
  return {tensor.storage(span), true};
}
/// The block's cores in its race model: the cube 0, vector core n 1 + n.
inline unsigned coreIndex() {
  return currentCore().cube ? 0 : 1 + unsigned(currentCore().subBlock);
}
/// An instruction is issued: in a kernel run, after InitSocState.
inline void issued() {
  CpuCore &core = currentCore();
  if (!core.model)
    return;
  if (!core.socInitialized)
    cpuFail("runs before AscendC::InitSocState(): a static-tensor kernel "
            "calls it first, or the core's state is what the previous "
            "kernel left");
  core.inFlight = true;
}
/// An instruction on `pipe` using `tensors`: the race model checks it.
inline void instruction(Pipe pipe, std::initializer_list<TensorUse> tensors) {
  issued();
  CpuCore &core = currentCore();
  if (core.model)
    core.model->access(coreIndex(), pipe, core.at, tensors);
}
/// The pipe moving data between two tensors (Machine.def's data paths).
inline Pipe copyPipe(Buffer from, Buffer to) {
#define TILEKIT_PATH(E, NAME, FROM, TO, PIPE, PUSH)                            \
  if (from == Buffer::FROM && to == Buffer::TO)                                \
    return Pipe::PIPE;
#include "tilekit/Machine/Machine.def"
#undef TILEKIT_PATH
  cpuFail(std::string("a copy from ") + bufferName(from) + " to " +
          bufferName(to) + ", which no data path of the machine makes");
}
template <typename D, typename S>
void copyInstruction(const D &dst, const S &src, Buffer to, Buffer from,
                     GmRows span = {}) {
  instruction(copyPipe(from, to), {reads(src, span), writes(dst, span)});
}

template <typename T> T fromF32(float value);
/// One address per element type, naming it without RTTI.
template <typename T> inline const char typeTag = 0;

/// Whether transfers of T into GM add to it (SetAtomicAdd<T>() in force)
/// rather than overwrite it; an atomic add of another type is an error.
template <typename T> bool addsIntoGm() {
  const void *atomic = currentCore().atomicAdd;
  if (!atomic)
    return false;
  if (atomic != &typeTag<T>)
    cpuFail("a transfer into GM adds atomically elements of another type "
            "than SetAtomicAdd's");
  return true;
}

/// A transfer's element into GM: it overwrites `*at`, or with `add` adds
/// to it, the sum rounded once into T (wrapped for integers), as the
/// executor's atomic store adds. (An f32 sum of two 16-bit floats rounded
/// again to 16 bits is their sum rounded once.)
template <typename T> void putGm(T *at, const T &value, bool add) {
  if (!add) {
    *at = value;
  } else if constexpr (std::is_integral_v<T>) {
    *at =
        static_cast<T>(static_cast<int64_t>(*at) + static_cast<int64_t>(value));
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    // Through the bits: a bfloat16_t value the compiler keeps in a
    // register it truncates with a runtime routine a kernel does not link.
    uint16_t old, added;
    std::memcpy(&old, at, sizeof(old));
    std::memcpy(&added, &value, sizeof(added));
    uint16_t sum = tilekit::f32ToBF16Bits(tilekit::bf16BitsToF32(old) +
                                          tilekit::bf16BitsToF32(added));
    std::memcpy(at, &sum, sizeof(sum));
  } else {
    *at = fromF32<T>(static_cast<float>(*at) + static_cast<float>(value));
  }
}
} // namespace cpu

/// Transfers into GM from here on add to what it holds (the sum in T).
template <typename T> void SetAtomicAdd() {
  currentCore().atomicAdd = &cpu::typeTag<T>;
}
/// Transfers into GM overwrite it again.
inline void SetAtomicNone() { currentCore().atomicAdd = nullptr; }

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

namespace cpu {
/// DataCopy by an element count moves whole 32-byte blocks: its count
/// must fill them (the API's calCount rule; DataCopyPad moves any bytes).
template <typename T> void requireWholeBlocks(uint32_t count) {
  if (count * sizeof(T) % 32 != 0)
    cpuFail("DataCopy of " + std::to_string(count) + " elements of " +
            std::to_string(sizeof(T)) +
            " bytes, not whole 32-byte blocks (DataCopyPad moves those)");
}
} // namespace cpu
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
              uint32_t count) {
  cpu::requireWholeBlocks<T>(count);
  cpu::copyInstruction(dst, src, bufferOf(dst.GetPosition()), cpu::Buffer::GM,
                       {count});
  std::copy_n(src.GetPhyAddr(), count, dst.span(count));
}
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
              uint32_t count) {
  cpu::requireWholeBlocks<T>(count);
  cpu::copyInstruction(dst, src, cpu::Buffer::GM, bufferOf(src.GetPosition()),
                       {count});
  const T *from = src.span(count);
  if (!cpu::addsIntoGm<T>()) {
    std::copy_n(from, count, dst.GetPhyAddr());
    return;
  }
  for (uint32_t i = 0; i < count; ++i)
    cpu::putGm(dst.GetPhyAddr() + i, from[i], true);
}
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
              uint32_t count) {
  cpu::requireWholeBlocks<T>(count);
  cpu::copyInstruction(dst, src, bufferOf(dst.GetPosition()),
                       bufferOf(src.GetPosition()));
  // Element by element, as the copy moves them (the two may overlap).
  T *out = dst.span(count);
  const T *in = src.span(count);
  for (uint32_t i = 0; i < count; ++i)
    out[i] = in[i];
}
namespace cpu {
/// A copy in 32-byte blocks: `blockCount` rows of `blockLen` blocks,
/// `srcStride` / `dstStride` blocks between them; `dst(i)` and `src(i)`
/// are the i-th elements of the two sides.
/// The rows a side of such a copy touches, `stride` blocks between them.
template <typename T>
GmRows blockRows(const DataCopyParams &params, int64_t stride) {
  int64_t perBlock = 32 / sizeof(T), row = params.blockLen * perBlock;
  return {row, params.blockCount, row + stride * perBlock};
}
template <typename T, typename Dst, typename Src>
void copyBlocks(const DataCopyParams &params, Dst dst, Src src) {
  int64_t perBlock = 32 / sizeof(T), row = params.blockLen * perBlock;
  for (int64_t r = 0; r < params.blockCount; ++r)
    for (int64_t c = 0; c < row; ++c)
      *dst(r * (row + params.dstStride * perBlock) + c) =
          *src(r * (row + params.srcStride * perBlock) + c);
}
} // namespace cpu
/// UB to UB (or, on 950, L1 to UB) in 32-byte blocks.
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src,
              const DataCopyParams &params) {
  cpu::copyInstruction(dst, src, bufferOf(dst.GetPosition()),
                       bufferOf(src.GetPosition()));
  cpu::copyBlocks<T>(
      params, [&](int64_t i) { return dst.at(i); },
      [&](int64_t i) { return src.at(i); });
}
/// L1 to GM (A2/A3) in 32-byte blocks.
template <typename T>
void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
              const DataCopyParams &params) {
  cpu::copyInstruction(dst, src, cpu::Buffer::GM, bufferOf(src.GetPosition()),
                       cpu::blockRows<T>(params, params.dstStride));
  cpu::copyBlocks<T>(
      params, [&](int64_t i) { return dst.GetPhyAddr() + i; },
      [&](int64_t i) { return src.at(i); });
}
/// GM rows into the cube's NZ layout in L1: element (r, c) of ND matrix
/// `nd` (`srcDValue` elements a row) lands in C0 column c / C0 (C0 = 32
/// bytes), `dstNzC0Stride` blocks apart, at row r (`dstNzNStride` blocks
/// apart).
template <typename T>
void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
              const Nd2NzParams &params) {
  const int64_t c0 = 32 / sizeof(T);
  // One matrix's rows, or every matrix's span.
  cpu::GmRows rows{params.dValue, params.nValue, params.srcDValue};
  if (params.ndNum > 1)
    rows = {(params.ndNum - 1) * params.srcNdMatrixStride +
            (params.nValue - 1) * params.srcDValue + params.dValue};
  cpu::copyInstruction(dst, src, bufferOf(dst.GetPosition()), cpu::Buffer::GM,
                       rows);
  if (!params.ndNum || !params.nValue || !params.dValue)
    return;
  auto at = [&](int64_t nd, int64_t r, int64_t c) {
    return nd * params.dstNzMatrixStride +
           (c / c0 * params.dstNzC0Stride + r * params.dstNzNStride) * c0 +
           c % c0;
  };
  // The last element is the farthest (the strides are unsigned).
  T *out =
      dst.span(at(params.ndNum - 1, params.nValue - 1, params.dValue - 1) + 1);
  for (int64_t nd = 0; nd < params.ndNum; ++nd)
    for (int64_t r = 0; r < params.nValue; ++r) {
      const T *row = src.GetPhyAddr() + nd * params.srcNdMatrixStride +
                     r * params.srcDValue;
      for (int64_t c = 0; c < params.dValue; ++c)
        out[at(nd, r, c)] = row[c];
    }
}
/// GM to UB: `blockCount` rows of `blockLen` bytes, `srcStride` bytes
/// between them in GM, each row padded to 32 bytes and `dstStride` blocks
/// between them in UB.
template <typename T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src,
                 const DataCopyExtParams &params,
                 const DataCopyPadExtParams<T> &padParams) {
  (void)padParams;
  int64_t cols = params.blockLen / sizeof(T);
  int64_t ubRow = (params.blockLen + 31) / 32 * 32 + params.dstStride * 32;
  int64_t gmRow = params.blockLen + params.srcStride;
  cpu::copyInstruction(
      dst, src, bufferOf(dst.GetPosition()), cpu::Buffer::GM,
      {cols, params.blockCount, gmRow / static_cast<int64_t>(sizeof(T))});
  for (int64_t r = 0; r < params.blockCount; ++r)
    for (int64_t c = 0; c < cols; ++c)
      *dst.atByte(r * ubRow + c * sizeof(T)) =
          src.GetPhyAddr()[(r * gmRow) / static_cast<int64_t>(sizeof(T)) + c];
}
/// UB to GM, the gaps the other way round.
template <typename T>
void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src,
                 const DataCopyExtParams &params) {
  int64_t cols = params.blockLen / sizeof(T);
  int64_t ubRow = (params.blockLen + 31) / 32 * 32 + params.srcStride * 32;
  int64_t gmRow = params.blockLen + params.dstStride;
  cpu::copyInstruction(
      dst, src, cpu::Buffer::GM, bufferOf(src.GetPosition()),
      {cols, params.blockCount, gmRow / static_cast<int64_t>(sizeof(T))});
  bool add = cpu::addsIntoGm<T>();
  for (int64_t r = 0; r < params.blockCount; ++r)
    for (int64_t c = 0; c < cols; ++c)
      cpu::putGm(dst.GetPhyAddr() +
                     (r * gmRow) / static_cast<int64_t>(sizeof(T)) + c,
                 *src.atByte(r * ubRow + c * sizeof(T)), add);
}

// The cube, in its fractal layouts: L1 holds NZ (columns of 16 x C0
// fractals), L0A zZ (16 x C0 fractals row by row), L0B zN (C0 x 16
// fractals row by row, each stored column by column), L0C NZ of 16 x 16
// f32 fractals. A fractal is 512 bytes; C0 is 32 bytes of elements.
struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint16_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint8_t sid = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};
struct LoadData2dTransposeParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
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

/// `repeatTimes` fractals of L1, `srcStride` fractals apart from fractal
/// `startIndex`, into consecutive fractals (`dstGap` between) of L0A/L0B;
/// `ifTranspose` transposes each 16 x 16 fractal of 2-byte elements.
template <typename T>
void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src,
              const LoadData2DParams &params) {
  cpu::copyInstruction(dst, src, bufferOf(dst.GetPosition()),
                       bufferOf(src.GetPosition()));
  constexpr int64_t fractal = 512 / sizeof(T);
  if (params.ifTranspose && sizeof(T) != 2)
    cpuFail("LoadData transposes fractals of 2-byte elements only");
  if (!params.repeatTimes)
    return;
  int64_t last = params.repeatTimes - 1;
  T *out = dst.span((last * (params.dstGap + 1) + 1) * fractal);
  const T *in =
      src.span((params.startIndex + last * params.srcStride + 1) * fractal);
  for (int64_t r = 0; r < params.repeatTimes; ++r) {
    const T *from = in + (params.startIndex + r * params.srcStride) * fractal;
    T *to = out + r * (params.dstGap + 1) * fractal;
    for (int64_t e = 0; e < fractal; ++e)
      to[e] = from[params.ifTranspose ? e % 16 * 16 + e / 16 : e];
  }
}

/// `repeatTimes` squares of L1 (`srcStride` squares apart from square
/// `startIndex`), each transposed: 1-byte elements join two consecutive
/// 16 x 32 fractals into a 32 x 32 square and write its transpose as two
/// 16 x 32 fractals, `dstFracGap` fractals between them; 2-byte elements
/// transpose one 16 x 16 fractal. Consecutive iterations' first fractals
/// are `dstGap` fractals apart.
template <typename T>
void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                           const LoadData2dTransposeParams &params) {
  static_assert(sizeof(T) <= 2, "LoadDataWithTranspose of 4-byte elements "
                                "is not modelled");
  cpu::copyInstruction(dst, src, bufferOf(dst.GetPosition()),
                       bufferOf(src.GetPosition()));
  constexpr int64_t fractal = 512 / sizeof(T), side = 32 / sizeof(T);
  constexpr int64_t halves = sizeof(T) == 1 ? 2 : 1;
  if (!params.repeatTimes)
    return;
  int64_t last = params.repeatTimes - 1;
  int64_t firstStep = (params.dstGap + 1) * fractal;
  int64_t secondAt = halves == 2 ? (params.dstFracGap + 1) * fractal : 0;
  T *out = dst.span(last * firstStep + secondAt + fractal);
  const T *in =
      src.span((params.startIndex + last * params.srcStride + 1) * side * side);
  for (int64_t r = 0; r < params.repeatTimes; ++r) {
    const T *square =
        in + (params.startIndex + r * params.srcStride) * side * side;
    for (int64_t i = 0; i < side; ++i) {
      T *row = out + r * firstStep + (i < 16 ? 0 : secondAt) + i % 16 * side;
      for (int64_t c = 0; c < side; ++c)
        row[c] = square[c * side + i];
    }
  }
}

namespace cpu {
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
/// Element (i, j) of an NZ matrix of 16 x `c0` fractals whose columns hold
/// `rows` rows.
inline int64_t nzIndex(int64_t i, int64_t j, int64_t rows, int64_t c0) {
  return (j / c0 * rows + i) * c0 + j % c0;
}

/// What the cube sums products of `A` in: int32 for integers (exactly),
/// f32 otherwise.
template <typename A>
using SumOf = std::conditional_t<std::is_integral_v<A>, int32_t, float>;

/// sum + left * right as the executor adds a product (lib/Interp/
/// OrderedGemm.h): one rounding (a fused multiply-add) for floats, wrapping
/// for integers.
template <typename Sum> Sum addProduct(Sum sum, Sum left, Sum right) {
  if constexpr (std::is_integral_v<Sum>)
    return static_cast<Sum>(static_cast<uint32_t>(sum) +
                            static_cast<uint32_t>(left) *
                                static_cast<uint32_t>(right));
  else
    return std::fma(left, right, sum);
}

template <typename C, typename A, typename B>
void mmad(const LocalTensor<C> &dst, const LocalTensor<A> &a,
          const LocalTensor<B> &b, const SumOf<A> *bias,
          const MmadParams &params) {
  static_assert(sizeof(A) == sizeof(B), "Mmad of different element sizes");
  constexpr int64_t c0 = 32 / sizeof(A);
  const int64_t m = params.m, n = params.n, k = params.k;
  const int64_t kFractals = ceilDiv(k, c0), nFractals = ceilDiv(n, 16);
  const int64_t rows = ceilDiv(m, 16) * 16;
  if (m == 0 || n == 0)
    return;
  // The operands out of their fractals, as rows of sums (the grids' ends
  // checked once).
  using Sum = SumOf<A>;
  const A *pa = a.span(ceilDiv(m, 16) * kFractals * 16 * c0);
  const B *pb = b.span(kFractals * nFractals * 16 * c0);
  C *pc = dst.span(ceilDiv(n, 16) * rows * 16);
  std::vector<Sum> lhs(m * k), rhs(k * n), sums(n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t kk = 0; kk < k; ++kk)
      lhs[i * k + kk] = static_cast<Sum>(
          pa[((i / 16 * kFractals + kk / c0) * 16 + i % 16) * c0 + kk % c0]);
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t j = 0; j < n; ++j)
      rhs[kk * n + j] = static_cast<Sum>(
          pb[((kk / c0 * nFractals + j / 16) * 16 + j % 16) * c0 + kk % c0]);
  for (int64_t i = 0; i < m; ++i) {
    // Each (i, j) starts from L0C (or zero, or the bias) and adds its k
    // products in order, so an L0C sum split over several Mmads is the
    // executor's one sum; the loop over j runs lanes side by side without
    // reordering any one sum.
    for (int64_t j = 0; j < n; ++j)
      sums[j] = !params.cmatrixInitVal
                    ? static_cast<Sum>(pc[nzIndex(i, j, rows, 16)])
                    : (bias ? bias[j] : Sum(0));
    for (int64_t kk = 0; kk < k; ++kk) {
      Sum left = lhs[i * k + kk];
      const Sum *right = &rhs[kk * n];
      for (int64_t j = 0; j < n; ++j)
        sums[j] = addProduct(sums[j], left, right[j]);
    }
    for (int64_t j = 0; j < n; ++j)
      pc[nzIndex(i, j, rows, 16)] = static_cast<C>(sums[j]);
  }
}

/// An accumulator's element in D: integers as they are, floats rounded to
/// nearest (bfloat16_t through its bits, see fromF32).
template <typename D, typename S> D convertTo(S value) {
  if constexpr (std::is_integral_v<D>)
    return static_cast<D>(value);
  else
    return fromF32<D>(static_cast<float>(value));
}

/// The `mSize` x `nSize` corner of an NZ matrix in L0C (`srcStride` rows
/// to a fractal column) as ND rows `dstStride` elements apart, converted.
template <typename D, typename S, typename Put>
void fixpipe(const LocalTensor<S> &src, const FixpipeParamsV220 &params,
             Put put) {
  for (int64_t i = 0; i < params.mSize; ++i)
    for (int64_t j = 0; j < params.nSize; ++j)
      put(i * params.dstStride + j,
          convertTo<D>(*src.at(nzIndex(i, j, params.srcStride, 16))));
}
} // namespace cpu

/// dst (+)= a x b over the m x k and k x n corners (cmatrixInitVal: the
/// products replace dst), summed in f32.
template <typename C, typename A, typename B>
void Mmad(const LocalTensor<C> &dst, const LocalTensor<A> &a,
          const LocalTensor<B> &b, const MmadParams &params) {
  cpu::instruction(cpu::Pipe::M,
                   {cpu::reads(a), cpu::reads(b), cpu::writes(dst)});
  cpu::mmad(dst, a, b, nullptr, params);
}
/// With a row of `n` biases added to fresh products.
template <typename C, typename A, typename B, typename Bias>
void Mmad(const LocalTensor<C> &dst, const LocalTensor<A> &a,
          const LocalTensor<B> &b, const LocalTensor<Bias> &bias,
          const MmadParams &params) {
  cpu::instruction(cpu::Pipe::M, {cpu::reads(a), cpu::reads(b),
                                  cpu::reads(bias), cpu::writes(dst)});
  std::vector<cpu::SumOf<A>> row(params.n);
  for (int64_t j = 0; j < params.n; ++j)
    row[j] = static_cast<cpu::SumOf<A>>(*bias.at(j));
  cpu::mmad(dst, a, b, params.isBias ? row.data() : nullptr, params);
}
template <typename D, typename S, const FixpipeConfig &config>
void Fixpipe(const GlobalTensor<D> &dst, const LocalTensor<S> &src,
             const FixpipeParamsV220 &params) {
  cpu::copyInstruction(dst, src, cpu::Buffer::GM, bufferOf(src.GetPosition()),
                       {params.nSize, params.mSize, params.dstStride});
  bool add = cpu::addsIntoGm<D>();
  cpu::fixpipe<D>(src, params, [&](int64_t index, const D &value) {
    cpu::putGm(dst.GetPhyAddr() + index, value, add);
  });
}
template <typename D, typename S, const FixpipeConfig &config>
void Fixpipe(const LocalTensor<D> &dst, const LocalTensor<S> &src,
             const FixpipeParamsV220 &params) {
  cpu::copyInstruction(dst, src, bufferOf(dst.GetPosition()),
                       bufferOf(src.GetPosition()));
  cpu::fixpipe<D>(src, params, [&](int64_t index, const D &value) {
    *dst.at(index) = value;
  });
}

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

namespace cpu {

/// An f32 rounded to nearest even into element type T. bfloat16_t goes
/// through its bits: the compiler's conversion calls a runtime routine
/// that a kernel object does not link.
template <typename T> T fromF32(float value) {
  if constexpr (std::is_same_v<T, bfloat16_t>) {
    uint16_t bits = tilekit::f32ToBF16Bits(value);
    T result;
    std::memcpy(&result, &bits, sizeof(bits));
    return result;
  } else {
    return static_cast<T>(value);
  }
}

/// What the vector unit computes for one lane: in f32 for floats, rounded
/// once into the element type; integers wrap.
template <typename T, typename F> T lane(F fn, T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                std::is_same_v<T, bfloat16_t>)
    return fromF32<T>(fn(static_cast<float>(a), static_cast<float>(b)));
  else
    return static_cast<T>(fn(a, b));
}

/// The byte offset of lane `e` of repeat `r` of an operand.
template <typename T>
int64_t laneByte(int64_t r, int64_t e, int64_t blockStride,
                 int64_t repeatStride) {
  int64_t perBlock = 32 / sizeof(T);
  return (r * repeatStride + e / perBlock * blockStride) * 32 +
         e % perBlock * sizeof(T);
}

/// The lanes of one repeat: the first `mask`, or those whose bit is set.
template <typename T> std::vector<int64_t> activeLanes(uint64_t mask) {
  std::vector<int64_t> lanes;
  for (int64_t e = 0; e < static_cast<int64_t>(mask); ++e)
    lanes.push_back(e);
  return lanes;
}
template <typename T> std::vector<int64_t> activeLanes(const uint64_t *mask) {
  std::vector<int64_t> lanes;
  for (int64_t e = 0; e < static_cast<int64_t>(256 / sizeof(T)); ++e)
    if (mask[e / 64] >> (e % 64) & 1)
      lanes.push_back(e);
  return lanes;
}

} // namespace cpu

#define TILEKIT_UNARY(Name, EXPR)                                              \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const int32_t &count) {                                            \
    cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst)});       \
    auto fn = [](auto a, auto) { return EXPR; };                               \
    T *out = dst.span(count);                                                  \
    const T *in = src.span(count);                                             \
    for (int32_t i = 0; i < count; ++i)                                        \
      out[i] = cpu::lane(fn, in[i], in[i]);                                    \
  }                                                                            \
  template <typename T, typename Mask>                                         \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src, Mask mask,   \
            const uint8_t repeatTimes, const UnaryRepeatParams &params) {      \
    cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst)});       \
    auto fn = [](auto a, auto) { return EXPR; };                               \
    for (int64_t r = 0; r < repeatTimes; ++r)                                  \
      for (int64_t e : cpu::activeLanes<T>(mask))                              \
        *dst.atByte(cpu::laneByte<T>(r, e, params.dstBlkStride,                \
                                     params.dstRepStride)) =                   \
            cpu::lane(fn,                                                      \
                      *src.atByte(cpu::laneByte<T>(r, e, params.srcBlkStride,  \
                                                   params.srcRepStride)),      \
                      T());                                                    \
  }
#define TILEKIT_BINARY(Name, EXPR)                                             \
  template <typename T>                                                        \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, const int32_t &count) {                \
    cpu::instruction(cpu::Pipe::V,                                             \
                     {cpu::reads(src0), cpu::reads(src1), cpu::writes(dst)});  \
    auto fn = [](auto a, auto b) { return EXPR; };                             \
    T *out = dst.span(count);                                                  \
    const T *in0 = src0.span(count), *in1 = src1.span(count);                  \
    for (int32_t i = 0; i < count; ++i)                                        \
      out[i] = cpu::lane(fn, in0[i], in1[i]);                                  \
  }                                                                            \
  template <typename T, typename Mask>                                         \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src0,             \
            const LocalTensor<T> &src1, Mask mask, const uint8_t repeatTimes,  \
            const BinaryRepeatParams &params) {                                \
    cpu::instruction(cpu::Pipe::V,                                             \
                     {cpu::reads(src0), cpu::reads(src1), cpu::writes(dst)});  \
    auto fn = [](auto a, auto b) { return EXPR; };                             \
    for (int64_t r = 0; r < repeatTimes; ++r)                                  \
      for (int64_t e : cpu::activeLanes<T>(mask))                              \
        *dst.atByte(cpu::laneByte<T>(r, e, params.dstBlkStride,                \
                                     params.dstRepStride)) =                   \
            cpu::lane(fn,                                                      \
                      *src0.atByte(cpu::laneByte<T>(                           \
                          r, e, params.src0BlkStride, params.src0RepStride)),  \
                      *src1.atByte(cpu::laneByte<T>(                           \
                          r, e, params.src1BlkStride, params.src1RepStride))); \
  }
#define TILEKIT_SCALAR(Name, EXPR)                                             \
  template <typename T, typename U>                                            \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, const int32_t &count) {                           \
    cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst)});       \
    auto fn = [](auto a, auto b) { return EXPR; };                             \
    T *out = dst.span(count);                                                  \
    const T *in = src.span(count);                                             \
    for (int32_t i = 0; i < count; ++i)                                        \
      out[i] = cpu::lane(fn, in[i], static_cast<T>(scalar));                   \
  }                                                                            \
  template <typename T, typename U, typename Mask>                             \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const U &scalar, Mask mask, const uint8_t repeatTimes,             \
            const UnaryRepeatParams &params) {                                 \
    cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst)});       \
    auto fn = [](auto a, auto b) { return EXPR; };                             \
    for (int64_t r = 0; r < repeatTimes; ++r)                                  \
      for (int64_t e : cpu::activeLanes<T>(mask))                              \
        *dst.atByte(cpu::laneByte<T>(r, e, params.dstBlkStride,                \
                                     params.dstRepStride)) =                   \
            cpu::lane(fn,                                                      \
                      *src.atByte(cpu::laneByte<T>(r, e, params.srcBlkStride,  \
                                                   params.srcRepStride)),      \
                      static_cast<T>(scalar));                                 \
  }

TILEKIT_UNARY(Abs, std::fabs(a))
TILEKIT_UNARY(Exp, tilekit::expScalar(a))
TILEKIT_UNARY(Ln, std::log(a))
TILEKIT_UNARY(Sqrt, std::sqrt(a))
TILEKIT_UNARY(Rsqrt, 1.0f / std::sqrt(a))
TILEKIT_UNARY(Reciprocal, 1.0f / a)
TILEKIT_UNARY(Relu, a > 0 ? a : decltype(a)(0))
TILEKIT_UNARY(Not, ~a)
// The advanced API's math functions, in f32 as the executor's rules are.
TILEKIT_UNARY(Tanh, std::tanh(a))
TILEKIT_UNARY(Sigmoid, 1.0f / (1.0f + tilekit::expScalar(-a)))
TILEKIT_UNARY(Erf, std::erf(a))
TILEKIT_BINARY(Add, a + b)
TILEKIT_BINARY(Sub, a - b)
TILEKIT_BINARY(Mul, a *b)
TILEKIT_BINARY(Div, a / b)
TILEKIT_BINARY(Max, tilekit::interp::maxNum(a, b))
TILEKIT_BINARY(Min, tilekit::interp::minNum(a, b))
TILEKIT_BINARY(And, a &b)
TILEKIT_BINARY(Or, a | b)
TILEKIT_SCALAR(Adds, a + b)
TILEKIT_SCALAR(Muls, a *b)
TILEKIT_SCALAR(Maxs, tilekit::interp::maxNum(a, b))
TILEKIT_SCALAR(Mins, tilekit::interp::minNum(a, b))
// Logical for unsigned elements, arithmetic to the right for signed ones.
TILEKIT_SCALAR(ShiftLeft, tilekit::interp::shiftLeft(a, b))
TILEKIT_SCALAR(ShiftRight, tilekit::interp::shiftRightArithmetic(a, b))
#undef TILEKIT_UNARY
#undef TILEKIT_BINARY
#undef TILEKIT_SCALAR

// The sorts, on 8-byte (score, index) pairs: the score first (an f16 score
// then two unused bytes), the index last; the order is tilekit's executor's
// (MachineArith.h: larger first, NaN above every number, equal scores in
// their order).
namespace cpu {
template <typename T> struct Pair {
  T score;
  uint32_t index;
};
static_assert(sizeof(Pair<float>) == 8 && sizeof(Pair<half>) == 8);
template <typename T> bool pairBefore(const Pair<T> &a, const Pair<T> &b) {
  return tilekit::interp::sortsBefore(static_cast<float>(a.score),
                                      static_cast<float>(b.score));
}
/// A stable insertion sort of `count` pairs (std::stable_sort takes a
/// buffer that newer C++ deprecates).
template <typename T> void sortPairs(Pair<T> *pairs, int64_t count) {
  for (int64_t i = 1; i < count; ++i) {
    Pair<T> pair = pairs[i];
    int64_t j = i;
    for (; j > 0 && pairBefore(pair, pairs[j - 1]); --j)
      pairs[j] = pairs[j - 1];
    pairs[j] = pair;
  }
}
} // namespace cpu

template <typename T>
void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0,
            const LocalTensor<uint32_t> &src1, const int32_t repeatTime) {
  cpu::instruction(cpu::Pipe::V,
                   {cpu::reads(src0), cpu::reads(src1), cpu::writes(dst)});
  int64_t count = 32 * std::max(repeatTime, 0);
  const T *scores = src0.span(count);
  const uint32_t *indices = src1.span(count);
  std::vector<cpu::Pair<T>> pairs(count);
  for (int64_t i = 0; i < count; ++i)
    pairs[i] = {scores[i], indices[i]};
  for (int64_t block = 0; block < count; block += 32)
    cpu::sortPairs(pairs.data() + block, 32);
  std::memcpy(dst.template ReinterpretCast<uint8_t>().span(count * 8),
              pairs.data(), count * 8);
}

template <typename T> struct MrgSortSrcList {
  MrgSortSrcList() = default;
  MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In,
                 const LocalTensor<T> &src3In, const LocalTensor<T> &src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1, src2, src3, src4;
};

/// Merges the queues validBit names (two here: 0b11), each sorted, into
/// dst; a tie takes the earlier queue's pair.
template <typename T, bool isExhaustedSuspension = false>
void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList,
             const uint16_t elementCountList[4], uint32_t sortedNum[4],
             uint16_t validBit, const int32_t repeatTime) {
  if (validBit != 0b11 || repeatTime != 1 || isExhaustedSuspension)
    cpuFail("MrgSort: the CPU runtime merges two queues once");
  cpu::instruction(cpu::Pipe::V, {cpu::reads(sortList.src1),
                                  cpu::reads(sortList.src2), cpu::writes(dst)});
  int64_t first = elementCountList[0], second = elementCountList[1];
  auto *a = reinterpret_cast<const cpu::Pair<T> *>(
      sortList.src1.template ReinterpretCast<uint8_t>().span(first * 8));
  auto *b = reinterpret_cast<const cpu::Pair<T> *>(
      sortList.src2.template ReinterpretCast<uint8_t>().span(second * 8));
  std::vector<cpu::Pair<T>> merged(first + second);
  std::merge(a, a + first, b, b + second, merged.begin(), cpu::pairBefore<T>);
  std::memcpy(dst.template ReinterpretCast<uint8_t>().span(merged.size() * 8),
              merged.data(), merged.size() * 8);
  sortedNum[0] = first;
  sortedNum[1] = second;
}

template <typename T>
void Extract(const LocalTensor<T> &dstValue,
             const LocalTensor<uint32_t> &dstIndex,
             const LocalTensor<T> &sorted, const int32_t repeatTime) {
  cpu::instruction(cpu::Pipe::V, {cpu::reads(sorted), cpu::writes(dstValue),
                                  cpu::writes(dstIndex)});
  int64_t count = 32 * std::max(repeatTime, 0);
  auto *pairs = reinterpret_cast<const cpu::Pair<T> *>(
      sorted.template ReinterpretCast<uint8_t>().span(count * 8));
  T *values = dstValue.span(count);
  uint32_t *indices = dstIndex.span(count);
  for (int64_t i = 0; i < count; ++i) {
    values[i] = pairs[i].score;
    indices[i] = pairs[i].index;
  }
}

template <typename T> T LocalTensor<T>::GetValue(const uint32_t index) const {
  cpu::instruction(cpu::Pipe::S, {cpu::reads(*this)});
  return *at(index);
}
template <typename T>
void LocalTensor<T>::SetValue(const uint32_t index, const T &value) const {
  cpu::instruction(cpu::Pipe::S, {cpu::writes(*this)});
  *at(index) = value;
}

/// The 16 x 16 matrix of 2-byte elements transposed.
template <typename T>
void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src) {
  static_assert(sizeof(T) == 2, "Transpose takes 2-byte elements");
  cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst)});
  const T *in = src.span(256);
  T block[256];
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      block[c * 16 + r] = in[r * 16 + c];
  std::copy_n(block, 256, dst.span(256));
}

/// Element i of dst is the element of src at byte srcBaseAddr + srcOffset[i]
/// (an offset past src, or between elements, stops the kernel).
template <typename T>
void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src,
            const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr,
            const uint32_t count) {
  cpu::instruction(cpu::Pipe::V,
                   {cpu::reads(src), cpu::reads(srcOffset), cpu::writes(dst)});
  const uint32_t *offsets = srcOffset.span(count);
  T *out = dst.span(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t byte = uint64_t(srcBaseAddr) + offsets[i];
    if (byte % sizeof(T) != 0 || byte / sizeof(T) >= src.GetSize())
      cpuFail("Gather: an offset outside the source, or between elements");
    out[i] = *src.at(static_cast<int64_t>(byte / sizeof(T)));
  }
}

/// Element i is firstValue + i: integers wrap, floats round the sum once
/// (as tilekit's executor defines pto.tile.iota).
template <typename T>
void CreateVecIndex(LocalTensor<T> dst, const T &firstValue, uint32_t count) {
  cpu::instruction(cpu::Pipe::V, {cpu::writes(dst)});
  T *out = dst.span(count);
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral_v<T>)
      out[i] = static_cast<T>(static_cast<uint64_t>(firstValue) + i);
    else
      out[i] = cpu::fromF32<T>(static_cast<float>(
          static_cast<double>(static_cast<float>(firstValue)) + i));
  }
}

template <typename T, typename U>
void Duplicate(const LocalTensor<T> &dst, const U &scalar,
               const int32_t &count) {
  cpu::instruction(cpu::Pipe::V, {cpu::writes(dst)});
  std::fill_n(dst.span(std::max(count, 0)), std::max(count, 0),
              static_cast<T>(scalar));
}
template <typename T, typename U, typename Mask>
void Duplicate(const LocalTensor<T> &dst, const U &scalar, Mask mask,
               const uint8_t repeatTimes, const uint16_t dstBlockStride,
               const uint8_t dstRepeatStride) {
  cpu::instruction(cpu::Pipe::V, {cpu::writes(dst)});
  for (int64_t r = 0; r < repeatTimes; ++r)
    for (int64_t e : cpu::activeLanes<T>(mask))
      *dst.atByte(cpu::laneByte<T>(r, e, dstBlockStride, dstRepeatStride)) =
          static_cast<T>(scalar);
}
namespace cpu {

template <typename T> constexpr bool isFloat() {
  return std::is_floating_point_v<T> || std::is_same_v<T, half> ||
         std::is_same_v<T, bfloat16_t>;
}

/// The neighbour of `value` one step toward +inf (up) or -inf in T.
template <typename T> T stepped(T value, bool up) {
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
  Bits bits;
  std::memcpy(&bits, &value, sizeof(T));
  Bits sign = Bits(1) << (8 * sizeof(T) - 1);
  if ((bits & ~sign) == 0) // +-0: the smallest subnormal of the sign
    bits = up ? Bits(1) : Bits(sign | 1);
  else if (((bits & sign) == 0) == up)
    ++bits;
  else
    --bits;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

/// `value` converted as the machine's cast does: floats rounded with
/// `round` (none and rint: to nearest even), floats to integers rounded and
/// saturated (NaN to 0), integers wrapped.
template <typename D> D convert(float value, RoundMode round) {
  if constexpr (isFloat<D>()) {
    D nearest = static_cast<D>(value);
    float back = static_cast<float>(nearest);
    if (round == RoundMode::CAST_NONE || round == RoundMode::CAST_RINT ||
        back == value || std::isnan(value))
      return nearest;
    D below = back < value ? nearest : stepped(nearest, false);
    D above = back < value ? stepped(nearest, true) : nearest;
    switch (round) {
    case RoundMode::CAST_FLOOR:
      return below;
    case RoundMode::CAST_CEIL:
      return above;
    case RoundMode::CAST_TRUNC:
      return value >= 0 ? below : above;
    default:
      cpuFail("a float-to-float cast rounding half away or to odd is not "
              "modelled on the CPU");
    }
  } else {
    if (std::isnan(value))
      return D(0);
    float rounded = value;
    switch (round) {
    case RoundMode::CAST_FLOOR:
      rounded = std::floor(value);
      break;
    case RoundMode::CAST_CEIL:
      rounded = std::ceil(value);
      break;
    case RoundMode::CAST_TRUNC:
      rounded = std::trunc(value);
      break;
    case RoundMode::CAST_ROUND:
      rounded = std::round(value);
      break;
    default:
      rounded = std::nearbyint(value);
    }
    double lowest = static_cast<double>(std::numeric_limits<D>::lowest());
    double highest = static_cast<double>(std::numeric_limits<D>::max());
    double wide = static_cast<double>(rounded);
    return wide <= lowest    ? std::numeric_limits<D>::lowest()
           : wide >= highest ? std::numeric_limits<D>::max()
                             : static_cast<D>(wide);
  }
}

template <typename D, typename S> D cast(S value, RoundMode round) {
  if constexpr (isFloat<S>())
    return convert<D>(static_cast<float>(value), round);
  else if constexpr (isFloat<D>())
    return static_cast<D>(static_cast<float>(value));
  else
    return static_cast<D>(value);
}

} // namespace cpu

template <typename D, typename S>
void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src,
          const RoundMode &round, const uint32_t count) {
  cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst)});
  D *out = dst.span(count);
  const S *in = src.span(count);
  for (uint32_t i = 0; i < count; ++i)
    out[i] = cpu::cast<D>(in[i], round);
}
template <typename D, typename S, typename Mask>
void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src,
          const RoundMode &round, Mask mask, const uint8_t repeatTimes,
          const UnaryRepeatParams &params) {
  cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst)});
  // The lanes are counted in the wider of the two element types.
  using Wide = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;
  for (int64_t r = 0; r < repeatTimes; ++r)
    for (int64_t e : cpu::activeLanes<Wide>(mask))
      *dst.atByte(
          cpu::laneByte<D>(r, e, params.dstBlkStride, params.dstRepStride)) =
          cpu::cast<D>(*src.atByte(cpu::laneByte<S>(r, e, params.srcBlkStride,
                                                    params.srcRepStride)),
                       round);
}
/// Bit i of dst (byte i / 8, the lowest bit first) is src0[i] <mode>
/// src1[i]; the bits of the last byte past `count` are zero.
template <typename U, typename T>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
             const LocalTensor<T> &src1, CMPMODE mode, uint32_t count) {
  cpu::instruction(cpu::Pipe::V,
                   {cpu::reads(src0), cpu::reads(src1), cpu::writes(dst)});
  static_assert(sizeof(U) == 1, "Compare writes its bits into bytes");
  const T *a = src0.span(count), *b = src1.span(count);
  U *bits = dst.span((count + 7) / 8);
  std::fill_n(bits, (count + 7) / 8, U(0));
  for (uint32_t i = 0; i < count; ++i) {
    float x = static_cast<float>(a[i]), y = static_cast<float>(b[i]);
    bool holds = mode == CMPMODE::LT   ? x < y
                 : mode == CMPMODE::GT ? x > y
                 : mode == CMPMODE::EQ ? x == y
                 : mode == CMPMODE::LE ? x <= y
                 : mode == CMPMODE::GE ? x >= y
                                       : x != y;
    if (holds)
      bits[i / 8] = U(bits[i / 8] | (1u << (i % 8)));
  }
}

enum class SELMODE {
  VSEL_CMPMASK_SPR,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE
};

/// dst[i] = bit i of selMask (byte i / 8, the lowest bit first) ? src0[i] :
/// src1[i] (or the scalar src1).
template <typename T, typename U>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
            const LocalTensor<T> &src0, const LocalTensor<T> &src1,
            SELMODE mode, uint32_t count) {
  cpu::instruction(cpu::Pipe::V, {cpu::reads(selMask), cpu::reads(src0),
                                  cpu::reads(src1), cpu::writes(dst)});
  if (mode != SELMODE::VSEL_TENSOR_TENSOR_MODE)
    cpuFail("Select of two tensors takes VSEL_TENSOR_TENSOR_MODE");
  const U *bits = selMask.span((count + 7) / 8);
  const T *a = src0.span(count), *b = src1.span(count);
  T *out = dst.span(count);
  for (uint32_t i = 0; i < count; ++i)
    out[i] = (bits[i / 8] >> (i % 8)) & 1 ? a[i] : b[i];
}
template <typename T, typename U, typename S>
void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask,
            const LocalTensor<T> &src0, S src1, SELMODE mode, uint32_t count) {
  cpu::instruction(cpu::Pipe::V,
                   {cpu::reads(selMask), cpu::reads(src0), cpu::writes(dst)});
  if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE)
    cpuFail("Select of a tensor and a scalar takes VSEL_TENSOR_SCALAR_MODE");
  const U *bits = selMask.span((count + 7) / 8);
  const T *a = src0.span(count);
  T *out = dst.span(count);
  T other = static_cast<T>(src1);
  for (uint32_t i = 0; i < count; ++i)
    out[i] = (bits[i / 8] >> (i % 8)) & 1 ? a[i] : other;
}
template <typename U, typename T, typename Mask>
void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0,
             const LocalTensor<T> &src1, CMPMODE mode, Mask mask,
             uint8_t repeatTimes, const BinaryRepeatParams &params);

// Advanced API: broadcasts and reductions of 2-d tensors, with the scratch
// (`sharedTmpBuffer`) the caller plans. Their forms without one take it
// from a TPipe, which a static-tensor kernel does not create: declared
// here only to refuse them.
namespace cpu {
/// Refuses scratch smaller than the API's host-side Get...MaxMinTmpSize
/// gives (tilekit/Machine/ApiScratch.h). The rule needs the architecture,
/// which a build states as the device compiler does (__NPU_ARCH__ 2201
/// for C220, 3510 for C310); without it, no size is checked.
inline void checkScratch(const LocalTensor<uint8_t> &tmp, uint32_t needed,
                         const char *api) {
#ifdef __NPU_ARCH__
  if (tmp.GetSize() < needed)
    cpuFail(std::string(api) + " takes " + std::to_string(needed) +
            " bytes of sharedTmpBuffer here, and was given " +
            std::to_string(tmp.GetSize()));
#else
  (void)tmp, (void)needed, (void)api;
#endif
}
#define TILEKIT_NPU_ARCH(C220, C310) constexpr int kNpuArchC310 = C310;
#include "tilekit/Machine/Machine.def"
#ifdef __NPU_ARCH__
constexpr bool kC310 = __NPU_ARCH__ == kNpuArchC310;
#else
constexpr bool kC310 = false;
#endif
template <typename T> constexpr bool kNoTPipe = sizeof(T) == 0;
} // namespace cpu

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T> &dst, const LocalTensor<T> &src,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t> &sharedTmpBuffer) {
  static_assert(dim == 2, "2-d broadcasts");
  cpu::checkScratch(sharedTmpBuffer,
                    tilekit::machine::scratch::broadcastBytes(
                        cpu::kC310, sizeof(T), axis, dstShape[0], dstShape[1]),
                    "Broadcast");
  cpu::instruction(cpu::Pipe::V, {cpu::reads(src), cpu::writes(dst),
                                  cpu::writes(sharedTmpBuffer)});
  T *out = dst.span(int64_t(dstShape[0]) * dstShape[1]);
  const T *in = src.span(int64_t(srcShape[0]) * srcShape[1]);
  for (uint32_t r = 0; r < dstShape[0]; ++r)
    for (uint32_t c = 0; c < dstShape[1]; ++c)
      out[r * dstShape[1] + c] =
          in[(axis == 0 ? 0 : r) * srcShape[1] + (axis == 1 ? 0 : c)];
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T> &, const LocalTensor<T> &,
               const uint32_t[dim], const uint32_t[dim]) {
  static_assert(cpu::kNoTPipe<T>,
                "Broadcast without a sharedTmpBuffer takes its scratch from "
                "a TPipe, which a static-tensor kernel does not create");
}
namespace Pattern::Reduce {
struct AR {};
struct RA {};
} // namespace Pattern::Reduce
namespace cpu {

/// Folds `count` values `stride` apart from `first` of `src` as the
/// executor does: in f32, halving (element i takes in element i +
/// ceil(n / 2) while n > 1), rounded once into T.
template <typename T, typename Combine>
T foldLine(const LocalTensor<T> &src, int64_t first, int64_t stride,
           int64_t count, Combine combine) {
  std::vector<float> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = static_cast<float>(*src.at(first + i * stride));
  for (int64_t n = count; n > 1;) {
    int64_t half = (n + 1) / 2;
    for (int64_t i = 0; i + half < n; ++i)
      values[i] = combine(values[i], values[i + half]);
    n = half;
  }
  return fromF32<T>(values[0]);
}

/// Each row (AR) or column (RA) of the `srcShape` rows x columns of src,
/// whose rows are padded to whole 32-byte blocks (srcInnerPad).
template <typename T, class pattern, typename Combine>
void reduce(const LocalTensor<T> &dst, const LocalTensor<T> &src,
            const LocalTensor<uint8_t> &tmp, const uint32_t srcShape[],
            tilekit::machine::scratch::Fold fold, const char *api,
            Combine combine) {
  using tilekit::machine::scratch::foldBytes;
  using tilekit::machine::scratch::foldTakes;
  int64_t rows = srcShape[0], cols = srcShape[1];
  constexpr int64_t perBlock = 32 / sizeof(T);
  int64_t width = (cols + perBlock - 1) / perBlock * perBlock;
  bool eachRow = std::is_same_v<pattern, Pattern::Reduce::AR>;
  if (!foldTakes(fold, kC310, sizeof(T), !std::is_integral_v<T>))
    cpuFail(std::string(api) + " does not take this element type here");
  checkScratch(tmp, foldBytes(fold, sizeof(T), eachRow, rows, width), api);
  instruction(Pipe::V, {reads(src), writes(dst), writes(tmp)});
  for (int64_t line = 0; line < (eachRow ? rows : cols); ++line)
    *dst.at(line) =
        foldLine(src, eachRow ? line * width : line, eachRow ? 1 : width,
                 eachRow ? cols : rows, combine);
}

} // namespace cpu

#define TILEKIT_REDUCE(Name, FOLD, EXPR)                                       \
  template <typename T, class pattern, bool isReuseSource = false>             \
  void Name(const LocalTensor<T> &dst, const LocalTensor<T> &src,              \
            const LocalTensor<uint8_t> &sharedTmpBuffer,                       \
            const uint32_t srcShape[], bool srcInnerPad) {                     \
    (void)srcInnerPad;                                                         \
    cpu::reduce<T, pattern>(dst, src, sharedTmpBuffer, srcShape,               \
                            tilekit::machine::scratch::Fold::FOLD, #Name,      \
                            [](float a, float b) { return EXPR; });            \
  }                                                                            \
  template <typename T, class pattern, bool isReuseSource = false>             \
  void Name(const LocalTensor<T> &, const LocalTensor<T> &, const uint32_t[],  \
            bool) {                                                            \
    static_assert(cpu::kNoTPipe<T>,                                            \
                  #Name " without a sharedTmpBuffer takes its scratch from a " \
                        "TPipe, which a static-tensor kernel does not "        \
                        "create");                                             \
  }
TILEKIT_REDUCE(ReduceSum, Sum, a + b)
TILEKIT_REDUCE(ReduceMax, Max, tilekit::interp::maxNum(a, b))
TILEKIT_REDUCE(ReduceMin, Min, tilekit::interp::minNum(a, b))
TILEKIT_REDUCE(ReduceProd, Prod, a *b)
#undef TILEKIT_REDUCE

// Synchronization. A core runs its instructions in order here, so the
// flags between its own pipes hold by themselves: they feed the race model,
// which tells whether the machine's concurrent pipes would be ordered.
namespace cpu {
inline Pipe pipeOf(pipe_t pipe) {
  switch (pipe) {
  case PIPE_S:
    return Pipe::S;
  case PIPE_V:
    return Pipe::V;
  case PIPE_M:
    return Pipe::M;
  case PIPE_MTE1:
    return Pipe::MTE1;
  case PIPE_MTE2:
    return Pipe::MTE2;
  case PIPE_MTE3:
    return Pipe::MTE3;
  case PIPE_FIX:
    return Pipe::FIX;
  default:
    return Pipe::All;
  }
}
/// The source and destination pipe of a hard event.
inline std::pair<Pipe, Pipe> pipesOf(HardEvent event) {
  switch (event) {
#define TILEKIT_HARD_EVENT(SRC, DST)                                           \
  case HardEvent::SRC##_##DST:                                                 \
    return {Pipe::SRC, Pipe::DST};
#include "tilekit/Machine/Machine.def"
  }
  return {Pipe::S, Pipe::S};
}
inline HappensBefore &model() {
  CpuCore &core = currentCore();
  if (!core.model)
    cpuFail("a synchronization instruction outside a kernel run");
  issued();
  return *core.model;
}
} // namespace cpu

namespace cpu {
#define TILEKIT_EVENT_IDS(COUNT, RESERVED)                                     \
  constexpr int32_t kEventIds = COUNT, kFirstReservedEventId = RESERVED;
#include "tilekit/Machine/Machine.def"

inline const char *eventName(HardEvent event) {
  switch (event) {
#define TILEKIT_HARD_EVENT(SRC, DST)                                           \
  case HardEvent::SRC##_##DST:                                                 \
    return #SRC "_" #DST;
#include "tilekit/Machine/Machine.def"
  }
  return "?";
}

/// The event ids the machine has; static tensor programming leaves the
/// last ones to the framework (SetFlag/WaitFlag's page).
inline void checkEventId(const char *call, HardEvent event, int32_t eventId) {
  std::string what = "event id " + std::to_string(eventId) + " of " + call +
                     "<" + eventName(event) + ">";
  if (eventId < 0 || eventId >= kEventIds)
    cpuFail(what + " is not one of the " + std::to_string(kEventIds) +
            " the machine has");
  if (eventId >= kFirstReservedEventId)
    cpuFail(what + " is reserved: static tensor programming uses ids 0-" +
            std::to_string(kFirstReservedEventId - 1));
}
} // namespace cpu

template <HardEvent event> void SetFlag(int32_t eventId) {
  auto [src, dst] = cpu::pipesOf(event);
  cpu::checkEventId("SetFlag", event, eventId);
  cpu::model().setFlag(cpu::coreIndex(), src, dst, eventId, currentCore().at);
}
template <HardEvent event> void WaitFlag(int32_t eventId) {
  auto [src, dst] = cpu::pipesOf(event);
  cpu::checkEventId("WaitFlag", event, eventId);
  cpu::model().waitFlag(cpu::coreIndex(), src, dst, eventId, currentCore().at);
}
template <pipe_t pipe> void PipeBarrier() {
  if (pipe != PIPE_ALL)
    return;
  cpu::model().barrier(cpu::coreIndex());
  currentCore().inFlight = false;
}
/// Sets the core's global state (atomic mode, masks) to its defaults: a
/// static-tensor kernel calls it at entry (the CPU cores have no such state).
inline void InitSocState() { currentCore().socInitialized = true; }
// Cross-core flags between the block's two threads.
// The pages take neither PIPE_S nor PIPE_ALL for a cross-core flag.
template <uint8_t modeId, pipe_t pipe> void CrossCoreSetFlag(uint16_t flagId) {
  static_assert(pipe != PIPE_S && pipe != PIPE_ALL,
                "CrossCoreSetFlag takes neither PIPE_S nor PIPE_ALL");
  if (!currentCore().mixed)
    cpuFail("CrossCoreSetFlag in a kernel without a cube and a vector part");
  cpu::model().crossSet(cpu::coreIndex(), cpu::pipeOf(pipe), flagId,
                        currentCore().at);
}
template <uint8_t modeId, pipe_t pipe> void CrossCoreWaitFlag(uint16_t flagId) {
  static_assert(pipe != PIPE_S && pipe != PIPE_ALL,
                "CrossCoreWaitFlag takes neither PIPE_S nor PIPE_ALL");
  if (!currentCore().mixed)
    cpuFail("CrossCoreWaitFlag in a kernel without a cube and a vector part");
  cpu::model().crossWait(cpu::coreIndex(), cpu::pipeOf(pipe), flagId,
                         currentCore().at);
}

// Debugging.
void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t dumpSize);
template <typename... Args> void printf(const char *format, Args... args) {
  std::printf(format, args...);
}
template <typename T>
void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc,
                uint32_t dumpSize) {
  std::printf("dump_tensor desc %u, %u elements:", desc, dumpSize);
  for (uint32_t i = 0; i < dumpSize; ++i)
    std::printf(" %g", static_cast<double>(*tensor.at(i)));
  std::printf("\n");
}

} // namespace AscendC

// Scalar conversions of bfloat16_t, which takes no immediate (the built-in
// data types page): rounding to nearest even.
namespace AscendC {
inline bfloat16_t ToBfloat16(const float &value) {
  return cpu::fromF32<bfloat16_t>(value);
}
inline float ToFloat(const bfloat16_t &value) {
  uint16_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return tilekit::bf16BitsToF32(bits);
}
} // namespace AscendC

// C310 buffer ids, as the Mutex API takes them: ids 0-27 are the kernel's
// to pick. A core in order never waits; the race model orders the pipes.
namespace AscendC {
using MutexID = uint8_t;
class Mutex {
public:
  template <pipe_t pipe> static void Lock(MutexID id) {
    check(id);
    cpu::model().getBuf(cpu::coreIndex(), cpu::pipeOf(pipe), id);
  }
  template <pipe_t pipe> static void Unlock(MutexID id) {
    check(id);
    cpu::model().rlsBuf(cpu::coreIndex(), cpu::pipeOf(pipe), id);
  }

private:
#define TILEKIT_MUTEX_IDS(COUNT) static constexpr int kMutexIds = COUNT;
#include "tilekit/Machine/Machine.def"
  static void check(MutexID id) {
    if (id >= kMutexIds)
      cpuFail("Mutex id " + std::to_string(id) + ": a kernel picks ids 0 to " +
              std::to_string(kMutexIds - 1) +
              ", the others are the framework's");
  }
};
} // namespace AscendC

namespace AscendC::cpu {
/// What ASCEND_IS_AIC / ASCEND_IS_AIV declare in their if.
struct CoreTest {
  bool is(int32_t kind) const { return g_coreType == kind; }
};

/// The cores a kernel runs on: both when it has cube and vector parts, else
/// the one its instructions need.
/// The cores a block starts: one vector core, one cube, a cube with one
/// vector core (1:1), or a cube with two (1:2, sub-blocks 0 and 1).
enum class Cores { Vector, Cube, Mixed, MixedOneToTwo };

/// Marks the instruction that follows in a --compiled build: its MLIR
/// location and emitted line, for reports.
inline void at(const char *location, int line = __builtin_LINE()) {
  CpuCore &core = currentCore();
  core.at = {location, line};
  StepBudget *budget = core.budget;
  if (!budget)
    return;
  // The clock is read every 4096 instructions, as the executor does.
  uint64_t done = budget->steps.fetch_add(1, std::memory_order_relaxed) + 1;
  if (budget->maxSteps && done > budget->maxSteps)
    throw KernelFault{"was about to run when the kernel reached --max-steps " +
                          std::to_string(budget->maxSteps) + "; stopped",
                      core.at,
                      {},
                      /*stall=*/true};
  if (budget->timed && done % 4096 == 0 &&
      std::chrono::steady_clock::now() > budget->deadline)
    throw KernelFault{"was about to run when the kernel reached its --timeout "
                      "(" +
                          std::to_string(done) + " instructions run); stopped",
                      core.at,
                      {},
                      /*stall=*/true};
}

/// Runs `kernel` as block `block` of `blocks` on its cores (a cube and a
/// vector thread for a mixed kernel), each core's instructions checked by
/// the block's race model. `gm` names the GM buffers for reports. Returns
/// false with the fault in `error` when the kernel stopped:
/// "LOCATION\tLINE\tEARLIER LOCATION\tEARLIER LINE\tKIND\tMESSAGE", KIND
/// "stall" (a deadlock, a limit) or "fault". `limits` (tilekit_cpu_limits
/// of the entry, null: none) has its steps advanced by the block's.
inline bool runBlock(Cores cores, int64_t block, int64_t blocks,
                     const std::vector<GmName> &gm,
                     const std::function<void()> &kernel,
                     tilekit_cpu_limits *limits, char *error,
                     size_t errorSize) {
  bool mixed = cores == Cores::Mixed || cores == Cores::MixedOneToTwo;
  unsigned vectorCores = cores == Cores::MixedOneToTwo ? 2 : 1;
  StepBudget budget;
  if (limits) {
    budget.steps = limits->steps;
    budget.maxSteps = limits->max_steps;
    budget.timed = limits->deadline_ns != 0;
    budget.deadline = std::chrono::steady_clock::time_point(
        std::chrono::nanoseconds(limits->deadline_ns));
  }
  HappensBefore model;
  model.setVectorCores(vectorCores);
  for (const GmName &name : gm)
    model.nameGm(name);
  KernelFault faults[3];
  bool faulted[3] = {false, false, false};
  // The vector core runs on this thread: the cube's reaches its UB.
  CpuCore *vectorCore = &currentCore();
  auto runCore = [&](unsigned index) {
    CpuCore &core = currentCore();
    core.model = &model;
    core.budget = limits ? &budget : nullptr;
    core.mixed = mixed;
    core.vectorCore = mixed && index == 0 ? vectorCore : nullptr;
    core.at = {};
    core.socInitialized = false;
    core.inFlight = false;
    core.cube = index == 0;
    g_coreType = core.cube ? AIC : AIV;
    core.block = block;
    core.blocks = blocks;
    core.subBlock = core.cube ? 0 : index - 1;
    core.taskRatio = vectorCores;
    try {
      kernel();
      if (core.inFlight)
        throw KernelFault{"returns with instructions in flight: a kernel "
                          "ends with AscendC::PipeBarrier<PIPE_ALL>()",
                          core.at};
    } catch (const KernelFault &fault) {
      faults[index] = fault;
      faulted[index] = true;
    }
    model.finish(index, faulted[index]);
    core.model = nullptr;
    core.budget = nullptr;
  };
  if (mixed) {
    std::thread cube(runCore, 0u);
    std::optional<std::thread> second;
    if (vectorCores == 2)
      second.emplace(runCore, 2u);
    runCore(1);
    cube.join();
    if (second)
      second->join();
  } else {
    runCore(cores == Cores::Cube ? 0 : 1);
  }
  // A core stopped by the other's fault reports nothing.
  const KernelFault *fault = nullptr;
  for (unsigned index : {0u, 1u, 2u})
    if (faulted[index] && (!fault || fault->message.empty()))
      fault = &faults[index];
  KernelFault unwaited;
  if (!fault) {
    try {
      model.checkFlagsWaited();
    } catch (const KernelFault &report) {
      unwaited = report;
      fault = &unwaited;
    }
  }
  if (limits)
    limits->steps = budget.steps;
  if (!fault)
    return true;
  auto text = [](const char *location) { return location ? location : ""; };
  std::snprintf(error, errorSize, "%s\t%d\t%s\t%d\t%s\t%s",
                text(fault->at.location), fault->at.line,
                text(fault->earlier.location), fault->earlier.line,
                fault->stall ? "stall" : "fault", fault->message.c_str());
  return false;
}
} // namespace AscendC::cpu

// The kernel types a launch starts cores for (the kernel type page).
enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX
};

namespace AscendC::cpu {
/// A kernel's KERNEL_TASK_TYPE_DEFAULT: the cores the launch starts must be
/// those the kernel runs on.
inline void declareKernelType(KernelMetaType type) {
  if (probingKernelType())
    throw KernelTypeProbe{type, true};
  CpuCore &core = currentCore();
  bool vectorOnly = type == KERNEL_TYPE_AIV_ONLY;
  bool cubeOnly = type == KERNEL_TYPE_AIC_ONLY;
  if (core.mixed && (vectorOnly || cubeOnly))
    cpuFail("declares a kernel type that starts only one kind of core, but "
            "the kernel has cube and vector parts");
  // The launch starts two vector cores per cube for 1:2, one for 1:1.
  if (core.mixed && type == KERNEL_TYPE_MIX_AIC_1_2 && core.taskRatio != 2)
    cpuFail("declares KERNEL_TYPE_MIX_AIC_1_2, but the launch starts one "
            "vector core per cube (KERNEL_TYPE_MIX_AIC_1_1)");
  if (core.mixed && type == KERNEL_TYPE_MIX_AIC_1_1 && core.taskRatio != 1)
    cpuFail("declares KERNEL_TYPE_MIX_AIC_1_1, but the launch starts two "
            "vector cores per cube (KERNEL_TYPE_MIX_AIC_1_2)");
  if (!core.mixed && ((vectorOnly && core.cube) || (cubeOnly && !core.cube)))
    cpuFail(std::string("declares ") +
            (vectorOnly ? "KERNEL_TYPE_AIV_ONLY" : "KERNEL_TYPE_AIC_ONLY") +
            ", but its instructions run on the " +
            (core.cube ? "cube" : "vector") + " core");
}
} // namespace AscendC::cpu
#define KERNEL_TASK_TYPE_DEFAULT(value) ::AscendC::cpu::declareKernelType(value)

// On the device ASCEND_IS_AIC is `constexpr(g_coreType == AscendC::AIC)`:
// only `if ASCEND_IS_AIC { ... }` compiles, not `if (ASCEND_IS_AIC)` nor a
// use as a value. Here an if with an init-statement takes the same place,
// so the same forms compile and the same are rejected.
#define ASCEND_IS_AIC                                                          \
  (::AscendC::cpu::CoreTest ascendIsCore{}; ascendIsCore.is(::AscendC::AIC))
#define ASCEND_IS_AIV                                                          \
  (::AscendC::cpu::CoreTest ascendIsCore{}; ascendIsCore.is(::AscendC::AIV))

// The CPU debug form of a launch, as Ascend C's CPU mode spells it: the
// host names the kernel type (SetKernelMode), allocates GM (GmAlloc,
// zeroed, GmFree) and launches with ICPU_RUN_KF(kernel, blockDim, args...).
enum class KernelMode { AIC_MODE, AIV_MODE, MIX_MODE };

namespace AscendC::cpu {
inline KernelMode &kernelMode() {
  static KernelMode mode = KernelMode::AIV_MODE;
  return mode;
}

/// The first fault of the last launch ("" when it ran through).
inline std::string &launchFault() {
  static std::string fault;
  return fault;
}

/// Where `tilekit run --compiled` wants a launch's limits and fault (the
/// tilekit_launch entry of CpuEntryABI.h sets it around the host code).
struct LaunchContext {
  tilekit_cpu_limits *limits;
  char *error;
  size_t errorSize;
  /// The GM arguments' names, for reports.
  std::vector<GmName> gm;
  int64_t failedBlock = -1;
};
inline LaunchContext *&currentLaunch() {
  static LaunchContext *context = nullptr;
  return context;
}

/// The cores a mixed kernel's blocks start: a cube with two vector cores
/// when it declares KERNEL_TYPE_MIX_AIC_1_2, else with one. The device
/// toolchain reads the mark from the kernel before the launch; here the
/// kernel runs up to its first statement, which must be the mark (or the
/// launch is 1:1).
inline Cores mixedCores(const std::function<void()> &kernel) {
  probingKernelType() = true;
  KernelTypeProbe found{0, false};
  try {
    kernel();
  } catch (const KernelTypeProbe &probe) {
    found = probe;
  } catch (...) {
  }
  probingKernelType() = false;
  return found.declared && found.type == KERNEL_TYPE_MIX_AIC_1_2
             ? Cores::MixedOneToTwo
             : Cores::Mixed;
}

/// Runs `kernel` as blocks 0 to blockDim - 1, each on the cores the kernel
/// mode names (for MIX_MODE, those the kernel's type asks for), one block
/// after another (the blocks of a launch have no order between them).
/// Stops at the first fault, which it prints (or, under tilekit_launch,
/// hands back).
inline bool runLaunch(int64_t blockDim, const std::function<void()> &kernel) {
  KernelMode mode = kernelMode();
  Cores cores = mode == KernelMode::MIX_MODE   ? mixedCores(kernel)
                : mode == KernelMode::AIC_MODE ? Cores::Cube
                                               : Cores::Vector;
  launchFault().clear();
  char error[2048];
  for (int64_t block = 0; block < blockDim; ++block) {
    if (LaunchContext *context = currentLaunch()) {
      if (runBlock(cores, block, blockDim, context->gm, kernel, context->limits,
                   context->error, context->errorSize))
        continue;
      context->failedBlock = block;
      launchFault() = context->error;
      return false;
    }
    if (runBlock(cores, block, blockDim, {}, kernel, nullptr, error,
                 sizeof(error)))
      continue;
    // The report's fields are tab-separated: the location, then the
    // message last.
    std::string report = error;
    std::string location = report.substr(0, report.find('\t'));
    launchFault() = location + ": " + report.substr(report.rfind('\t') + 1) +
                    " (block " + std::to_string(block) + " of " +
                    std::to_string(blockDim) + ")";
    std::fprintf(stderr, "ICPU_RUN_KF: %s\n", launchFault().c_str());
    return false;
  }
  return true;
}
} // namespace AscendC::cpu

namespace AscendC {
inline void SetKernelMode(KernelMode mode) { cpu::kernelMode() = mode; }
/// GM for a CPU launch: zeroed, aligned to the machine's 32-byte blocks.
inline void *GmAlloc(size_t bytes) {
  size_t rounded = (bytes + 31) / 32 * 32;
  void *memory = std::aligned_alloc(32, rounded ? rounded : 32);
  if (memory)
    std::memset(memory, 0, rounded ? rounded : 32);
  return memory;
}
inline void GmFree(void *memory) { std::free(memory); }
} // namespace AscendC

#define ICPU_RUN_KF(kernel, blockDim, ...)                                     \
  ::AscendC::cpu::runLaunch((blockDim), [&] { kernel(__VA_ARGS__); })

// Kernel assertions stop the kernel with the message.
inline void assert(bool condition, const char *message) {
  if (!condition)
    AscendC::cpuFail(message);
}

#endif // TILEKIT_RUNTIME_ASCENDC_CPU_KERNEL_OPERATOR_H
