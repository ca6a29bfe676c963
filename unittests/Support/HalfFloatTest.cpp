//===- HalfFloatTest.cpp - f16/bf16 conversions against APFloat -----------===//

#include "tilekit/Support/HalfFloat.h"

#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

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

// The vectorized whole-array conversions compute the scalar definitions
// bit for bit: on every f16 and bf16 pattern, and on f32 patterns that
// step through every exponent with varied low bits (16 M of them).
TEST(HalfFloatTest, ArraysMatchScalars) {
  std::vector<uint16_t> halves(1u << 16);
  for (uint32_t bits = 0; bits <= 0xffff; ++bits)
    halves[bits] = static_cast<uint16_t>(bits);
  std::vector<float> wide(halves.size());
  f16BitsToF32(halves.data(), wide.data(), halves.size());
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    float scalar = f16BitsToF32(static_cast<uint16_t>(bits));
    ASSERT_EQ(std::memcmp(&wide[bits], &scalar, 4), 0) << bits;
  }
  bf16BitsToF32(halves.data(), wide.data(), halves.size());
  for (uint32_t bits = 0; bits <= 0xffff; ++bits)
    ASSERT_EQ(wide[bits] == bf16BitsToF32(static_cast<uint16_t>(bits)) ||
                  std::isnan(wide[bits]),
              true)
        << bits;

  const size_t count = 1u << 24;
  std::vector<float> in(count), rounded(count);
  std::vector<uint16_t> narrow(count), narrowBF(count);
  for (size_t i = 0; i < count; ++i)
    in[i] = floatFromBits(static_cast<uint32_t>(i * 255 + (i >> 9)));
  f32ToF16Bits(in.data(), narrow.data(), count);
  f32ToBF16Bits(in.data(), narrowBF.data(), count);
  roundToF16(in.data(), rounded.data(), count);
  for (size_t i = 0; i < count; ++i) {
    ASSERT_EQ(narrow[i], f32ToF16Bits(in[i])) << std::hex << i;
    ASSERT_EQ(narrowBF[i], f32ToBF16Bits(in[i])) << std::hex << i;
    float scalar = roundToF16(in[i]);
    ASSERT_EQ(std::memcmp(&rounded[i], &scalar, 4), 0) << std::hex << i;
  }
  // In place, as the executor rounds a result array.
  roundToBF16(in.data(), in.data(), count);
  for (size_t i = 0; i < count; ++i)
    ASSERT_EQ(f32ToBF16Bits(in[i]) == narrowBF[i] || std::isnan(in[i]), true)
        << std::hex << i;
}

// Subnormal f16 results round to nearest even through the FPU's rounding.
TEST(HalfFloatTest, SubnormalsRoundToNearestEven) {
  for (uint32_t bits = 0x33000000u; bits < 0x38800000u; bits += 0x101u) {
    float value = floatFromBits(bits);
    ASSERT_EQ(f32ToF16Bits(value), apfloatBits(APFloat::IEEEhalf(), value))
        << std::hex << bits;
  }
}
