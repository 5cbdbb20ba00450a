//===- FragmentLayoutTest.cpp - The warp-tiled fragment layout ------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/FragmentLayout.h"

#include "llvm/ADT/SmallBitVector.h"
#include "gtest/gtest.h"

using namespace mlir::tile;

namespace {

struct FragmentCase {
  int64_t rows, cols, threads;
  int64_t warpsM, warpsN; // the expected warp grid
};

class FragmentLayoutTest : public ::testing::TestWithParam<FragmentCase> {};

// Every element of the tile is held by exactly one (thread, register).
TEST_P(FragmentLayoutTest, CoversEachElementOnce) {
  FragmentCase c = GetParam();
  std::string why;
  std::optional<FragmentLayout> layout =
      FragmentLayout::get({c.rows, c.cols}, c.threads, why);
  ASSERT_TRUE(layout) << why;
  EXPECT_EQ(layout->warpsM, c.warpsM);
  EXPECT_EQ(layout->warpsN, c.warpsN);
  EXPECT_EQ(layout->getNumRegisters() * c.threads, c.rows * c.cols);
  llvm::SmallBitVector seen(c.rows * c.cols);
  for (int64_t t = 0; t < c.threads; ++t)
    for (int64_t r = 0; r < layout->getNumRegisters(); ++r) {
      auto [row, col] = layout->getPosition(t, r);
      ASSERT_GE(row, 0);
      ASSERT_LT(row, c.rows);
      ASSERT_GE(col, 0);
      ASSERT_LT(col, c.cols);
      EXPECT_FALSE(seen.test(row * c.cols + col))
          << "thread " << t << " register " << r;
      seen.set(row * c.cols + col);
    }
  EXPECT_TRUE(seen.all());
}

// Within an mma tile, lane l holds PTX's m16n8 accumulator elements: c0,c1
// at (l/4, 2*(l%4) + {0,1}), c2,c3 eight rows below.
TEST_P(FragmentLayoutTest, MatchesMmaAccumulator) {
  FragmentCase c = GetParam();
  std::string why;
  FragmentLayout layout =
      *FragmentLayout::get({c.rows, c.cols}, c.threads, why);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t e = 0; e < 2; ++e) {
        auto [row, col] =
            layout.getPosition(lane, layout.getRegister(0, 0, h, e));
        EXPECT_EQ(row, lane / 4 + 8 * h);
        EXPECT_EQ(col, 2 * (lane % 4) + e);
      }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, FragmentLayoutTest,
    ::testing::Values(FragmentCase{128, 128, 128, 2, 2}, // the seed: 64x64
                      FragmentCase{64, 64, 128, 2, 2},
                      FragmentCase{128, 256, 256, 2, 4},
                      FragmentCase{256, 128, 256, 4, 2},
                      FragmentCase{64, 48, 128, 2, 2},  // 3 n-tiles per warp
                      FragmentCase{16, 256, 128, 1, 4}, // forced by 16 rows
                      FragmentCase{128, 32, 128, 4, 1},
                      FragmentCase{32, 32, 32, 1, 1}));

TEST(FragmentLayout, RejectsWhatNoWarpTilingFits) {
  std::string why;
  EXPECT_FALSE(FragmentLayout::get({24, 24}, 128, why));
  EXPECT_NE(why.find("no warp tiling of 4 warps"), std::string::npos);
  why.clear();
  EXPECT_FALSE(FragmentLayout::get({512}, 128, why));
  EXPECT_NE(why.find("2-D"), std::string::npos);
  why.clear();
  EXPECT_FALSE(FragmentLayout::get({64, 64}, 100, why));
  EXPECT_NE(why.find("multiple of 32"), std::string::npos);
}

} // namespace
