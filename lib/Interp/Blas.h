//===- Blas.h - OpenBLAS, loaded when the first matmul runs -------*- C++
//-*-===//
//
// The executor's f32 matmuls run on OpenBLAS's sgemm. The library is loaded
// (dlopen) on the first matmul, not at process start: commands that never
// multiply (check, sim --trace, emit) neither pay for loading it nor have
// its thread pool spinning beside them. Internal to the executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEKIT_LIB_INTERP_BLAS_H
#define TILEKIT_LIB_INTERP_BLAS_H

#include <cstdint>
#include <optional>
#include <string>

namespace tilekit::interp::blas {

/// Asks for a one-thread OpenBLAS before it is loaded (the environment is
/// read when the library starts); call while the process has one thread.
void preferOneThread();

/// Why OpenBLAS cannot be used, if it cannot (loading it on first use).
std::optional<std::string> unavailable();

/// Row-major C = alpha A B + beta C (sgemm); OpenBLAS must be available.
void sgemm(bool aTrans, bool bTrans, int64_t m, int64_t n, int64_t k,
           float alpha, const float *a, int64_t lda, const float *b,
           int64_t ldb, float beta, float *c, int64_t ldc);

} // namespace tilekit::interp::blas

#endif // TILEKIT_LIB_INTERP_BLAS_H
