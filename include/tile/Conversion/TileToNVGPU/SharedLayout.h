//===- SharedLayout.h - Physical layout of shared tiles on the GPU -*- C++ -*-//
//
// Part of tile-mlir. Shared tiles keep their logical row-major shape in the
// IR; on the GPU their elements are permuted within each [rows][cols] tile:
//  - the 16-byte chunks of a row are XOR-swizzled so that both the 16-byte
//    cp.async writes and the 8-row ldmatrix reads hit 8 different 16-byte
//    bank groups;
//  - rows wider than 128 bytes are stored as 128-byte column panels, one
//    after the other, so that every panel is a plain 128-byte-row tile.
// Both are exactly the 32/64/128-byte swizzled layouts that wgmma's shared
// memory descriptors describe (docs/lowering.md). Every GPU access to a
// shared tile (copy into it, ldmatrix or wgmma from it, stores to it) must go
// through getPhysical, or the writer and the reader disagree.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_SHAREDLAYOUT_H
#define TILE_CONVERSION_TILETONVGPU_SHAREDLAYOUT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <utility>

namespace mlir {
namespace tile {

/// The layout of a 2-D shared tile of `rows` rows of `rowElements` elements
/// of `elementBytes` bytes each (the innermost two dimensions; a leading
/// version dimension does not change it). The physical position of logical
/// element (row, col) is again a (row, col) of the same [rows][rowElements]
/// tile.
struct SharedSwizzle {
  SharedSwizzle(int64_t rows, int64_t rowElements, int64_t elementBytes);

  int64_t rows, rowElements;
  /// Elements per 16-byte chunk.
  int64_t chunkElements;
  /// 16-byte chunks per row; 0 when a row is not a whole number of chunks,
  /// in which case the layout is the identity.
  int64_t chunksPerRow;
  /// Rows that share one XOR pattern, and the number of patterns.
  int64_t rowsPerPattern;
  int64_t numPatterns;
  /// 128-byte column panels per row (1: rows of at most 128 bytes, or rows
  /// that do not split evenly; then the chunks of a whole row are swizzled).
  int64_t panels;

  bool isIdentity() const { return numPatterns <= 1 && panels == 1; }

  /// Elements per row of one panel (the whole row when panels == 1).
  int64_t getPanelElements() const { return rowElements / panels; }

  /// Rows after which the layout repeats: rows r and r + k * period() lie
  /// at the same physical columns, period() / panels physical rows apart.
  int64_t period() const;

  /// The physical (row, col) of logical element (row, col), for constant
  /// indices.
  std::pair<int64_t, int64_t> getPhysical(int64_t row, int64_t col) const;

  /// The same, as index arithmetic at the builder's insertion point.
  std::pair<Value, Value> getPhysical(OpBuilder &builder, Location loc,
                                      Value row, Value col) const;
};

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_SHAREDLAYOUT_H
