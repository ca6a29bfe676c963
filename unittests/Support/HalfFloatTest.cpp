//===- HalfFloatTest.cpp - f16/bf16 conversions against APFloat -----------===//

#include "tilekit/Support/HalfFloat.h"

#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace tilekit;
using llvm::APFloat;

namespace {

uint16_t apfloatBits(const llvm::fltSemantics &semantics, float value) {
  APFloat converted(value);
  bool lost;
  converted.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(converted.bitcastToAPInt().getZExtValue());
}

float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

// Every f16 value widens exactly and narrows back to itself.
TEST(HalfFloatTest, EveryF16RoundTrips) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    float wide = f16BitsToF32(static_cast<uint16_t>(bits));
    APFloat reference(APFloat::IEEEhalf(), llvm::APInt(16, bits));
    bool lost;
    reference.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                      &lost);
    if (std::isnan(wide)) {
      EXPECT_TRUE(reference.isNaN()) << bits;
      continue;
    }
    EXPECT_EQ(wide, reference.convertToFloat()) << bits;
    EXPECT_EQ(f32ToF16Bits(wide), bits) << bits;
  }
}

// Narrowing matches APFloat's round-to-nearest-even on every f32 bit
// pattern near each f16 boundary and on random ones.
TEST(HalfFloatTest, NarrowingMatchesAPFloat) {
  std::mt19937 engine(42);
  std::uniform_int_distribution<uint32_t> any;
  auto check = [](uint32_t bits) {
    float value = floatFromBits(bits);
    if (std::isnan(value))
      return;
    ASSERT_EQ(f32ToF16Bits(value), apfloatBits(APFloat::IEEEhalf(), value))
        << std::hex << bits;
    ASSERT_EQ(f32ToBF16Bits(value), apfloatBits(APFloat::BFloat(), value))
        << std::hex << bits;
  };
  for (int i = 0; i < 2000000; ++i)
    check(any(engine));
  // Ties and their neighbours around every f16 value: the 13 dropped bits
  // at 0x1000 (tie), 0x0fff and 0x1001.
  for (uint32_t high = 0; high < (1u << 19); ++high)
    for (uint32_t low : {0x0fffu, 0x1000u, 0x1001u})
      check((high << 13) | low);
}

TEST(HalfFloatTest, SpecialValues) {
  EXPECT_EQ(f32ToF16Bits(65504.0f), 0x7bffu);
  EXPECT_EQ(f32ToF16Bits(65520.0f), 0x7c00u); // rounds up to infinity
  EXPECT_EQ(f32ToF16Bits(-INFINITY), 0xfc00u);
  EXPECT_TRUE(std::isnan(f16BitsToF32(f32ToF16Bits(NAN))));
  EXPECT_TRUE(std::isnan(bf16BitsToF32(f32ToBF16Bits(NAN))));
  EXPECT_EQ(f16BitsToF32(0x0001u), std::ldexp(1.0f, -24)); // min subnormal
  EXPECT_EQ(roundToF16(std::ldexp(1.0f, -25)), 0.0f);      // tie to even 0
  EXPECT_EQ(roundToBF16(1.00390625f), 1.0f);               // tie to even
}

} // namespace
