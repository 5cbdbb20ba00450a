//===- FragmentLowering.h - Fragment tiles to per-thread code ---*- C++ -*-===//
//
// Part of tile-mlir. The first step of the GPU lowering: every op that
// touches a fragment (register) tile becomes per-thread code while the
// `tile.kernel` is still present.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_FRAGMENTLOWERING_H
#define TILE_CONVERSION_TILETONVGPU_FRAGMENTLOWERING_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LLVM.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Target/Chip.h"

namespace mlir {
namespace tile {

/// Rewrites every fragment op inside `kernel` into per-thread code:
///  - `tile.alloc_fragment` becomes a per-thread `memref.alloca` of the
///    thread's registers (see FragmentLayout.h), indexed only by constants so
///    that LLVM's SROA keeps it in registers;
///  - `tile.clear` of a fragment stores zeros into those registers;
///  - `tile.gemm` becomes `nvgpu.ldmatrix` + `nvgpu.mma.sync` m16n8k16 for
///    f16 (`nvvm.mma.sync` for bf16; sm_80+, K a multiple of 16), and a
///    per-thread FMA loop otherwise; on a chip whose table entry has `wgmma`
///    (sm_90a), every gemm of a kernel becomes `nvvm.wgmma.mma_async` with
///    warpgroup fragment layouts when all of them can (GemmToWgmma.cpp),
///    else a remark says why and the kernel keeps mma.sync;
///  - `tile.copy` to or from a fragment becomes per-thread loads and stores,
///    masked at the other side's bounds and swizzled for shared tiles.
/// The thread id is a `gpu.thread_id x` created at the start of the body.
/// Shared tiles are used through the memref the op names (an alloc or a
/// subview of one), so a later carving of shared memory composes with it.
///
/// Every use is checked before anything is rewritten: on failure an error is
/// reported at the offending op and the kernel is left unchanged.
LogicalResult lowerFragmentOps(KernelOp kernel, const ChipInfo &chip);

/// Every memref the kernel's tile ops use (tiles, and the tensors copies
/// read and write) must have integer or float elements of 1, 2, 4 or 8
/// bytes: the lowering sizes chunks, swizzles and registers by the element's
/// byte size, which `index` (or any other type) does not have on the GPU,
/// which is 0 for `i1` or `f4E2M1FN`, and which for `i24` differs from the
/// element's spacing in memory. Other ops keep theirs (a memref.load of an
/// index table is fine).
/// An error at the first op that breaks this; run before any lowering.
LogicalResult checkGPUElementTypes(KernelOp kernel);

/// The dialects lowerFragmentOps creates ops of; a pass that calls it loads
/// them in getDependentDialects.
void getFragmentLoweringDialects(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_FRAGMENTLOWERING_H
