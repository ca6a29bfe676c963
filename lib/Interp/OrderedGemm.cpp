//===- OrderedGemm.cpp - f32 matmuls summed in K order --------------------===//
//
// A and B are packed into blocks of `Rows` rows and panels of `Cols`
// columns, k-major and zero-padded; a micro kernel keeps one Rows x Cols
// tile of C in registers while it walks all of K. The packing only moves
// data, and every kernel performs, for each element, the same fused
// multiply-adds in the same order.
//
//===----------------------------------------------------------------------===//

#include "OrderedGemm.h"

#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace tilekit::interp;

namespace {

/// Adds to the Rows x Cols tile `c` (contiguous) the products of the packed
/// A block `a` (k steps of Rows) and B panel `b` (k steps of Cols).
using MicroKernel = void (*)(int64_t k, const float *a, const float *b,
                             float *c);

template <int Rows, int Cols>
void portableKernel(int64_t k, const float *a, const float *b, float *c) {
  for (int64_t p = 0; p < k; ++p)
    for (int r = 0; r < Rows; ++r)
      for (int j = 0; j < Cols; ++j)
        c[r * Cols + j] =
            std::fma(a[p * Rows + r], b[p * Cols + j], c[r * Cols + j]);
}

#if defined(__x86_64__)
/// 8 rows of two 16-lane vectors: 16 accumulators of the 32 registers.
__attribute__((target("avx512f"))) void avx512Kernel(int64_t k, const float *a,
                                                     const float *b, float *c) {
  __m512 acc[8][2];
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    acc[r][0] = _mm512_loadu_ps(c + r * 32);
    acc[r][1] = _mm512_loadu_ps(c + r * 32 + 16);
  }
  for (int64_t p = 0; p < k; ++p) {
    __m512 left = _mm512_loadu_ps(b + p * 32);
    __m512 right = _mm512_loadu_ps(b + p * 32 + 16);
#pragma GCC unroll 8
    for (int r = 0; r < 8; ++r) {
      __m512 row = _mm512_set1_ps(a[p * 8 + r]);
      acc[r][0] = _mm512_fmadd_ps(row, left, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(row, right, acc[r][1]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < 8; ++r) {
    _mm512_storeu_ps(c + r * 32, acc[r][0]);
    _mm512_storeu_ps(c + r * 32 + 16, acc[r][1]);
  }
}

/// 6 rows of two 8-lane vectors: 12 accumulators of the 16 registers.
__attribute__((target("avx2,fma"))) void avx2Kernel(int64_t k, const float *a,
                                                    const float *b, float *c) {
  __m256 acc[6][2];
#pragma GCC unroll 6
  for (int r = 0; r < 6; ++r) {
    acc[r][0] = _mm256_loadu_ps(c + r * 16);
    acc[r][1] = _mm256_loadu_ps(c + r * 16 + 8);
  }
  for (int64_t p = 0; p < k; ++p) {
    __m256 left = _mm256_loadu_ps(b + p * 16);
    __m256 right = _mm256_loadu_ps(b + p * 16 + 8);
#pragma GCC unroll 6
    for (int r = 0; r < 6; ++r) {
      __m256 row = _mm256_set1_ps(a[p * 6 + r]);
      acc[r][0] = _mm256_fmadd_ps(row, left, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(row, right, acc[r][1]);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < 6; ++r) {
    _mm256_storeu_ps(c + r * 16, acc[r][0]);
    _mm256_storeu_ps(c + r * 16 + 8, acc[r][1]);
  }
}
#endif

struct Operands {
  bool aTrans, bTrans;
  int64_t m, n, k;
  const float *a;
  int64_t lda;
  const float *b;
  int64_t ldb;
  bool accumulate;
  float *c;
  int64_t ldc;

  float aAt(int64_t i, int64_t p) const {
    return aTrans ? a[p * lda + i] : a[i * lda + p];
  }
  float bAt(int64_t p, int64_t j) const {
    return bTrans ? b[j * ldb + p] : b[p * ldb + j];
  }
};

template <int Rows, int Cols>
void blocked(MicroKernel kernel, const Operands &op) {
  int64_t blocks = (op.m + Rows - 1) / Rows, panels = (op.n + Cols - 1) / Cols;
  // Per thread: the group runtime's cores multiply side by side.
  thread_local std::vector<float> packedA, packedB;
  packedA.assign(blocks * op.k * Rows, 0.0f);
  packedB.assign(panels * op.k * Cols, 0.0f);
  for (int64_t i = 0; i < op.m; ++i)
    for (int64_t p = 0; p < op.k; ++p)
      packedA[(i / Rows * op.k + p) * Rows + i % Rows] = op.aAt(i, p);
  for (int64_t p = 0; p < op.k; ++p)
    for (int64_t j = 0; j < op.n; ++j)
      packedB[(j / Cols * op.k + p) * Cols + j % Cols] = op.bAt(p, j);
  alignas(64) float tile[Rows * Cols];
  for (int64_t panel = 0; panel < panels; ++panel) {
    int64_t j0 = panel * Cols, cols = std::min<int64_t>(Cols, op.n - j0);
    for (int64_t block = 0; block < blocks; ++block) {
      int64_t i0 = block * Rows, rows = std::min<int64_t>(Rows, op.m - i0);
      std::fill(tile, tile + Rows * Cols, 0.0f);
      if (op.accumulate)
        for (int64_t r = 0; r < rows; ++r)
          std::copy_n(op.c + (i0 + r) * op.ldc + j0, cols, tile + r * Cols);
      kernel(op.k, packedA.data() + block * op.k * Rows,
             packedB.data() + panel * op.k * Cols, tile);
      for (int64_t r = 0; r < rows; ++r)
        std::copy_n(tile + r * Cols, cols, op.c + (i0 + r) * op.ldc + j0);
    }
  }
}

GemmKernel best() {
  static const GemmKernel fastest = [] {
    for (GemmKernel kernel : {GemmKernel::Avx512, GemmKernel::Avx2})
      if (gemmKernelAvailable(kernel))
        return kernel;
    return GemmKernel::Portable;
  }();
  return fastest;
}

} // namespace

bool tilekit::interp::gemmKernelAvailable(GemmKernel kernel) {
  switch (kernel) {
  case GemmKernel::Best:
  case GemmKernel::Portable:
    return true;
#if defined(__x86_64__)
  case GemmKernel::Avx512:
    return __builtin_cpu_supports("avx512f");
  case GemmKernel::Avx2:
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  default:
    return false;
#endif
  }
  return false;
}

void tilekit::interp::orderedGemm(bool aTrans, bool bTrans, int64_t m,
                                  int64_t n, int64_t k, const float *a,
                                  int64_t lda, const float *b, int64_t ldb,
                                  bool accumulate, float *c, int64_t ldc,
                                  GemmKernel kernel) {
  if (m <= 0 || n <= 0)
    return;
  Operands op{aTrans, bTrans, m, n, k, a, lda, b, ldb, accumulate, c, ldc};
  switch (kernel == GemmKernel::Best ? best() : kernel) {
#if defined(__x86_64__)
  case GemmKernel::Avx512:
    return blocked<8, 32>(avx512Kernel, op);
  case GemmKernel::Avx2:
    return blocked<6, 16>(avx2Kernel, op);
#endif
  default:
    return blocked<4, 8>(portableKernel<4, 8>, op);
  }
}
