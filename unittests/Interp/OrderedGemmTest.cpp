//===- OrderedGemmTest.cpp - Matmul sums in K order, on every kernel ------===//
//
// Every kernel this CPU has gives, to the bit, the plain loop that defines
// the executor's float matmul: each element starts from its old value (or
// zero) and adds its products one fused multiply-add at a time in K order.
// From that follow the properties the compile path relies on, checked too:
// a block of C computed alone equals the same block of the whole product,
// and a sum over K split into two accumulating calls equals the one call.
//
//===----------------------------------------------------------------------===//

#include "OrderedGemm.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace tilekit::interp;

namespace {

struct Problem {
  int64_t m, n, k;
  bool aTrans, bTrans, accumulate;
};

std::vector<float> randomFloats(size_t count, std::mt19937 &random) {
  // Mixed magnitudes, so that a different summation order shows.
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-12, 12);
  std::vector<float> out(count);
  for (float &x : out)
    x = std::ldexp(value(random), exponent(random));
  return out;
}

/// The definition, written out.
std::vector<float> reference(const Problem &p, const std::vector<float> &a,
                             const std::vector<float> &b,
                             std::vector<float> c) {
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t j = 0; j < p.n; ++j) {
      float sum = p.accumulate ? c[i * p.n + j] : 0.0f;
      for (int64_t kk = 0; kk < p.k; ++kk)
        sum = std::fma(p.aTrans ? a[kk * p.m + i] : a[i * p.k + kk],
                       p.bTrans ? b[j * p.k + kk] : b[kk * p.n + j], sum);
      c[i * p.n + j] = sum;
    }
  return c;
}

bool sameBits(const std::vector<float> &x, const std::vector<float> &y) {
  return x.size() == y.size() &&
         std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

TEST(OrderedGemmTest, EveryKernelIsTheDefinition) {
  std::mt19937 random(20261206);
  std::uniform_int_distribution<int64_t> extent(1, 75);
  for (GemmKernel kernel : {GemmKernel::Best, GemmKernel::Avx512,
                            GemmKernel::Avx2, GemmKernel::Portable}) {
    if (!gemmKernelAvailable(kernel))
      continue;
    for (int trial = 0; trial < 60; ++trial) {
      Problem p{extent(random), extent(random), extent(random),
                trial % 2 == 1, trial % 3 == 1, trial % 4 >= 2};
      std::vector<float> a = randomFloats(p.m * p.k, random);
      std::vector<float> b = randomFloats(p.k * p.n, random);
      std::vector<float> c = randomFloats(p.m * p.n, random);
      std::vector<float> expected = reference(p, a, b, c);
      orderedGemm(p.aTrans, p.bTrans, p.m, p.n, p.k, a.data(),
                  p.aTrans ? p.m : p.k, b.data(), p.bTrans ? p.k : p.n,
                  p.accumulate, c.data(), p.n, kernel);
      EXPECT_TRUE(sameBits(c, expected))
          << "kernel " << static_cast<int>(kernel) << ", " << p.m << "x" << p.k
          << " by " << p.k << "x" << p.n << ", trial " << trial;
    }
  }
}

TEST(OrderedGemmTest, BlocksAndSplitsOfKGiveTheWholeProduct) {
  std::mt19937 random(7);
  const int64_t m = 37, n = 100, k = 72;
  std::vector<float> a = randomFloats(m * k, random);
  std::vector<float> b = randomFloats(k * n, random);
  std::vector<float> whole(m * n);
  orderedGemm(false, false, m, n, k, a.data(), k, b.data(), n, false,
              whole.data(), n);

  // Rows 16..31, columns 57..(57+29) alone, reading the operands in place.
  std::vector<float> block(16 * 29);
  orderedGemm(false, false, 16, 29, k, a.data() + 16 * k, k, b.data() + 57, n,
              false, block.data(), 29);
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 29; ++j)
      ASSERT_EQ(std::memcmp(&block[i * 29 + j], &whole[(16 + i) * n + 57 + j],
                            sizeof(float)),
                0)
          << "element " << 16 + i << ", " << 57 + j;

  // K as 40 then 32, the second call accumulating: a K split over mmads.
  std::vector<float> split(m * n);
  orderedGemm(false, false, m, n, 40, a.data(), k, b.data(), n, false,
              split.data(), n);
  orderedGemm(false, false, m, n, 32, a.data() + 40, k, b.data() + 40 * n, n,
              true, split.data(), n);
  EXPECT_TRUE(sameBits(split, whole));
}

} // namespace
