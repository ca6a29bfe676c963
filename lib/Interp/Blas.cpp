//===- Blas.cpp - OpenBLAS, loaded when the first matmul runs -------------===//

#include "Blas.h"

#include <cblas.h>
#include <cstdlib>
#include <dlfcn.h>

using namespace tilekit::interp;

namespace {
using SgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint,
                         blasint, blasint, float, const float *, blasint,
                         const float *, blasint, float, float *, blasint);
using SetThreadsFn = void (*)(int);

struct Library {
  SgemmFn sgemm = nullptr;
  std::optional<std::string> error;
};

const Library &library() {
  // Thread-safe once: group threads may reach their first matmul together.
  static const Library loaded = [] {
    Library result;
    void *handle = dlopen(TILEKIT_OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      result.error = std::string("cannot load OpenBLAS (") +
                     TILEKIT_OPENBLAS_SONAME + "): " + dlerror();
      return result;
    }
    result.sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
    // One thread, so results are the same from run to run, also when the
    // process did not ask before loading (a library embedding the
    // executor).
    if (auto setThreads = reinterpret_cast<SetThreadsFn>(
            dlsym(handle, "openblas_set_num_threads")))
      setThreads(1);
    if (!result.sgemm)
      result.error = std::string(TILEKIT_OPENBLAS_SONAME) +
                     " has no cblas_sgemm: " + dlerror();
    return result;
  }();
  return loaded;
}
} // namespace

void blas::preferOneThread() { setenv("OPENBLAS_NUM_THREADS", "1", 1); }

std::optional<std::string> blas::unavailable() { return library().error; }

void blas::sgemm(bool aTrans, bool bTrans, int64_t m, int64_t n, int64_t k,
                 float alpha, const float *a, int64_t lda, const float *b,
                 int64_t ldb, float beta, float *c, int64_t ldc) {
  library().sgemm(CblasRowMajor, aTrans ? CblasTrans : CblasNoTrans,
                  bTrans ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b,
                  ldb, beta, c, ldc);
}
