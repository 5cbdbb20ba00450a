//===- KernelOutlining.h - tile.kernel to gpu.func + launch -----*- C++ -*-===//
//
// Part of tile-mlir. The last step of the GPU lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_KERNELOUTLINING_H
#define TILE_CONVERSION_TILETONVGPU_KERNELOUTLINING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Conversion/TileToNVGPU/BlockOrder.h"
#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Target/Chip.h"

namespace mlir {
namespace tile {

/// The kernel attribute listing the parameters that hold TMA tensor maps
/// (a DenseI64ArrayAttr of parameter indices): they follow the memrefs.
/// tile-tensormap-params turns them into by-value grid constants.
constexpr llvm::StringLiteral kTensorMapParamsAttrName =
    "tile.tensormap_params";

/// For clusters of `size` blocks along the hardware x dimension, `cols` of
/// them side by side: which patch of `kernel`'s grid the blocks of a cluster
/// compute, under the block order that outlineKernel uses with `blockGroup`.
/// Block index 0 is the patch's x (columns), index 1 its y (rows). Needs a
/// static grid whose hardware x size is a multiple of `size` (a cluster may
/// not straddle the grid). In row-major order a cluster is one row of `size`
/// blocks (`cols` must be 1); in the grouped order `size / cols` rows of
/// one column, or `cols` columns (BlockOrder.h), where the group and the
/// grid's y size are multiples of the rows and its x size of `cols`.
/// Otherwise failure, with the reason in `why`.
FailureOr<ClusterShape> getClusterShape(KernelOp kernel, int64_t blockGroup,
                                        int64_t size, int64_t cols,
                                        std::string &why);

/// A symbol that an attribute of `op` refers to (a func.call's callee, a
/// memref.get_global's global), or null. The kernel goes into the GPU module
/// alone, where such a symbol names nothing.
SymbolRefAttr findSymbolReference(Operation *op);

/// Moves the (already per-thread) body of `kernel` into a new kernel
/// `gpu.func @name` of `module`, carves its shared tiles, and replaces the
/// kernel by a `gpu.launch_func` carrying the launch description.
///
/// Kernel ABI: the gpu.func takes exactly the enclosing function's memref
/// arguments, in order (each must have the identity layout: the
/// bare-pointer convention passes one pointer each; one with dynamic sizes
/// as a pointer to a memref<1xT>), then one index per dynamic size of those
/// memrefs (in argument order, then dimension order), then one parameter per
/// TMA tensor map the body uses. Values the body uses from the host function
/// must be computable from constants and the memref arguments' sizes (by
/// pure ops without regions or symbol references, and arith's divisions);
/// they are recomputed on the device. The block indices become `gpu.block_id`;
/// with `blockGroup > 1` and a two-dimensional grid they are remapped to the
/// grouped order (see `remapBlockIndices` in KernelOutlining.cpp), in the
/// patches of the kernel's kClusterShapeAttrName where it has one. `gemm`
/// goes into the launch description (see attachLaunchInfo).
FailureOr<gpu::LaunchFuncOp> outlineKernel(KernelOp kernel,
                                           gpu::GPUModuleOp module,
                                           StringRef name, const ChipInfo &chip,
                                           int64_t blockGroup,
                                           std::optional<GemmTranspose> gemm);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_KERNELOUTLINING_H
