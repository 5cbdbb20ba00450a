//===- TmaCopies.h - Asynchronous tile copies through the TMA ---*- C++ -*-===//
//
// Part of tile-mlir. On sm_90, `tile.copy_async` can go through the Tensor
// Memory Accelerator instead of per-thread cp.async: one thread issues a
// `cp.async.bulk.tensor` per box, and the commit groups become mbarriers.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_TMACOPIES_H
#define TILE_CONVERSION_TILETONVGPU_TMACOPIES_H

#include "mlir/Support/LLVM.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir {
namespace tile {

/// Rewrites every `tile.copy_async`, `tile.commit_group` and
/// `tile.wait_group` of `kernel` (`tid`: the thread index, defined at the top
/// of its body):
///  - each copy becomes `nvgpu.tma.async.load`s, issued by thread 0, of boxes
///    whose swizzle is the shared tile's layout (SharedLayout.h), through a
///    tensor map that the host creates (`nvgpu.tma.create.descriptor` before
///    the kernel; the outlining passes it as a kernel parameter);
///  - group g is mbarrier g mod N of the block: thread 0's commit arrives on
///    it expecting the group's bytes, and `wait_group P` waits, in every
///    thread, for the phases of the groups up to the last committed but P;
///  - the kernel waits for every group before it ends.
/// All or nothing: when one copy cannot use the TMA (its source is not a
/// kernel argument with rows of a multiple of 16 bytes, its destination is not
/// a whole shared tile in a TMA layout, or it is not followed by its commit
/// in the same block), nothing changes, a remark says why, and the result is
/// false; the caller then lowers to cp.async.
///
/// With `splitBarriers`, each `tile.barrier` right before a group's copies
/// becomes a named barrier that only warp 0 (which issues the copies) waits
/// at, while the other warps arrive and run on; where a barrier could order
/// other shared-memory writes, nothing is split and a remark says why.
FailureOr<bool> lowerAsyncCopiesToTma(KernelOp kernel, Value tid,
                                      bool splitBarriers = false);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_TMACOPIES_H
