//===- FragmentLayoutTest.cpp - The warp-tiled fragment layout ------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/FragmentLayout.h"

#include "llvm/ADT/SmallBitVector.h"
#include "gtest/gtest.h"

#include <string>

using namespace mlir::tile;

namespace {

struct FragmentCase {
  int64_t rows, cols, threads;
  int64_t warpsM, warpsN; // the expected warp grid
};

class FragmentLayoutTest : public ::testing::TestWithParam<FragmentCase> {};

/// Every element of `layout`'s tile is held by exactly one (thread,
/// register) of `threads` threads, and every position is in range.
static void expectPartition(const FragmentLayout &layout, int64_t threads) {
  llvm::SmallBitVector seen(layout.rows * layout.cols);
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t r = 0; r < layout.getNumRegisters(); ++r) {
      auto [row, col] = layout.getPosition(t, r);
      ASSERT_GE(row, 0);
      ASSERT_LT(row, layout.rows);
      ASSERT_GE(col, 0);
      ASSERT_LT(col, layout.cols);
      EXPECT_FALSE(seen.test(row * layout.cols + col))
          << "thread " << t << " register " << r;
      seen.set(row * layout.cols + col);
    }
  EXPECT_TRUE(seen.all());
}

// Every element of the tile is held by exactly one (thread, register).
TEST_P(FragmentLayoutTest, CoversEachElementOnce) {
  FragmentCase c = GetParam();
  std::string why;
  std::optional<FragmentLayout> layout =
      FragmentLayout::get({c.rows, c.cols}, c.threads, why);
  ASSERT_TRUE(layout) << why;
  EXPECT_FALSE(layout->warpgroup);
  EXPECT_EQ(layout->warpsM, c.warpsM);
  EXPECT_EQ(layout->warpsN, c.warpsN);
  EXPECT_EQ(layout->getNumRegisters() * c.threads, c.rows * c.cols);
  expectPartition(*layout, c.threads);
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

struct WarpgroupCase {
  int64_t rows, cols, threads;
  int64_t groupsM, groupsN; // the expected warpgroup grid
};

class WarpgroupLayoutTest : public ::testing::TestWithParam<WarpgroupCase> {};

// The warpgroup layout is a partition of the tile too: every element is held
// by exactly one (thread, register), and every position is in range.
TEST_P(WarpgroupLayoutTest, CoversEachElementOnce) {
  WarpgroupCase c = GetParam();
  std::string why;
  std::optional<FragmentLayout> layout =
      FragmentLayout::getWarpgroup({c.rows, c.cols}, c.threads, why);
  ASSERT_TRUE(layout) << why;
  EXPECT_TRUE(layout->warpgroup);
  EXPECT_EQ(layout->warpsM, c.groupsM);
  EXPECT_EQ(layout->warpsN, c.groupsN);
  EXPECT_EQ(layout->warpTileM, c.rows / c.groupsM);
  EXPECT_EQ(layout->warpTileN, c.cols / c.groupsN);
  // One m64nN slice per 64 rows of the group tile, one m16n8 tile per 8
  // columns.
  EXPECT_EQ(layout->tilesM, layout->warpTileM / 64);
  EXPECT_EQ(layout->tilesN, layout->warpTileN / 8);
  EXPECT_EQ(layout->getTileStrideM(), 64);
  EXPECT_EQ(layout->getNumRegisters() * c.threads, c.rows * c.cols);
  expectPartition(*layout, c.threads);
}

// Every register of every thread is where PTX's wgmma m64nNk16 f32
// accumulator puts it: warp w % 4 of a warpgroup holds rows 16 * (w % 4) +
// lane / 4 (and 8 below) of each 64-row slice i, and columns 8 * j +
// 2 * (lane % 4) + {0, 1}; register ((i * tilesN + j) * 2 + h) * 2 + e.
TEST_P(WarpgroupLayoutTest, MatchesWgmmaAccumulator) {
  WarpgroupCase c = GetParam();
  std::string why;
  std::optional<FragmentLayout> layout =
      FragmentLayout::getWarpgroup({c.rows, c.cols}, c.threads, why);
  ASSERT_TRUE(layout) << why;
  int64_t groupRows = c.rows / c.groupsM, groupCols = c.cols / c.groupsN;
  int64_t tilesM = groupRows / 64, tilesN = groupCols / 8;
  for (int64_t t = 0; t < c.threads; ++t) {
    int64_t warp = t / 32, lane = t % 32, group = warp / 4;
    int64_t groupRow = (group / c.groupsN) * groupRows;
    int64_t groupCol = (group % c.groupsN) * groupCols;
    for (int64_t i = 0; i < tilesM; ++i)
      for (int64_t j = 0; j < tilesN; ++j)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t e = 0; e < 2; ++e) {
            int64_t reg = ((i * tilesN + j) * 2 + h) * 2 + e;
            ASSERT_EQ(layout->getRegister(i, j, h, e), reg);
            auto [row, col] = layout->getPosition(t, reg);
            EXPECT_EQ(row,
                      groupRow + 64 * i + 16 * (warp % 4) + 8 * h + lane / 4)
                << "thread " << t << " register " << reg;
            EXPECT_EQ(col, groupCol + 8 * j + 2 * (lane % 4) + e)
                << "thread " << t << " register " << reg;
          }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, WarpgroupLayoutTest,
    ::testing::Values(
        WarpgroupCase{128, 128, 128, 1, 1},  // the seed: two m64n128 slices
        WarpgroupCase{128, 256, 256, 2, 1},  // two stacked m64n256 groups
        WarpgroupCase{64, 64, 128, 1, 1},    // one m64n64 slice
        WarpgroupCase{256, 128, 256, 2, 1},  // two groups stacked
        WarpgroupCase{64, 256, 128, 1, 1},   // wgmma's largest N
        WarpgroupCase{128, 64, 512, 2, 2})); // 4 groups of 64x32

TEST(FragmentLayout, RejectsWhatNoWarpgroupTilingFits) {
  std::string why;
  // Not a whole number of warpgroups.
  EXPECT_FALSE(FragmentLayout::getWarpgroup({128, 128}, 96, why));
  EXPECT_NE(why.find("multiple of 128 threads"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(FragmentLayout::getWarpgroup({128, 128}, 64, why));
  EXPECT_NE(why.find("multiple of 128 threads"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(FragmentLayout::getWarpgroup({512}, 128, why));
  EXPECT_NE(why.find("2-D"), std::string::npos) << why;
  // Rows that are not a multiple of 64 (per warpgroup).
  for (int64_t rows : {16, 32, 48, 96}) {
    why.clear();
    EXPECT_FALSE(FragmentLayout::getWarpgroup({rows, 64}, 128, why)) << rows;
    EXPECT_NE(why.find("no tiling of 1 warpgroup fits a " +
                       std::to_string(rows) + "x64 fragment"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("multiples of 64"), std::string::npos) << why;
  }
  // 64 rows cannot be split between two warpgroups, and 128 columns can,
  // but only into 64-column halves: 64x128 fits 1 x 2 ...
  why.clear();
  EXPECT_TRUE(FragmentLayout::getWarpgroup({64, 128}, 256, why)) << why;
  // ... while 64x8 fits neither way.
  why.clear();
  EXPECT_FALSE(FragmentLayout::getWarpgroup({64, 8}, 256, why));
  EXPECT_NE(why.find("no tiling of 2 warpgroups fits a 64x8 fragment"),
            std::string::npos)
      << why;
  // More than 256 columns (wgmma's largest N) per warpgroup.
  why.clear();
  EXPECT_FALSE(FragmentLayout::getWarpgroup({64, 512}, 128, why));
  EXPECT_NE(why.find("64x512"), std::string::npos) << why;
  EXPECT_NE(why.find("at most 256"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(FragmentLayout::getWarpgroup({64, 264}, 128, why));
  EXPECT_NE(why.find("at most 256"), std::string::npos) << why;
  // Columns that are not a multiple of 8.
  why.clear();
  EXPECT_FALSE(FragmentLayout::getWarpgroup({64, 60}, 128, why));
  EXPECT_NE(why.find("multiples of 8"), std::string::npos) << why;
}

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
