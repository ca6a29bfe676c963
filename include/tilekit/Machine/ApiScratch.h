//===- ApiScratch.h - Scratch bytes of Ascend C's advanced API -*- C++ -*-===//
//
// The bytes of `sharedTmpBuffer` that Ascend C's `Broadcast` and
// `ReduceSum/Max/Min/Prod` need, and the element types each takes, per
// architecture: the smallest size the host-side `GetBroadCastMaxMinTmpSize`
// and `GetReduce<Op>MaxMinTmpSize` give (their public documentation; the
// rules are read from asc-devkit's tiling sources, impl/adv_api/tiling/pad
// and .../reduce). `ascendc-dispatch-alloc` plans buffers of this size and
// the CPU stand-in refuses a smaller one, so both read it here.
// Header-only and free of MLIR and LLVM: the stand-in includes it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_MACHINE_APISCRATCH_H
#define TILEKIT_MACHINE_APISCRATCH_H

#include <cstdint>

namespace tilekit::machine::scratch {

/// The four reductions of the advanced API.
enum class Fold : uint8_t { Sum, Max, Min, Prod };

constexpr uint32_t kBlockBytes = 32;   // one UB block
constexpr uint32_t kRepeatBytes = 256; // one vector repeat

constexpr uint32_t roundUp(uint32_t value, uint32_t to) {
  return (value + to - 1) / to * to;
}

/// The largest power of two not above `n`, halved when it is `n` itself
/// and `halveWhen` (the tiling rules' `FindK` and its adjustment).
constexpr uint32_t foldSpan(uint32_t n, bool halveWhen) {
  uint32_t k = 1;
  while (k * 2 <= n)
    k *= 2;
  return k == n && halveWhen && n > 1 ? k / 2 : k;
}

/// Whether the reduction takes elements of `typeBytes` bytes (`isFloat`)
/// on the architecture: C220 sums and multiplies f32 only and takes
/// f16/f32 maxima and minima; C310 also sums 32/64-bit integers and takes
/// maxima and minima of every 8-64-bit integer, f16, bf16 and f32.
constexpr bool foldTakes(Fold fold, bool c310, uint32_t typeBytes,
                         bool isFloat) {
  switch (fold) {
  case Fold::Prod:
    return isFloat && typeBytes == 4;
  case Fold::Sum:
    return isFloat ? typeBytes == 4 : c310 && typeBytes >= 4;
  case Fold::Max:
  case Fold::Min:
    return isFloat ? typeBytes == 2 || typeBytes == 4 : c310;
  }
  return false;
}

/// Scratch bytes of a reduction of a `first` x `last` source; `eachRow` is
/// the AR pattern (fold each row), otherwise RA (fold each column).
constexpr uint32_t foldBytes(Fold fold, uint32_t typeBytes, bool eachRow,
                             uint32_t first, uint32_t last) {
  if (fold == Fold::Sum) { // accumulates in f32
    if (eachRow)
      return last <= kRepeatBytes / 4 ? 0
                                      : first * foldSpan(last, first > 1) * 4;
    return foldSpan(first, true) * roundUp(last, kBlockBytes / 4) * 4;
  }
  if (!eachRow)
    return foldSpan(first, true) * roundUp(last * typeBytes, kBlockBytes);
  if (fold == Fold::Prod) {
    uint32_t span = foldSpan(last, first > 1);
    return ((span < kBlockBytes / 4 ? kBlockBytes / 4 : span) +
            first * (kBlockBytes / 4)) *
               4 +
           kRepeatBytes;
  }
  uint32_t perBlock = kBlockBytes / typeBytes;
  uint32_t perRepeat = kRepeatBytes / typeBytes;
  if (last <= perBlock)
    return 0;
  return first * (last < perRepeat ? perBlock : perRepeat) * typeBytes;
}

/// Scratch bytes of a 2-d broadcast of `src` (rows x 1 along axis 1, or
/// 1 x cols along axis 0) into `rows` x `cols`. C310's broadcast takes
/// none; one-byte elements are widened to two first, through scratch.
constexpr uint32_t broadcastBytes(bool c310, uint32_t typeBytes, int axis,
                                  uint32_t rows, uint32_t cols) {
  if (c310)
    return 0;
  uint32_t srcCount = axis == 1 ? rows : cols;
  bool oneByte = typeBytes == 1;
  uint32_t widen = oneByte ? (roundUp(srcCount, kBlockBytes / 2) +
                              roundUp(rows * cols, kBlockBytes / 2)) *
                                 2
                           : 0;
  if (oneByte)
    typeBytes = 2;
  if (srcCount == rows * cols || srcCount == 1)
    return oneByte ? widen + kBlockBytes : 0;
  if (axis == 0)
    return kBlockBytes + widen;
  uint32_t perBlock = kBlockBytes / typeBytes;
  uint32_t blockSquare = perBlock * perBlock * typeBytes;
  if (cols % perBlock == 0)
    return blockSquare + widen;
  return blockSquare + perBlock * roundUp(cols, perBlock) * typeBytes + widen;
}

} // namespace tilekit::machine::scratch

#endif // TILEKIT_MACHINE_APISCRATCH_H
