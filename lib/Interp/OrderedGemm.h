//===- OrderedGemm.h - f32 matmuls summed in K order ------------*- C++ -*-===//
//
// The executor's float matmuls. Each element of C starts from its old value
// (or zero) and adds its K products in ascending k, one fused multiply-add
// (one rounding) a product. So an element's sum does not depend on the
// matrices' shapes, on how M, N and K are cut into tiles, nor on the CPU:
// a whole-tensor matmul equals the tiled kernel compile writes for it, and
// an L0 mmad over part of K that accumulates into L0C continues the same
// sum (runtime/ascendc-cpu's Mmad follows the same rule). The cube's own
// order is its own; docs/executor.md states the tolerance against it.
//
// Register-blocked kernels for AVX-512 and AVX2 + FMA are chosen when the
// CPU has them, a portable loop otherwise; all round alike (an FMA is
// exact), so results are the same on every machine. Internal to the
// executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_ORDEREDGEMM_H
#define TILEKIT_LIB_INTERP_ORDEREDGEMM_H

#include <cstdint>

namespace tilekit::interp {

/// The kernels an ordered GEMM can run on; `Best` is the fastest this CPU
/// has. All give the same bits.
enum class GemmKernel { Best, Avx512, Avx2, Portable };

/// Whether this CPU can run `kernel`.
bool gemmKernelAvailable(GemmKernel kernel);

/// Row-major C (m x n, rows `ldc` apart) = C (when `accumulate`, else 0)
/// + A B, A m x k (k x m when `aTrans`), B k x n (n x k when `bTrans`);
/// `lda` and `ldb` are the distances between the rows A and B are stored
/// in. `kernel` must be available.
void orderedGemm(bool aTrans, bool bTrans, int64_t m, int64_t n, int64_t k,
                 const float *a, int64_t lda, const float *b, int64_t ldb,
                 bool accumulate, float *c, int64_t ldc,
                 GemmKernel kernel = GemmKernel::Best);

} // namespace tilekit::interp

#endif // TILEKIT_LIB_INTERP_ORDEREDGEMM_H
