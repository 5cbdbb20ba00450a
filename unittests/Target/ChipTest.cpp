//===- ChipTest.cpp - The chip table's derived limits ---------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Chip.h"

#include "gtest/gtest.h"

using namespace mlir::tile;

namespace {

// A thread may use 255 registers until the block's warps would overflow the
// 64K-register file; then 65536 / (threads rounded up to a warp), rounded
// down to the allocation unit of 8.
TEST(ChipTest, RegisterLimitFollowsBlockSize) {
  const ChipInfo *chip = lookupChip("sm_90a");
  ASSERT_NE(chip, nullptr);
  EXPECT_EQ(getRegisterLimit(*chip, 32), 255);
  EXPECT_EQ(getRegisterLimit(*chip, 128), 255);
  EXPECT_EQ(getRegisterLimit(*chip, 256), 255);
  EXPECT_EQ(getRegisterLimit(*chip, 384), 168);
  EXPECT_EQ(getRegisterLimit(*chip, 512), 128);
  EXPECT_EQ(getRegisterLimit(*chip, 640), 96);
  EXPECT_EQ(getRegisterLimit(*chip, 1024), 64);
  // A partial warp still takes a whole warp's registers.
  EXPECT_EQ(getRegisterLimit(*chip, 500), 128);
  EXPECT_EQ(getRegisterLimit(*chip, 1000), 64);
}

TEST(ChipTest, EveryChipHasARegisterFile) {
  for (const ChipInfo &chip : getKnownChips()) {
    EXPECT_EQ(chip.maxRegistersPerBlock, 65536) << chip.name.str();
    EXPECT_EQ(getRegisterLimit(chip, 128), chip.maxRegistersPerThread)
        << chip.name.str();
  }
}

} // namespace
