//===- LaunchInfo.h - The host-side launch description ----------*- C++ -*-===//
//
// Part of tile-mlir. What a runtime needs to launch a compiled kernel without
// reading MLIR: entry name, grid, block, dynamic shared bytes, arguments. The
// lowering attaches it to the `gpu.launch_func` as the `tile.launch`
// dictionary; writeLaunchDescription prints the `.launch` text file.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_LAUNCHINFO_H
#define TILE_CONVERSION_TILETONVGPU_LAUNCHINFO_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir {
namespace tile {

/// The name of the launch-description attribute on `gpu.launch_func`.
constexpr llvm::StringLiteral kLaunchAttrName = "tile.launch";
/// Argument attribute naming a kernel parameter in the description
/// (`%A: memref<...> {tile.name = "A"}`); unnamed memrefs are A, B, C, ...
constexpr llvm::StringLiteral kArgNameAttrName = "tile.name";

/// The name of kernel parameter `arg`, one of `memrefArgs`, in the
/// description: its tile.name, else A, B, C, ... by its position among
/// `memrefArgs` (arg26, arg27, ... after Z).
std::string getKernelArgName(BlockArgument arg,
                             ArrayRef<BlockArgument> memrefArgs);

/// Whether `arg` is an argument of the function that holds it, not of a
/// loop's or another region's block.
bool isFunctionArgument(BlockArgument arg);

/// An error about `kernel`'s parameter `arg` (a memref argument of the
/// function that holds the kernel): at the argument, with a note at the
/// kernel, and starting "kernel argument #N".
InFlightDiagnostic emitKernelArgError(KernelOp kernel, BlockArgument arg);

/// Checks that the description can name every parameter: each tile.name is a
/// string of ASCII letters, digits and '_' that does not start with a digit
/// (the description is words separated by spaces, and its grid formulas and
/// tile-run's `--shape NAME=...` hold the names), and no two parameters have
/// the same name. Errors are at the argument (emitKernelArgError).
LogicalResult checkKernelArgNames(KernelOp kernel,
                                  ArrayRef<BlockArgument> memrefArgs);

/// How a kernel's tile.gemm ops read their operands: A stored KxM, B stored
/// NxK. A runtime that checks the kernel against a reference GEMM needs it.
struct GemmTranspose {
  bool a = false, b = false;
};

/// The transpose flags of the tile.gemm ops in `kernel` when there is at
/// least one and they all agree; nullopt otherwise (then the description
/// says nothing about a GEMM).
std::optional<GemmTranspose> getGemmTranspose(KernelOp kernel);

/// Builds the description of `launch` (grid and block sizes folded to
/// constants; an error if they are not constant) and attaches it as
/// `tile.launch`. `memrefArgs` are the host function's memref arguments,
/// i.e. the first kernel parameters; `tensorMaps` the values of
/// `nvgpu.tma.create.descriptor` ops over some of them, the parameters after
/// those; `gemm` what getGemmTranspose found before the kernel's ops were
/// lowered; `cluster` the kernel's cluster sizes, if it has them.
LogicalResult attachLaunchInfo(gpu::LaunchFuncOp launch, StringRef chip,
                               int64_t sharedBytes,
                               ArrayRef<BlockArgument> memrefArgs,
                               ArrayRef<Value> tensorMaps,
                               std::optional<GemmTranspose> gemm,
                               ArrayRef<int32_t> cluster = {});

/// Writes the `.launch` text of one launch:
///   kernel <entry>
///   chip <sm_XX>
///   grid <gx> <gy> <gz>
///   block <bx> <by> <bz>
///   shared_bytes <bytes>
///   arg <name> <f16|bf16|f32> <d0>x<d1>     (one per parameter, in order)
///   tensormap <arg> <rows>x<cols> swizzle <none|32|64|128>
///                                           (one per parameter after the
///                                           args: the 128-byte TMA
///                                           tensor map of <arg> by value,
///                                           a grid constant, box
///                                           <rows>x<cols>)
///   grid_expr <gx> <gy> <gz>                 (informational)
///   gemm_transpose <0|1> <0|1>               (A, B; only with a tile.gemm)
///   cluster <cx> <cy> <cz>                   (only for a kernel compiled for
///                                           thread-block clusters; the
///                                           PTX requires these sizes)
LogicalResult writeLaunchDescription(gpu::LaunchFuncOp launch,
                                     llvm::raw_ostream &os);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_LAUNCHINFO_H
