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

using Position = std::pair<int64_t, int64_t>;

struct TileShape {
  int64_t rows, rowElements, elementBytes;
};

class SharedLayoutTest : public ::testing::TestWithParam<TileShape> {};

/// The element offset of logical (row, col) within the tile.
static int64_t physicalOffset(const SharedSwizzle &swizzle, int64_t row,
                              int64_t col) {
  auto [physicalRow, physicalCol] = swizzle.getPhysical(row, col);
  return physicalRow * swizzle.rowElements + physicalCol;
}

// The layout permutes the tile: nothing is lost or doubled, and each 16-byte
// chunk stays contiguous.
TEST_P(SharedLayoutTest, PermutesTheTile) {
  TileShape shape = GetParam();
  SharedSwizzle swizzle(shape.rows, shape.rowElements, shape.elementBytes);
  llvm::SmallBitVector seen(shape.rows * shape.rowElements);
  for (int64_t row = 0; row < shape.rows; ++row) {
    for (int64_t col = 0; col < shape.rowElements; ++col) {
      auto [physicalRow, physicalCol] = swizzle.getPhysical(row, col);
      ASSERT_GE(physicalRow, 0);
      ASSERT_LT(physicalRow, shape.rows);
      ASSERT_GE(physicalCol, 0);
      ASSERT_LT(physicalCol, shape.rowElements);
      int64_t offset = physicalOffset(swizzle, row, col);
      EXPECT_FALSE(seen.test(offset)) << "row " << row << " col " << col;
      seen.set(offset);
      if (col % swizzle.chunkElements != 0) {
        EXPECT_EQ(offset, physicalOffset(swizzle, row, col - 1) + 1);
      }
    }
  }
}

// ldmatrix reads one 16-byte chunk column of 8 consecutive rows, and a
// quarter-warp of cp.async writes 128 contiguous bytes of a row: either way
// the 8 chunks must land in 8 different 16-byte bank groups.
TEST_P(SharedLayoutTest, EightChunksHitDistinctBankGroups) {
  TileShape shape = GetParam();
  SharedSwizzle swizzle(shape.rows, shape.rowElements, shape.elementBytes);
  auto group = [&](int64_t row, int64_t col) {
    return (physicalOffset(swizzle, row, col) * shape.elementBytes / 16) % 8;
  };
  for (int64_t first = 0; first + 8 <= shape.rows; first += 8) {
    for (int64_t col = 0; col < shape.rowElements;
         col += swizzle.chunkElements) {
      llvm::SmallBitVector groups(8);
      for (int64_t row = first; row < first + 8; ++row) {
        EXPECT_FALSE(groups.test(group(row, col)))
            << "rows " << first << ".." << first + 7 << " col " << col;
        groups.set(group(row, col));
      }
    }
  }
  int64_t lineElements = 8 * swizzle.chunkElements;
  if (shape.rowElements % lineElements != 0)
    return;
  for (int64_t row = 0; row < shape.rows; ++row)
    for (int64_t first = 0; first < shape.rowElements; first += lineElements) {
      llvm::SmallBitVector groups(8);
      for (int64_t col = first; col < first + lineElements;
           col += swizzle.chunkElements) {
        EXPECT_FALSE(groups.test(group(row, col)))
            << "row " << row << " cols " << first << "..";
        groups.set(group(row, col));
      }
    }
}

// What wgmma's swizzled shared-memory layouts assume: with rows of B = 32,
// 64 or 128 bytes within a panel, byte b of row r of a panel lies at
// r * B + b with its chunk bits (4 and up) XOR-ed with the bits of the
// address above the 128-byte line (7 and up), and the panels of a tile
// follow each other.
TEST_P(SharedLayoutTest, MatchesTheWgmmaSwizzle) {
  TileShape shape = GetParam();
  SharedSwizzle swizzle(shape.rows, shape.rowElements, shape.elementBytes);
  int64_t panelBytes = swizzle.getPanelElements() * shape.elementBytes;
  if (panelBytes != 32 && panelBytes != 64 && panelBytes != 128)
    GTEST_SKIP() << "no wgmma swizzle for " << panelBytes << "-byte rows";
  int64_t chunkBits = panelBytes / 16 - 1;
  for (int64_t row = 0; row < shape.rows; ++row)
    for (int64_t col = 0; col < shape.rowElements; ++col) {
      int64_t panel = col / swizzle.getPanelElements();
      int64_t linear = (panel * shape.rows + row) * panelBytes +
                       (col % swizzle.getPanelElements()) * shape.elementBytes;
      int64_t expected = linear ^ (((linear >> 7) & chunkBits) << 4);
      EXPECT_EQ(physicalOffset(swizzle, row, col) * shape.elementBytes,
                expected)
          << "row " << row << " col " << col;
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
  SharedSwizzle swizzle(/*rows=*/16, /*rowElements=*/12, /*elementBytes=*/2);
  EXPECT_TRUE(swizzle.isIdentity());
  EXPECT_EQ(swizzle.getPhysical(5, 7), Position(5, 7));
}

TEST(SharedLayout, WideRowsBecome128BytePanels) {
  // B_s 32x128 f16: two panels of 32 rows x 64 columns.
  SharedSwizzle swizzle(/*rows=*/32, /*rowElements=*/128, /*elementBytes=*/2);
  EXPECT_EQ(swizzle.panels, 2);
  EXPECT_EQ(swizzle.period(), 8);
  // Row 3, column 64 + 8: panel 1, chunk 1 ^ 3 = 2 of row 3 of that panel.
  EXPECT_EQ(swizzle.getPhysical(3, 72), Position(16 + 1, 64 + 16));
}

TEST(SharedLayout, RowsThatDoNotSplitKeepOnePanel) {
  SharedSwizzle swizzle(/*rows=*/3, /*rowElements=*/128, /*elementBytes=*/2);
  EXPECT_EQ(swizzle.panels, 1);
  EXPECT_EQ(swizzle.getPhysical(2, 8), Position(2, 24));
}

} // namespace
