//===- Divisibility.h - Known divisors of index values ----------*- C++ -*-===//
//
// Part of tile-mlir. Vector copies need their start addresses aligned to the
// vector width; this proves it from the index arithmetic that computes tile
// offsets (block index times tile size, loop counter times tile size).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_DIVISIBILITY_H
#define TILE_CONVERSION_TILETONVGPU_DIVISIBILITY_H

#include "mlir/IR/Value.h"

#include <cstdint>

namespace mlir {
namespace tile {

/// A positive number that provably divides the integer `value` holds at run
/// time (1 when nothing is known; 0 has every divisor, reported as 2^30).
int64_t getKnownDivisor(Value value);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_DIVISIBILITY_H
