//===- VectorMathTest.cpp - Vectorized exp against libm -------------------===//

#include "tilekit/Support/VectorMath.h"
#include "tilekit/Support/HalfFloat.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace tilekit;

namespace {

float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// Distance in units in the last place between two finite or infinite
/// floats of the same sign (0 when both are NaN).
int64_t ulpDistance(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  return std::llabs(int64_t(ia) - int64_t(ib));
}

/// exp in double precision rounded once to f32: the correctly rounded
/// result except in the rarest double-rounding cases.
float reference(float x) { return static_cast<float>(std::exp(double(x))); }

void expectWithinOneUlp(const std::vector<float> &in) {
  std::vector<float> out(in.size());
  expArray(in.data(), out.data(), in.size());
  int64_t worst = 0;
  float worstInput = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t distance = ulpDistance(out[i], reference(in[i]));
    if (distance > worst) {
      worst = distance;
      worstInput = in[i];
    }
    float scalar = expScalar(in[i]);
    ASSERT_TRUE(std::memcmp(&scalar, &out[i], 4) == 0 ||
                (std::isnan(scalar) && std::isnan(out[i])))
        << in[i];
  }
  EXPECT_LE(worst, 1) << "at " << worstInput;
}

// Every f16 value (inputs of f16 tiles after their cast to f32).
TEST(VectorMathTest, ExpOnEveryF16) {
  std::vector<float> in;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits)
    in.push_back(f16BitsToF32(static_cast<uint16_t>(bits)));
  expectWithinOneUlp(in);
}

// A dense f32 sample: every 61st bit pattern (70 M values, every binade,
// both signs, subnormal results, overflow, infinities and NaNs).
TEST(VectorMathTest, ExpOnDenseF32Sample) {
  std::vector<float> in;
  in.reserve((uint64_t(1) << 32) / 61 + 1);
  for (uint64_t bits = 0; bits < (uint64_t(1) << 32); bits += 61)
    in.push_back(floatFromBits(static_cast<uint32_t>(bits)));
  expectWithinOneUlp(in);
}

TEST(VectorMathTest, ExpSpecialValues) {
  EXPECT_EQ(expScalar(0.0f), 1.0f);
  EXPECT_EQ(expScalar(-0.0f), 1.0f);
  EXPECT_EQ(expScalar(INFINITY), INFINITY);
  EXPECT_EQ(expScalar(-INFINITY), 0.0f);
  EXPECT_EQ(expScalar(88.8f), INFINITY); // past the largest float
  EXPECT_EQ(expScalar(-104.0f), 0.0f);   // below the smallest subnormal
  EXPECT_GT(expScalar(-103.0f), 0.0f);   // a subnormal result
  EXPECT_TRUE(std::isnan(expScalar(NAN)));
}

} // namespace
