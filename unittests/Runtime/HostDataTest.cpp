//===- HostDataTest.cpp - Unit tests for tile-run's host-side data --------===//
//
// Part of tile-mlir. Needs no GPU and no CUDA driver.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/HostData.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tile::runtime;

namespace {

TEST(HostData, HalfConversionRoundsToNearestEven) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00);           // ties up to infinity
  EXPECT_EQ(floatToHalfBits(1.0f + 1.0f / 2048), 0x3c00); // tie to even
  EXPECT_EQ(floatToHalfBits(1.0f + 3.0f / 2048), 0x3c02); // tie to even
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -24)), 0x0001); // subnormal
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -26)), 0x0000);
  EXPECT_EQ(floatToHalfBits(std::numeric_limits<float>::quiet_NaN()) & 0x7e00,
            0x7e00);
  for (uint32_t bits = 0; bits < 0x7c00; ++bits)
    ASSERT_EQ(floatToHalfBits(halfBitsToFloat(uint16_t(bits))), bits) << bits;
}

TEST(HostData, BF16ConversionRoundsToNearestEven) {
  EXPECT_EQ(floatToBF16Bits(1.0f), 0x3f80);
  EXPECT_EQ(bf16BitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(floatToBF16Bits(1.0f + 1.0f / 256), 0x3f80); // tie to even
  EXPECT_EQ(floatToBF16Bits(1.0f + 3.0f / 256), 0x3f82);
}

TEST(HostData, EncodeDecodeRoundTrips) {
  std::vector<float> v = {0.5f, -1.25f, 3.0f};
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32}) {
    std::vector<uint8_t> bytes = encode(v, t);
    EXPECT_EQ(bytes.size(), v.size() * elemTypeBytes(t));
    EXPECT_EQ(decode(bytes, t), v);
  }
}

TEST(HostData, RandomValuesAreSeededAndRepresentable) {
  std::vector<float> a = randomValues(1000, 42, ElemType::F16);
  EXPECT_EQ(a, randomValues(1000, 42, ElemType::F16));
  EXPECT_NE(a, randomValues(1000, 43, ElemType::F16));
  double sum = 0;
  for (float x : a) {
    ASSERT_GE(x, -1.0f);
    ASSERT_LE(x, 1.0f);
    ASSERT_EQ(halfBitsToFloat(floatToHalfBits(x)), x);
    sum += x;
  }
  EXPECT_LT(std::fabs(sum / a.size()), 0.1); // centred, not all one sign
}

TEST(HostData, AllCloseFindsTheWorstElement) {
  std::vector<float> ref = {1.0f, 100.0f, -5.0f, 0.0f};
  std::vector<float> out = {1.015f, 100.5f, -5.0f, 0.0f};
  CheckResult r = compareAllClose(out, ref, 1e-2, 1e-2);
  EXPECT_TRUE(r.pass());      // 0.015 <= 0.02, 0.5 <= 1.01
  EXPECT_EQ(r.worstIndex, 0); // 0.015/0.02 is closer to failing
  EXPECT_NEAR(r.maxAbsErr, 0.5, 1e-6);

  out[2] = -5.1f; // 0.1 > 0.06
  r = compareAllClose(out, ref, 1e-2, 1e-2);
  EXPECT_FALSE(r.pass());
  EXPECT_EQ(r.numBad, 1);
  EXPECT_EQ(r.worstIndex, 2);
  EXPECT_EQ(r.worstOut, -5.1f);
  EXPECT_EQ(r.worstRef, -5.0f);
}

TEST(HostData, AllCloseNamesAnElementAtZeroTolerance) {
  // Exact everywhere with rtol = atol = 0: each element's error is 0 of 0
  // allowed, and the worst element is still one of them.
  std::vector<float> values = {1.0f, 2.0f, 0.0f};
  CheckResult r = compareAllClose(values, values, 0, 0);
  EXPECT_TRUE(r.pass());
  EXPECT_EQ(r.worstIndex, 0);
  EXPECT_EQ(r.maxAbsErr, 0);
}

TEST(HostData, AllCloseTakesInfinitiesAsNumpyDoes) {
  // An infinity is close only to itself: an infinite reference used to
  // allow any error, and two equal infinities to fail (inf - inf is NaN).
  float inf = std::numeric_limits<float>::infinity();
  std::vector<float> ref = {inf, inf, -inf, -inf};
  std::vector<float> out = {inf, 0.0f, inf, 1e30f};
  CheckResult r = compareAllClose(out, ref, 1e-2, 1e-2);
  EXPECT_EQ(r.numBad, 3);
  EXPECT_TRUE(std::isinf(r.maxAbsErr));
  EXPECT_EQ(r.worstIndex, 1);
  // A finite reference and an infinite output is as far as it gets.
  r = compareAllClose({inf}, {1.0f}, 1e-2, 1e-2);
  EXPECT_EQ(r.numBad, 1);
}

TEST(HostData, AllCloseNeverPassesNaN) {
  std::vector<float> ref = {1.0f, 2.0f};
  std::vector<float> out = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  CheckResult r = compareAllClose(out, ref, 1e-2, 1e-2);
  EXPECT_FALSE(r.pass());
  EXPECT_EQ(r.numBad, 1);
  EXPECT_EQ(r.worstIndex, 1);
  EXPECT_TRUE(std::isinf(r.maxAbsErr));
}

} // namespace
