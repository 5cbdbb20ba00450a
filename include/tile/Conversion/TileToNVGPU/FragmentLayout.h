//===- FragmentLayout.h - Which thread holds which fragment element -*- C++
//-*-//
//
// Part of tile-mlir. A fragment (a register tile) is a block-level value; on
// the GPU each thread holds a slice of it in registers. Every fragment uses
// the layout of an mma.sync m16n8 f32 accumulator, tiled over the block's
// warps, so that a GEMM accumulator needs no shuffling and a fragment has ONE
// layout for all its uses (clear, gemm, copies). The layout depends only on
// the tile shape and the number of threads.
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

/// The warp-tiled mma.sync accumulator layout of a 2-D fragment.
///
/// The block's warps form a `warpsM x warpsN` grid; warp `w` owns the
/// `warpTileM x warpTileN` sub-tile at row `(w / warpsN) * warpTileM`, column
/// `(w % warpsN) * warpTileN`. That sub-tile is `tilesM x tilesN` mma tiles of
/// 16x8. Within one mma tile, lane `l` holds rows `l/4` and `l/4 + 8`, columns
/// `2*(l%4)` and `2*(l%4) + 1` (PTX's m16n8 accumulator fragment).
///
/// Per thread the elements are a flat register array of `getNumRegisters()`
/// entries; register `((i * tilesN + j) * 2 + h) * 2 + e` holds row
/// `i*16 + h*8 + l/4`, column `j*8 + 2*(l%4) + e` of the warp's sub-tile.
/// So the 4 registers of mma tile (i, j) are contiguous, in the order of the
/// mma.sync accumulator operand (vector<2x2xf32>, row-major).
struct FragmentLayout {
  int64_t rows, cols;
  int64_t warpsM, warpsN;
  int64_t warpTileM, warpTileN;
  int64_t tilesM, tilesN;

  /// The layout of a `shape` fragment for a block of `threads` threads, or
  /// std::nullopt (with `why` set) when no warp tiling fits: the tile must be
  /// 2-D, and some split of the warps must divide rows into multiples of 16
  /// and columns into multiples of 8. Among the splits that fit, the one with
  /// the most square warp tile wins (fewest shared-memory reads per mma).
  static std::optional<FragmentLayout> get(llvm::ArrayRef<int64_t> shape,
                                           int64_t threads, std::string &why);

  int64_t getNumRegisters() const { return tilesM * tilesN * 4; }

  /// The register index of mma tile (i, j), half h (rows +0 / +8), element e.
  int64_t getRegister(int64_t i, int64_t j, int64_t h, int64_t e) const {
    return ((i * tilesN + j) * 2 + h) * 2 + e;
  }

  /// The (row, column) of the tile that thread `thread` holds in `reg`.
  std::pair<int64_t, int64_t> getPosition(int64_t thread, int64_t reg) const;
};

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_FRAGMENTLAYOUT_H
