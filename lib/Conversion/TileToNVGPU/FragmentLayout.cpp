//===- FragmentLayout.cpp - Which thread holds which fragment element -----===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/FragmentLayout.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir::tile;

static constexpr int64_t kWarpThreads = 32;
static constexpr int64_t kMmaM = 16;
static constexpr int64_t kMmaN = 8;
static constexpr int64_t kWarpsPerGroup = kWarpgroupThreads / kWarpThreads;
static constexpr int64_t kWgmmaM = 64;
static constexpr int64_t kWgmmaMaxN = 256;

/// The squarest split of `units` (warps, or warpgroups when `warpgroup`)
/// into a unitsM x unitsN grid over `shape` whose unit tiles have rows in
/// multiples of `tileM` and columns in multiples of 8, at most `maxCols`:
/// per k-step a unit reads its tile's rows of A and columns of B from
/// shared memory, and for a fixed area that sum is smallest for the
/// squarest tile.
static std::optional<FragmentLayout> chooseSplit(llvm::ArrayRef<int64_t> shape,
                                                 int64_t units, int64_t tileM,
                                                 int64_t maxCols,
                                                 bool warpgroup) {
  std::optional<FragmentLayout> best;
  for (int64_t unitsM = 1; unitsM <= units; ++unitsM) {
    if (units % unitsM != 0)
      continue;
    int64_t unitsN = units / unitsM;
    if (shape[0] % (tileM * unitsM) != 0 || shape[1] % (kMmaN * unitsN) != 0 ||
        shape[1] / unitsN > maxCols)
      continue;
    FragmentLayout layout{shape[0],
                          shape[1],
                          unitsM,
                          unitsN,
                          shape[0] / unitsM,
                          shape[1] / unitsN,
                          shape[0] / unitsM / tileM,
                          shape[1] / unitsN / kMmaN,
                          warpgroup};
    auto cost = [](const FragmentLayout &l) {
      // wgmma reads a 64-row slice of A and all of the group's B per
      // m64nNk16; a warp reads its rows of A and columns of B once.
      return l.warpgroup ? l.tilesM * (kWgmmaM + l.warpTileN)
                         : l.warpTileM + l.warpTileN;
    };
    if (!best || cost(layout) < cost(*best))
      best = layout;
  }
  return best;
}

std::optional<FragmentLayout> FragmentLayout::get(llvm::ArrayRef<int64_t> shape,
                                                  int64_t threads,
                                                  std::string &why) {
  llvm::raw_string_ostream os(why);
  if (shape.size() != 2) {
    os << "a fragment must be 2-D on the GPU, got rank " << shape.size();
    return std::nullopt;
  }
  if (threads <= 0 || threads % kWarpThreads != 0) {
    os << "the block's thread count (" << threads
       << ") must be a multiple of 32";
    return std::nullopt;
  }
  int64_t warps = threads / kWarpThreads;
  std::optional<FragmentLayout> best =
      chooseSplit(shape, warps, kMmaM, shape[1], /*warpgroup=*/false);
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
  if (shape.size() != 2 || threads <= 0 || threads % kWarpgroupThreads != 0) {
    os << "wgmma needs a 2-D fragment and a multiple of 128 threads";
    return std::nullopt;
  }
  int64_t groups = threads / kWarpgroupThreads;
  std::optional<FragmentLayout> best =
      chooseSplit(shape, groups, kWgmmaM, kWgmmaMaxN, /*warpgroup=*/true);
  if (!best)
    os << "no tiling of " << groups
       << (groups == 1 ? " warpgroup" : " warpgroups") << " fits a " << shape[0]
       << "x" << shape[1]
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
  int64_t warp = thread / kWarpThreads, lane = thread % kWarpThreads;
  int64_t e = reg % 2, h = (reg / 2) % 2, tile = reg / 4;
  int64_t i = tile / tilesN, j = tile % tilesN;
  auto [warpRow, warpCol] = getWarpOrigin(warp);
  return {warpRow + i * getTileStrideM() + h * 8 + lane / 4,
          warpCol + j * kMmaN + 2 * (lane % 4) + e};
}
