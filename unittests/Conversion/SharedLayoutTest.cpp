//===- SharedLayoutTest.cpp - The shared-tile swizzle ---------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/SharedLayout.h"

#include "llvm/ADT/SmallBitVector.h"
#include "gtest/gtest.h"

using namespace mlir::tile;

namespace {

struct TileShape {
  int64_t rows, rowElements, elementBytes;
};

class SharedLayoutTest : public ::testing::TestWithParam<TileShape> {};

// Within a row the swizzle permutes the columns: nothing is lost or doubled,
// and each 16-byte chunk stays contiguous.
TEST_P(SharedLayoutTest, PermutesEachRow) {
  TileShape shape = GetParam();
  SharedSwizzle swizzle(shape.rowElements, shape.elementBytes);
  for (int64_t row = 0; row < shape.rows; ++row) {
    llvm::SmallBitVector seen(shape.rowElements);
    for (int64_t col = 0; col < shape.rowElements; ++col) {
      int64_t physical = swizzle.getColumn(row, col);
      ASSERT_GE(physical, 0);
      ASSERT_LT(physical, shape.rowElements);
      EXPECT_FALSE(seen.test(physical)) << "row " << row << " col " << col;
      seen.set(physical);
      if (col % swizzle.chunkElements != 0) {
        EXPECT_EQ(physical, swizzle.getColumn(row, col - 1) + 1);
      }
    }
  }
}

// ldmatrix reads one 16-byte chunk column of 8 consecutive rows: those 8
// chunks must land in 8 different 16-byte bank groups.
TEST_P(SharedLayoutTest, LdmatrixRowsHitDistinctBankGroups) {
  TileShape shape = GetParam();
  SharedSwizzle swizzle(shape.rowElements, shape.elementBytes);
  int64_t rowBytes = shape.rowElements * shape.elementBytes;
  for (int64_t first = 0; first + 8 <= shape.rows; first += 8) {
    for (int64_t col = 0; col < shape.rowElements;
         col += swizzle.chunkElements) {
      llvm::SmallBitVector groups(8);
      for (int64_t row = first; row < first + 8; ++row) {
        int64_t byte =
            row * rowBytes + swizzle.getColumn(row, col) * shape.elementBytes;
        int64_t group = (byte / 16) % 8;
        EXPECT_FALSE(groups.test(group))
            << "rows " << first << ".." << first + 7 << " col " << col;
        groups.set(group);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    SeedTiles, SharedLayoutTest,
    ::testing::Values(TileShape{128, 32, 2},  // A_s 128x32 f16
                      TileShape{32, 128, 2},  // B_s 32x128 f16
                      TileShape{64, 64, 2},   // 128-byte rows
                      TileShape{64, 16, 2},   // 32-byte rows
                      TileShape{256, 64, 2},  // the seed's 256x256x64
                      TileShape{64, 256, 2},  //   config
                      TileShape{64, 32, 4})); // f32 tiles

TEST(SharedLayout, IdentityWhenRowsAreNotWholeChunks) {
  SharedSwizzle swizzle(/*rowElements=*/12, /*elementBytes=*/2);
  EXPECT_TRUE(swizzle.isIdentity());
  EXPECT_EQ(swizzle.getColumn(5, 7), 7);
}

} // namespace
