//===- FragmentLayout.cpp - Which thread holds which fragment element -----===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/FragmentLayout.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir::tile;

static constexpr int64_t kWarpSize = 32;
static constexpr int64_t kMmaM = 16;
static constexpr int64_t kMmaN = 8;
static constexpr int64_t kWarpsPerGroup = 4;
static constexpr int64_t kWarpgroupSize = kWarpsPerGroup * kWarpSize;
static constexpr int64_t kWgmmaM = 64;
static constexpr int64_t kWgmmaMaxN = 256;

std::optional<FragmentLayout> FragmentLayout::get(llvm::ArrayRef<int64_t> shape,
                                                  int64_t threads,
                                                  std::string &why) {
  llvm::raw_string_ostream os(why);
  if (shape.size() != 2) {
    os << "a fragment must be 2-D on the GPU, got rank " << shape.size();
    return std::nullopt;
  }
  if (threads <= 0 || threads % kWarpSize != 0) {
    os << "the block's thread count (" << threads
       << ") must be a multiple of 32";
    return std::nullopt;
  }
  int64_t warps = threads / kWarpSize;
  std::optional<FragmentLayout> best;
  for (int64_t warpsM = 1; warpsM <= warps; ++warpsM) {
    if (warps % warpsM != 0)
      continue;
    int64_t warpsN = warps / warpsM;
    if (shape[0] % (kMmaM * warpsM) != 0 || shape[1] % (kMmaN * warpsN) != 0)
      continue;
    FragmentLayout layout{shape[0],
                          shape[1],
                          warpsM,
                          warpsN,
                          shape[0] / warpsM,
                          shape[1] / warpsN,
                          shape[0] / warpsM / kMmaM,
                          shape[1] / warpsN / kMmaN};
    // Per k-step a warp reads warpTileM + warpTileN rows of A and B: for a
    // fixed area that sum is smallest for the squarest tile.
    auto cost = [](const FragmentLayout &l) {
      return l.warpTileM + l.warpTileN;
    };
    if (!best || cost(layout) < cost(*best))
      best = layout;
  }
  if (!best)
    os << "no warp tiling of " << warps << " warps fits a " << shape[0] << "x"
       << shape[1]
       << " fragment: rows must split into multiples of 16 and columns into "
          "multiples of 8 per warp (e.g. 16 * warps rows)";
  return best;
}

std::optional<FragmentLayout>
FragmentLayout::getWarpgroup(llvm::ArrayRef<int64_t> shape, int64_t threads,
                             std::string &why) {
  llvm::raw_string_ostream os(why);
  if (shape.size() != 2 || threads <= 0 || threads % kWarpgroupSize != 0) {
    os << "wgmma needs a 2-D fragment and a multiple of 128 threads";
    return std::nullopt;
  }
  int64_t groups = threads / kWarpgroupSize;
  std::optional<FragmentLayout> best;
  for (int64_t groupsM = 1; groupsM <= groups; ++groupsM) {
    if (groups % groupsM != 0)
      continue;
    int64_t groupsN = groups / groupsM;
    if (shape[0] % (kWgmmaM * groupsM) != 0 ||
        shape[1] % (kMmaN * groupsN) != 0 || shape[1] / groupsN > kWgmmaMaxN)
      continue;
    FragmentLayout layout{shape[0],
                          shape[1],
                          groupsM,
                          groupsN,
                          shape[0] / groupsM,
                          shape[1] / groupsN,
                          shape[0] / groupsM / kWgmmaM,
                          shape[1] / groupsN / kMmaN,
                          /*warpgroup=*/true};
    // wgmma reads A and B from shared memory once per group tile.
    auto cost = [](const FragmentLayout &l) {
      return l.warpTileM + l.warpTileN;
    };
    if (!best || cost(layout) < cost(*best))
      best = layout;
  }
  if (!best)
    os << "no tiling of " << groups << " warpgroups fits a " << shape[0] << "x"
       << shape[1]
       << " fragment: rows must split into multiples of 64 and columns "
          "into multiples of 8 of at most 256 per warpgroup";
  return best;
}

std::pair<int64_t, int64_t> FragmentLayout::getWarpOrigin(int64_t warp) const {
  if (!warpgroup)
    return {(warp / warpsN) * warpTileM, (warp % warpsN) * warpTileN};
  int64_t group = warp / kWarpsPerGroup;
  return {(group / warpsN) * warpTileM + (warp % kWarpsPerGroup) * kMmaM,
          (group % warpsN) * warpTileN};
}

std::pair<int64_t, int64_t> FragmentLayout::getPosition(int64_t thread,
                                                        int64_t reg) const {
  int64_t warp = thread / kWarpSize, lane = thread % kWarpSize;
  int64_t e = reg % 2, h = (reg / 2) % 2, tile = reg / 4;
  int64_t i = tile / tilesN, j = tile % tilesN;
  auto [warpRow, warpCol] = getWarpOrigin(warp);
  return {warpRow + i * getTileStrideM() + h * 8 + lane / 4,
          warpCol + j * kMmaN + 2 * (lane % 4) + e};
}
