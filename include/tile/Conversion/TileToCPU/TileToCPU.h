//===- TileToCPU.h - Sequential meaning of tile ops -------------*- C++ -*-===//
//
// Part of tile-mlir. The element-level meaning of the tile ops that compute
// (copy, gemm, clear) as scf loop nests over memref loads and stores. The
// `--tile-lower-to-cpu` pass applies them; they are exposed so that other
// lowerings and tests can produce exactly the same reference semantics.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETOCPU_TILETOCPU_H
#define TILE_CONVERSION_TILETOCPU_TILETOCPU_H

#include "mlir/IR/PatternMatch.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir {
namespace tile {

/// Replaces `tile.copy` by a loop nest over its extent: each element is read
/// at `source offset + i` (zero when that is outside the source), converted
/// to the destination's float type if they differ, and stored at
/// `destination offset + i` unless that is outside the destination.
void lowerCopyToLoops(RewriterBase &rewriter, CopyOp op);

/// `tile.copy_async` with the same meaning as `tile.copy`: the copy
/// completes before the next op runs (where modelAsyncCopies did not defer
/// it to a wait).
void lowerCopyToLoops(RewriterBase &rewriter, CopyAsyncOp op);

/// The memref that the memref.subview and memref.cast ops leading to `view`
/// start from, and those ops, innermost first, in `views` if given.
Value getViewRoot(Value view, SmallVectorImpl<Operation *> *views = nullptr);

/// Builds at `b`'s point a loop nest over every element of `memref` that
/// runs `body` with the element's indices.
void forEachElement(
    OpBuilder &b, Location loc, Value memref,
    function_ref<void(OpBuilder &b, Location loc, ValueRange indices)> body);

/// One element of a copy, inside the loop nest of forEachCopiedElement.
struct CopiedElement {
  /// Its position in the copy's extent (0-based, one index per dimension).
  ValueRange position;
  /// Its index into the source, and the condition that this index lies
  /// inside the source (null where it always does; the copy reads zero
  /// elsewhere).
  ValueRange sourceIndices;
  Value sourceInBounds;
  /// Its index into the destination.
  ValueRange destIndices;
};

/// Builds at `b`'s point a loop nest over a copy of `extent` from `source`
/// at `sourceIndices` to `dest` at `destIndices` that runs `body` for every
/// element the copy stores (its index into `dest` lies inside `dest`).
void forEachCopiedElement(
    OpBuilder &b, Location loc, ArrayRef<int64_t> extent, Value source,
    ValueRange sourceIndices, Value dest, ValueRange destIndices,
    function_ref<void(OpBuilder &b, Location loc, const CopiedElement &element)>
        body);

/// The value a copy from `source` reads for `element`: the source's, or zero
/// where the element's index lies outside the source.
Value loadCopiedElement(OpBuilder &b, Location loc, Value source,
                        const CopiedElement &element);

/// A value that no correct kernel reads from a tile of `element`s: NaN, or
/// for a float type without one its lowest value; an integer's lowest value.
TypedAttr getPoison(OpBuilder &b, Type element);

/// Whether `value` (loaded from a tile) is getPoison's value: an i1.
Value isPoison(OpBuilder &b, Location loc, Value value);

/// Stores the value of poisonCopyDestination into every element of `tile`
/// at `b`'s point: a new tile holds whatever the memory held before.
void poisonTile(OpBuilder &b, Location loc, Value tile);

/// Stores a value that no correct kernel reads (NaN; TileOpsToLoops.cpp) at
/// `b`'s point into every element that a copy of `extent` into `dest` at
/// `destIndices` stores: while an asynchronous copy is in flight, a GPU may
/// have stored some of its elements or none.
void poisonCopyDestination(OpBuilder &b, Location loc, ArrayRef<int64_t> extent,
                           Value dest, ValueRange destIndices);

/// Makes the `tile.copy_async` ops of `kernel` land where a `tile.wait_group`
/// retires their commit group instead of at once: each is recorded where it
/// is issued and replayed as a `tile.copy`, which carries the copy's
/// discardable attributes, by the first wait that retires it
/// (AsyncCopyModel.cpp), and what it will write holds NaN until then.
/// Commits and waits are replaced; a copy whose destination is not a subview
/// chain of a shared tile visible at every wait, or whose source's views do
/// not start from a tensor visible there, is left to land at once.
void modelAsyncCopies(KernelOp kernel);

/// With `tile-lower-to-cpu="check-barriers=true"`: an element of a shared
/// tile, or of a tensor that `kernel` both writes and reads, that two tile
/// ops of `kernel` access with no `tile.barrier` between them, one of them
/// writing, reads as NaN from then on, as a race on the GPU may leave any
/// value there (BarrierCheck.cpp). `modelAsync`, if
/// given, models the kernel's asynchronous copies (modelAsyncCopies) after
/// the checks at their issue are in place and before those of the copies it
/// replays are added.
void addBarrierChecks(KernelOp kernel, function_ref<void(KernelOp)> modelAsync);

/// Replaces `tile.gemm` by `C[m][n] += sum_k f32(op(A)[m][k]) *
/// f32(op(B)[k][n])`, summing k in increasing order.
void lowerGemmToLoops(RewriterBase &rewriter, GemmOp op);

/// Replaces `tile.clear` by stores of zero to every element.
void lowerClearToLoops(RewriterBase &rewriter, ClearOp op);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETOCPU_TILETOCPU_H
