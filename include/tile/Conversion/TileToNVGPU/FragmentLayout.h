//===- FragmentLayout.h - Which thread holds which element ------*- C++ -*-===//
//
// Part of tile-mlir. A fragment (a register tile) is a block-level value; on
// the GPU each thread holds a slice of it in registers. Every fragment uses
// the layout of an mma.sync m16n8 f32 accumulator, tiled over the block's
// warps (or, where a kernel's GEMMs use wgmma, over its warpgroups), so that
// a GEMM accumulator needs no shuffling and a fragment has ONE layout for all
// its uses (clear, gemm, copies). The layout depends only on the tile shape,
// the number of threads and its kind.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_FRAGMENTLAYOUT_H
#define TILE_CONVERSION_TILETONVGPU_FRAGMENTLAYOUT_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace tile {

/// Threads in a warpgroup (4 warps), the unit that issues a wgmma.
constexpr int64_t kWarpgroupThreads = 128;

/// The warp-tiled accumulator layout of a 2-D fragment, in one of two kinds:
///
///  - mma.sync (the default): the block's warps form a `warpsM x warpsN`
///    grid; warp `w` owns the `warpTileM x warpTileN` sub-tile at row
///    `(w / warpsN) * warpTileM`, column `(w % warpsN) * warpTileN`. That
///    sub-tile is `tilesM x tilesN` mma tiles of 16x8, tile (i, j) at row
///    `i * 16`, column `j * 8` of it.
///  - warpgroup (wgmma, sm_90a): groups of 4 warps form a `warpsM x warpsN`
///    grid of `warpTileM x warpTileN` group tiles; the group tile is
///    `warpTileM / 64` slices of 64 rows (one wgmma m64nN each), and warp
///    `w % 4` of the group holds rows `16 * (w % 4)` to `16 * (w % 4) + 15`
///    of every slice. Its mma tile (i, j) is at row `16 * (w % 4) + i * 64`,
///    column `j * 8` of the group tile.
///
/// Within one mma tile, lane `l` holds rows `l/4` and `l/4 + 8`, columns
/// `2*(l%4)` and `2*(l%4) + 1` (PTX's m16n8 accumulator fragment, which
/// wgmma repeats for every 8 columns).
///
/// Per thread the elements are a flat register array of `getNumRegisters()`
/// entries; register `((i * tilesN + j) * 2 + h) * 2 + e` holds row
/// `i * getTileStrideM() + h*8 + l/4`, column `j*8 + 2*(l%4) + e` of the
/// warp's origin. So the 4 registers of mma tile (i, j) are contiguous, in
/// the order of the mma.sync accumulator operand (vector<2x2xf32>,
/// row-major), and the registers of one 64-row slice are, in order, those of
/// a wgmma m64nN accumulator.
struct FragmentLayout {
  int64_t rows, cols;
  int64_t warpsM, warpsN;
  int64_t warpTileM, warpTileN;
  int64_t tilesM, tilesN;
  bool warpgroup = false;

  /// The mma.sync layout of a `shape` fragment for a block of `threads`
  /// threads, or std::nullopt (with `why` set) when no warp tiling fits: the
  /// tile must be 2-D, and some split of the warps must divide rows into
  /// multiples of 16 and columns into multiples of 8. Among the splits that
  /// fit, the one with the most square warp tile wins (fewest shared-memory
  /// reads per mma).
  static std::optional<FragmentLayout> get(llvm::ArrayRef<int64_t> shape,
                                           int64_t threads, std::string &why);

  /// The warpgroup layout, or std::nullopt (with `why` set) when none fits:
  /// `threads` must be a multiple of 128, and some split of the groups must
  /// divide rows into multiples of 64 and columns into multiples of 8 of at
  /// most 256 (wgmma's largest N). The split that reads the least shared
  /// memory per k-step wins: each m64nN reads 64 rows of A and all N
  /// columns of B, so wide group tiles (128x256 on 256 threads: two stacked
  /// 64x256 tiles, not two 128x128).
  static std::optional<FragmentLayout>
  getWarpgroup(llvm::ArrayRef<int64_t> shape, int64_t threads,
               std::string &why);

  int64_t getNumRegisters() const { return tilesM * tilesN * 4; }

  /// Rows between mma tile (i, j) and (i + 1, j) of one warp.
  int64_t getTileStrideM() const { return warpgroup ? 64 : 16; }

  /// The register index of mma tile (i, j), half h (rows +0 / +8), element e.
  int64_t getRegister(int64_t i, int64_t j, int64_t h, int64_t e) const {
    return ((i * tilesN + j) * 2 + h) * 2 + e;
  }

  /// The (row, column) of warp `warp`'s first mma tile.
  std::pair<int64_t, int64_t> getWarpOrigin(int64_t warp) const;

  /// The (row, column) of the tile that thread `thread` holds in `reg`.
  std::pair<int64_t, int64_t> getPosition(int64_t thread, int64_t reg) const;
};

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_FRAGMENTLAYOUT_H
