//===- CopyLoweringDetail.h - Helpers shared by the copy lowering -*- C++ -*-//
//
// Part of tile-mlir. Private to lib/Conversion/TileToNVGPU: how a tile copy
// is cut into per-thread chunks (CopyChunks.cpp), their bounds checks
// (CopyBounds.cpp), the realigned chunks of 2-byte-aligned rows
// (RealignedCopy.cpp) and where synchronous chunks load (EarlyLoads.cpp), for
// CopyLowering.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_TILETONVGPU_COPYLOWERINGDETAIL_H
#define LIB_CONVERSION_TILETONVGPU_COPYLOWERINGDETAIL_H

#include "mlir/IR/Builders.h"
#include "tile/Conversion/TileToNVGPU/SharedAccess.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/Support/Alignment.h"

#include <optional>

namespace mlir {
namespace tile {
namespace copy {

/// One operand of a copy: the memref as written and the tile's offsets in it
/// (empty when the op gives none, i.e. all zero).
struct CopySide {
  Value memref;
  MemRefType type;
  SmallVector<Value> offsets;
  bool shared;

  CopySide(Value memref, ValueRange offsets)
      : memref(memref), type(cast<MemRefType>(memref.getType())),
        offsets(offsets), shared(getMemorySpace(type) == MemorySpace::Shared) {}

  /// The side of a copy of `extent`. A side without offsets that the extent
  /// may overrun (a tensor smaller than the tile, or of dynamic size) gets
  /// zero offsets, so that it is checked like a side with offsets.
  static CopySide forExtent(OpBuilder &b, Location loc, Value memref,
                            ValueRange offsets, ArrayRef<int64_t> extent);

  int64_t elementBytes() const {
    return std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  }
  /// A side without offsets holds the whole extent (forExtent), so only a
  /// side with offsets is checked.
  bool needsBounds() const { return !offsets.empty(); }
};

/// How a block-level copy of `extent` is cut into per-thread chunks.
struct ChunkPlan {
  SmallVector<int64_t> extent;
  int64_t vectorElements;
  int64_t chunksPerRow;
  int64_t totalChunks;
};

/// An index constant.
Value constantIndex(OpBuilder &b, Location loc, int64_t v);

/// An i32 constant.
Value constantI32(OpBuilder &b, Location loc, int64_t v);

/// `value` (a float, or a vector of floats) converted to the element type
/// `to`: extf to a wider type, truncf to a narrower one, and through f32
/// between f16 and bf16, whose widths are equal; unchanged when the types
/// agree, whatever they are (integer copies keep their element type). The
/// same rounding as the CPU lowering's.
Value convertFloat(OpBuilder &b, Location loc, Value value, Type to);

//===----------------------------------------------------------------------===//
// Chunks (CopyChunks.cpp)
//===----------------------------------------------------------------------===//

/// Whether `memref` starts at an address as aligned as a kernel argument or a
/// tile.
bool hasAlignedBase(Value memref);

/// A divisor of stride `d` of `memref` where that stride is dynamic: the
/// product of the sizes inside `d`, each static or a multiple of the
/// argument's tile.divisibility (1 where `memref` is not an identity-layout
/// argument of the function, or nothing is known).
int64_t knownStrideDivisor(Value memref, unsigned d);

/// Whether every chunk start on `side` is provably aligned for a vector of
/// `v` elements.
bool isAlignedFor(const CopySide &side, int64_t v);

/// The plan for chunks of `v` elements, which divides the extent's rows.
ChunkPlan makePlan(ArrayRef<int64_t> extent, int64_t v);

/// The widest chunks (at most 16 bytes) that divide the extent's rows and
/// are aligned on both sides (`dst` may be null).
ChunkPlan planChunks(ArrayRef<int64_t> extent, const CopySide &src,
                     const CopySide *dst);

/// Whether forEachChunk emits the chunks as straight-line code.
bool isStraightLine(const ChunkPlan &plan, int64_t threads);

/// Emits `body(builder, loc, indices, rowDelta)` for each chunk of `plan`
/// that thread `tid` of `threads` owns; see CopyChunks.cpp.
using ChunkBody =
    function_ref<void(OpBuilder &, Location, ArrayRef<Value>, int64_t)>;
void forEachChunk(OpBuilder &b, Location loc, const ChunkPlan &plan, Value tid,
                  int64_t threads, bool shareRows, ChunkBody body,
                  function_ref<void(OpBuilder &)> flush = nullptr);

/// The indices of a chunk's first element on `side`, without its row delta.
SmallVector<Value> sideIndices(OpBuilder &b, Location loc, const CopySide &side,
                               ArrayRef<Value> tileIndices);

/// `indices` with `rowDelta` added to the row.
SmallVector<Value> addRowDelta(OpBuilder &b, Location loc,
                               ArrayRef<Value> indices, int64_t rowDelta);

/// The size of dimension `d` of `side`.
Value dimSize(OpBuilder &b, Location loc, const CopySide &side, unsigned d);

/// vector<v x i1> with the first `count` lanes set.
Value prefixMask(OpBuilder &b, Location loc, Value count, int64_t v);

/// A chunk of `type` that is `wholeValue` (emitted in the taken branch) when
/// `whole` holds, else a masked load at `from` of its first `count` elements
/// (null: all), the others zero. LLVM scalarizes a masked load into
/// per-element branches, so only the tile's edge should take it.
Value loadWholeOrMasked(OpBuilder &b, Location loc, Value whole,
                        function_ref<Value(OpBuilder &)> wholeValue,
                        const SharedAccess &from, Value count, VectorType type,
                        llvm::MaybeAlign align);

/// The memref and indices the GPU code touches for a chunk on `side`.
SharedAccess physicalAccess(OpBuilder &b, Location loc, const CopySide &side,
                            ArrayRef<Value> indices, int64_t rowDelta);

/// The alignment of a `v`-element vector access.
llvm::MaybeAlign vectorAlign(int64_t v, int64_t elementBytes);

//===----------------------------------------------------------------------===//
// Bounds (CopyBounds.cpp)
//===----------------------------------------------------------------------===//

/// The source of a bounds-checked cp.async chunk.
struct ClampedChunk {
  /// The chunk's indices, each clamped into its dimension.
  SmallVector<Value> indices;
  /// How many of the chunk's elements lie inside the tensor.
  Value count;
};

/// Indices and in-bounds count of a cp.async source chunk, clamped into the
/// tensor; std::nullopt when the chunk is provably inside.
std::optional<ClampedChunk> clampToBounds(OpBuilder &b, Location loc,
                                          const CopySide &side,
                                          ArrayRef<Value> indices, int64_t v);

/// How many of the `v` elements of a chunk at `indices` plus `rowDelta` lie
/// inside `side`; null when that needs no check.
Value boundsCount(OpBuilder &b, Location loc, const CopySide &side,
                  ArrayRef<Value> indices, int64_t rowDelta, int64_t v);

/// Whether the whole `extent` provably lies inside `side` (with `rowsOnly`,
/// in every dimension but the innermost).
bool provablyInside(const CopySide &side, ArrayRef<int64_t> extent,
                    bool rowsOnly = false);

//===----------------------------------------------------------------------===//
// Realigned chunks (RealignedCopy.cpp)
//===----------------------------------------------------------------------===//

/// The source of a realigned copy (planRealigned) seen as one contiguous row
/// of `total` elements.
struct RealignedSource {
  Value flat;
  Value total;
};

/// The loads of one realigned chunk. They are issued with the other chunks'
/// loads and joined only when the chunk is stored (finishRealignedChunk): a
/// join (or a branch) between them would make each chunk wait for its data
/// before the next chunk's loads are issued.
struct RealignedLoad {
  /// kRealignedElements / 2 + 1 words from the one holding the first element.
  SmallVector<Value> words;
  /// Whether the first element is the upper half of words[0].
  Value odd;
  /// Whether the chunk's words lie inside the tensor, so that it can be
  /// realigned.
  Value readable;
  /// Whether it is readable and all its elements are inside the tensor.
  Value whole;
  /// Its in-bounds elements (null: all of them): a readable chunk zeroes the
  /// realigned lanes past them, the element-wise path reads only them.
  Value count;
  /// Where that path reads.
  SharedAccess from;
};

/// The plan of a realigned copy, or std::nullopt where it does not apply;
/// `narrowRows` also takes rows of 4 to 7 chunks.
std::optional<ChunkPlan> planRealigned(ArrayRef<int64_t> extent,
                                       const CopySide &src, const CopySide &dst,
                                       bool narrowRows);

/// The source of a realigned copy as one contiguous row.
RealignedSource flattenSource(OpBuilder &b, Location loc, const CopySide &src);

/// Issues the word loads of one realigned chunk.
RealignedLoad loadRealignedChunk(OpBuilder &b, Location loc,
                                 const CopySide &src,
                                 const RealignedSource &source,
                                 ArrayRef<Value> tileIndices, int64_t rowDelta);

/// The value of a realigned chunk from its loads.
Value finishRealignedChunk(OpBuilder &b, Location loc,
                           const RealignedLoad &chunk, Type elementType);

/// Where a run of adjacent copies into shared memory may issue the loads of
/// its synchronous chunks (EarlyLoads.cpp): before the returned op, which
/// lies above `previous` (the op in front of the run), or nowhere earlier
/// (null). Pure ops that compute the loads' operands (the copies' sources
/// and `tid`) are moved above it.
Operation *prepareEarlyLoads(ArrayRef<Operation *> run, Operation *previous,
                             Value tid);

} // namespace copy
} // namespace tile
} // namespace mlir

#endif // LIB_CONVERSION_TILETONVGPU_COPYLOWERINGDETAIL_H
