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

std::pair<int64_t, int64_t> FragmentLayout::getPosition(int64_t thread,
                                                        int64_t reg) const {
  int64_t warp = thread / kWarpSize, lane = thread % kWarpSize;
  int64_t e = reg % 2, h = (reg / 2) % 2, tile = reg / 4;
  int64_t i = tile / tilesN, j = tile % tilesN;
  int64_t row = (warp / warpsN) * warpTileM + i * kMmaM + h * 8 + lane / 4;
  int64_t col = (warp % warpsN) * warpTileN + j * kMmaN + 2 * (lane % 4) + e;
  return {row, col};
}
