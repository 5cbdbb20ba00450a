//===- IndexFacts.h - Divisors and bounds of index values ------*- C++ -*-===//
//
// Part of tile-mlir. Vector copies need their start addresses aligned to the
// vector width, bounds checks are only needed where an index can leave the
// tensor, and tile-split-accumulators computes only the parts of an
// accumulator that reach into the tensor; all three are proved from the index
// arithmetic that computes tile offsets (block index times tile size, loop
// counter times tile size).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_UTILS_INDEXFACTS_H
#define TILE_DIALECT_TILE_UTILS_INDEXFACTS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace tile {

/// `tile.divisibility = D` on a memref argument of a function with a
/// tile.kernel: every dynamic size of the memref is a multiple of D (which
/// the launcher checks: LaunchDesc.h), so that copies of such a memref can
/// use vectors of up to D elements (the copy lowering's isAlignedFor reads
/// it from the argument). outlineKernel also puts it on the kernel's size
/// parameters, so that the kernel says what it assumed.
constexpr llvm::StringLiteral kDivisibilityAttrName = "tile.divisibility";

/// A positive number that provably divides the integer `value` holds at run
/// time (1 when nothing is known; 0 has every divisor, reported as 2^30).
/// Follows arithmetic, selects, branches, loop counters and values that
/// loops carry (scf.for iteration arguments and results, scf.while
/// arguments: what divides the initial value and every next one).
int64_t getKnownDivisor(Value value);

/// The largest value `value` can take at run time, when it is provably
/// non-negative and bounded: block indices are below their grid size, thread
/// ids below the block size, loop counters below the loop's upper bound.
std::optional<int64_t> getConstantUpperBound(Value value);

/// The smallest value the integer `value` (read as a signed integer) can
/// take at run time, where that is known: 0 for block and thread indices, a
/// loop's start for its counter (with a non-negative step), and what follows
/// through sums, products of non-negative values, branches and the like.
std::optional<int64_t> getConstantLowerBound(Value value);

/// Whether the integer `value` is provably non-negative (read as a signed
/// integer) at run time: block and thread indices, loop counters from a
/// non-negative start, and what arithmetic keeps non-negative (a sum or
/// product of such values, a quotient of one, a difference marked `nuw`).
bool provablyNonNegative(Value value);

/// Whether `index` + `extent` <= the size of dimension `dim` of `memref`
/// provably holds at run time, so that a copy of `extent` elements from
/// `index` stays inside. For a static size, from getConstantUpperBound; for
/// a dynamic one, from a bound of `index` in terms of that size, as where a
/// block index below floor(M / 128) (or ceildiv(M, 128) - 1) starts a
/// 128-row tile of a tensor of M rows (tile-specialize-interior-blocks
/// restricts block indices so).
bool provablyFitsIn(Value index, int64_t extent, Value memref, unsigned dim);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_UTILS_INDEXFACTS_H
