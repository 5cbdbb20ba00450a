//===- SharedLayout.h - Physical layout of shared tiles on the GPU -*- C++ -*-//
//
// Part of tile-mlir. Shared tiles keep their logical row-major shape in the
// IR; on the GPU their 16-byte chunks are permuted within each row (an XOR
// swizzle) so that both the 16-byte cp.async writes and the 8-row ldmatrix
// reads hit 8 different 16-byte bank groups. Every GPU access to a shared
// tile (copy into it, ldmatrix from it, stores to it) must go through
// getSwizzledColumn, or the writer and the reader disagree.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_SHAREDLAYOUT_H
#define TILE_CONVERSION_TILETONVGPU_SHAREDLAYOUT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <cstdint>

namespace mlir {
namespace tile {

/// The swizzle of a 2-D shared tile whose rows hold `rowElements` elements of
/// `elementBytes` bytes each (the innermost two dimensions; a leading version
/// dimension does not change it).
struct SharedSwizzle {
  SharedSwizzle(int64_t rowElements, int64_t elementBytes);

  /// Elements per 16-byte chunk.
  int64_t chunkElements;
  /// 16-byte chunks per row; 0 when a row is not a whole number of chunks,
  /// in which case the layout is the identity.
  int64_t chunksPerRow;
  /// Rows that share one XOR pattern, and the number of patterns.
  int64_t rowsPerPattern;
  int64_t numPatterns;

  bool isIdentity() const { return numPatterns <= 1; }

  /// Rows after which the patterns repeat: rows r and r + k * period() have
  /// the same physical columns.
  int64_t period() const { return rowsPerPattern * numPatterns; }

  /// The physical column of logical element (row, col), for constant
  /// indices.
  int64_t getColumn(int64_t row, int64_t col) const;

  /// The same, as index arithmetic at the builder's insertion point.
  Value getColumn(OpBuilder &builder, Location loc, Value row, Value col) const;
};

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_SHAREDLAYOUT_H
