//===- TmaGroupAnalysis.h - Group counts and block traces -------*- C++ -*-===//
//
// Part of tile-mlir. Private to lib/Conversion/TileToNVGPU: what the TMA
// lowering (TmaCopies.cpp) reads off a kernel before it rewrites it: how
// many commit groups can be in flight, which barriers order other shared
// writes, and whether the blocks of a cluster run the same copies, groups
// and barriers.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_TILETONVGPU_TMAGROUPANALYSIS_H
#define LIB_CONVERSION_TILETONVGPU_TMAGROUPANALYSIS_H

#include "mlir/IR/Block.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>

namespace mlir {
namespace tile {
namespace tma {

/// An upper bound on the groups committed and not yet waited for at the end
/// of `block`, entered with at most `in`; `peak` becomes the largest such
/// bound anywhere in it. A loop is followed until the bound at the start of
/// an iteration stops growing; nullopt when it keeps growing (a loop that
/// commits more groups than it waits for).
std::optional<int64_t> boundOutstanding(Block &block, int64_t in,
                                        int64_t &peak);

/// The groups committed and not yet waited for at the end of `block`,
/// entered with `in`, where that number is the same on every path through
/// it once lowerIf has evened out the branches of an if; nullopt where it
/// is not. A loop keeps it only when an iteration ends with the number it
/// started with, so that any trip count, zero included, leaves it unchanged
/// (a pipelined steady state: one wait and one commit per step). After a
/// wait_group 0 it is 0 whatever it was.
std::optional<int64_t> exactOutstanding(Block &block,
                                        std::optional<int64_t> in);

/// Whether anything but a tile.copy_async writes shared memory in `kernel`
/// (a copy or clear into a shared tile, or what the fragment lowering made
/// of a copy into one, or an op that does not state its memory effects).
/// Barriers may then order those writes, and none is split.
bool hasGenericSharedWrites(KernelOp kernel);

/// Whether anything but a tile.copy_async reads memory from outside
/// `kernel` (a global tensor, or a view of one): a load, or a tile.copy
/// from it. A barrier may then order another thread's write before the
/// read, so the TMA lowering keeps every barrier. An op that does not state
/// its memory effects, or reads a memref of unknown origin (an arith.select
/// of tensors), is taken to read one.
bool hasGenericGlobalReads(KernelOp kernel);

/// The first op of `kernel` other than a tile.copy_async that writes
/// `tensor` (memory from outside the kernel; the op may write a view of it),
/// or null. The TMA reads through the async proxy, which sees the generic
/// proxy's stores (st.global, by this or another thread) only after a
/// fence.proxy.async; a barrier does not order them. An op that does not
/// state its memory effects, or writes a global memref of unknown origin,
/// is taken to write it. With `besides`, that op and
/// ops that never run with it for one tile (the other branch of an scf.if
/// outside loops, or of the tile.block_versions scf.if) do not count.
Operation *findGenericWrite(KernelOp kernel, Value tensor,
                            Operation *besides = nullptr);

/// The first op of `kernel` that reads the memory `tensor` is a view of (or
/// `tensor` itself, memory from outside the kernel; the op may read another
/// view of it): a copy from it, async or not, or an op that may read it (as
/// findGenericWrite's writes); null if none. A TMA store's writes are
/// visible to such reads only once the store has completed, and the staged
/// stores (TmaStores.h) wait only until the TMA has read their tile.
Operation *findRead(KernelOp kernel, Value tensor);

/// Whether `value` may differ between two blocks whose block index `index`
/// differs and whose other block indices agree: whether it is computed from
/// `index`, or from something this does not follow (a loop-carried value, a
/// load, an op with regions). Values from outside `kernel` are the same in
/// every block.
bool dependsOnBlockIndex(Value value, Value index, KernelOp kernel,
                         DenseMap<Value, bool> &memo);

/// Whether `copy` starts a run of copies, before which a clustered kernel
/// has a cluster barrier (clusterBarrierBefore): no other copy comes before
/// it with only index arithmetic and commits in between.
bool startsCopyRun(CopyAsyncOp copy);

/// The copies, groups, waits and barriers of `block` in order, and the loops
/// and branches around them, as text: what decides which cluster barriers a
/// block runs and which mbarrier phases its copies complete. Copies are
/// "S" when `shared` holds them, "P" otherwise, after an "R" where a run of
/// copies starts. Nullopt when a loop's bounds are not constants.
std::optional<std::string>
traceGroupOps(Block &block, const llvm::SmallPtrSetImpl<Operation *> &shared);

} // namespace tma
} // namespace tile
} // namespace mlir

#endif // LIB_CONVERSION_TILETONVGPU_TMAGROUPANALYSIS_H
