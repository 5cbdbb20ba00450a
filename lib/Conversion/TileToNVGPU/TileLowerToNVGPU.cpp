//===- TileLowerToNVGPU.cpp - The tile-lower-to-nvgpu pass ----------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVGPU/CopyLowering.h"
#include "tile/Conversion/TileToNVGPU/FragmentLowering.h"
#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "tile/Conversion/TileToNVGPU/KernelOutlining.h"
#include "tile/Conversion/TileToNVGPU/PerThreadValues.h"
#include "tile/Conversion/TileToNVGPU/SharedAccess.h"
#include "tile/Conversion/TileToNVGPU/TmaStores.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"
#include "tile/Runtime/LaunchDesc.h"
#include "tile/Target/Chip.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILELOWERTONVGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// The kernel's body moves into the GPU module alone: an op that names a
/// symbol of the host module (a func.call, a memref.get_global) would name
/// nothing there.
static LogicalResult checkSymbolUses(KernelOp kernel) {
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    SymbolRefAttr symbol = findSymbolReference(op);
    if (!symbol)
      return WalkResult::advance();
    op->emitOpError("refers to the symbol ")
        << symbol
        << ", which the GPU lowering does not bring into the GPU module "
           "with the kernel; inline calls and use tensors passed as "
           "arguments";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// A tile.pipelined loop is tile-software-pipeline's to expand: only that
/// pass places the barriers between its statements (their authors write
/// none), so lowering one as it stands would race on its shared tiles.
static LogicalResult checkNoUnexpandedLoops(KernelOp kernel) {
  WalkResult result = kernel.getBody().walk([](PipelinedOp loop) {
    loop.emitOpError(
        "reaches the GPU lowering unexpanded; run --tile-software-pipeline "
        "first (after --tile-pipeline-planning where the loop gives only "
        "num_stages): it expands the loop with the barriers its statements "
        "need, which this lowering does not place");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// Whether `op` reads where the block lies in the hardware's grid or
/// cluster: gpu.block_id and its kin, or the PTX special registers behind
/// them.
static bool readsHardwareBlockPosition(Operation *op) {
  if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::GlobalIdOp, gpu::ClusterIdOp,
          gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp>(
          op))
    return true;
  StringRef name = op->getName().getStringRef();
  return name.consume_front("nvvm.read.ptx.sreg.") &&
         (name.contains("ctaid") || name.contains("cluster"));
}

/// The block's place in the grid is the kernel's block indices. Passes
/// remap them: tile-split-accumulators (a block per part),
/// tile-persistent-blocks (a loop over tiles), block-group and clusters (the
/// order of blocks); the hardware's block index is then another block's, and
/// offsets computed from it compute one tile twice and another never.
static LogicalResult checkBlockPositionOps(KernelOp kernel) {
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    if (!readsHardwareBlockPosition(op))
      return WalkResult::advance();
    op->emitOpError("reads the hardware's block position, which is not the "
                    "tile.kernel's: the block indices of the kernel's "
                    "region are (tile-split-accumulators, "
                    "tile-persistent-blocks, block-group and clusters remap "
                    "them); use those");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The kernels' gpu.module goes into the module the pass runs on, and the
/// launches refer to it from there; a kernel in a module nested inside would
/// refer to a symbol its own module does not hold.
static LogicalResult checkEnclosingModule(KernelOp kernel, ModuleOp module) {
  if (kernel->getParentOfType<ModuleOp>() == module)
    return success();
  return kernel.emitOpError(
      "is inside a nested module; the GPU lowering compiles the kernels of "
      "the top-level module only (their gpu.module goes there)");
}

/// The kernel is named after its function (`f` gives `f_kernel`), and that
/// name becomes a PTX `.entry`: PTX identifiers are ASCII letters, digits,
/// '_' and '$', not starting with a digit. LLVM's NVPTX printer stops the
/// process on some other names ("Symbol name with unsupported
/// characters") and prints others ('.') that ptxas then refuses.
static LogicalResult checkKernelName(KernelOp kernel) {
  auto func = kernel->getParentOfType<FunctionOpInterface>();
  StringRef name = func.getName();
  auto isPTXChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$';
  };
  if (!name.empty() && !llvm::isDigit(name.front()) &&
      llvm::all_of(name, isPTXChar))
    return success();
  return func.emitOpError("name \"")
         << name
         << "\" cannot name a GPU kernel: its kernel is a PTX entry named "
            "after it, and PTX names are ASCII letters, digits, '_' and "
            "'$', not starting with a digit";
}

LogicalResult
mlir::tile::checkLowerToNVGPUOptions(Location loc,
                                     const TileLowerToNVGPUOptions &options,
                                     StringRef passArgument) {
  const ChipInfo *chipInfo =
      lookupChipOrEmitError(loc, options.chip, passArgument);
  if (!chipInfo)
    return failure();
  for (auto [enabled, name] : {std::pair<bool, StringRef>(options.tma, "tma"),
                               {options.tmaStore, "tma-store"}}) {
    if (enabled && chipInfo->computeCapability < 90) {
      emitError(loc) << name
                     << "=true needs sm_90 or newer (the Tensor Memory "
                        "Accelerator), not "
                     << options.chip;
      return failure();
    }
  }

  // Past the most rows a grid can have, every group is the whole grid.
  if (options.blockGroup > ::tile::runtime::kMaxGridDim[1]) {
    emitError(loc) << "block-group=" << int64_t(options.blockGroup)
                   << " is more rows of blocks than a grid can have (at most "
                   << ::tile::runtime::kMaxGridDim[1] << ")";
    return failure();
  }
  if (options.splitBarriers && !options.tma) {
    emitError(loc, "split-barriers=true needs tma=true: it splits the "
                   "barriers before TMA copies");
    return failure();
  }
  if (!llvm::is_contained({1, 2, 4, 8}, int64_t(options.cluster))) {
    emitError(loc) << "cluster=" << int64_t(options.cluster)
                   << " is not supported: use 1, 2, 4 or 8";
    return failure();
  }
  if (options.cluster > 1 && !options.tma) {
    emitError(loc, "cluster=" + std::to_string(options.cluster) +
                       " needs tma=true: the blocks of a cluster share "
                       "tiles through TMA multicast");
    return failure();
  }
  if (!llvm::is_contained({1, 2, 4, 8}, int64_t(options.clusterCols))) {
    emitError(loc) << "cluster-cols=" << int64_t(options.clusterCols)
                   << " is not supported: use 1, 2, 4 or 8";
    return failure();
  }
  if (options.cluster % options.clusterCols != 0) {
    emitError(loc) << "cluster-cols=" << int64_t(options.clusterCols)
                   << " does not divide cluster=" << int64_t(options.cluster)
                   << ": a cluster is cluster / cluster-cols rows of "
                      "cluster-cols blocks"
                   << (options.cluster == 1
                           ? " (cluster is 1 where not given: give it with "
                             "tma=true)"
                           : "");
    return failure();
  }
  if (options.clusterCols > 1 && options.blockGroup <= 1) {
    emitError(loc) << "cluster-cols=" << int64_t(options.clusterCols)
                   << " needs the grouped block order (block-group > 1): in "
                      "row-major order the blocks of a cluster are one row";
    return failure();
  }
  if (options.cluster > 1 && options.splitBarriers) {
    emitError(loc, "cluster=" + std::to_string(options.cluster) +
                       " and split-barriers=true do not combine: the "
                       "barriers before the copies span the cluster");
    return failure();
  }
  return success();
}

namespace {

/// All kernels of a module go into one gpu.module, so one PTX file holds
/// every entry.
constexpr llvm::StringLiteral kKernelModuleName = "tile_kernels";

struct TileLowerToNVGPUPass
    : mlir::tile::NamedOptionErrors<
          mlir::tile::impl::TileLowerToNVGPUBase<TileLowerToNVGPUPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkLowerToNVGPUOptions(module.getLoc(),
                                        {chip, blockGroup, tma, tmaStore,
                                         splitBarriers, cluster, clusterCols},
                                        getArgument())))
      return signalPassFailure();
    const ChipInfo *chipInfo = lookupChip(chip);

    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    if (kernels.empty())
      return;
    Operation *existing = module.lookupSymbol(kKernelModuleName);
    if (existing && !isa<gpu::GPUModuleOp>(existing)) {
      existing->emitOpError("is named @")
          << kKernelModuleName << ", the name of the gpu.module that "
          << getArgument() << " puts the kernels in; rename it";
      return signalPassFailure();
    }
    for (KernelOp kernel : kernels)
      if (failed(checkEnclosingModule(kernel, module)) ||
          failed(checkKernelName(kernel)) ||
          failed(checkGPUElementTypes(kernel)) ||
          failed(checkNoUnexpandedLoops(kernel)) ||
          failed(checkSharedTileUses(kernel)) ||
          failed(checkSymbolUses(kernel)) ||
          failed(checkBlockPositionOps(kernel)) ||
          failed(checkPerThreadValuesSteerNoTileOps(kernel)))
        return signalPassFailure();

    // The GEMM layout goes into the launch description; the gemm ops are
    // gone once the fragments are lowered.
    SmallVector<std::optional<GemmTranspose>> gemms;
    for (KernelOp kernel : kernels)
      gemms.push_back(getGemmTranspose(kernel));
    for (KernelOp kernel : kernels) {
      if (tmaStore)
        stageFragmentStoresForTma(kernel, *chipInfo, tma);
      if (failed(lowerFragmentOps(kernel, *chipInfo)))
        return signalPassFailure();
      TmaOptions tmaOptions;
      tmaOptions.splitBarriers = splitBarriers;
      tmaOptions.clusterSize = cluster;
      tmaOptions.clusterCols = clusterCols;
      tmaOptions.blockGroup = blockGroup;
      if (failed(lowerTileMemoryOps(kernel, tma, tmaOptions)))
        return signalPassFailure();
      // The copies have used the counters' bounds; nothing else needs them.
      releaseCounterBounds(kernel);
    }

    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
    if (!gpuModule) {
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      gpuModule =
          gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
    }

    for (auto [kernel, gemm] : llvm::zip_equal(kernels, gemms)) {
      // The verifier puts every kernel inside a function.
      auto func = kernel->getParentOfType<FunctionOpInterface>();
      std::string base = func.getName().str() + "_kernel";
      std::string name = base;
      for (unsigned i = 1; gpuModule.lookupSymbol(name); ++i)
        name = base + "_" + std::to_string(i);
      if (failed(outlineKernel(kernel, gpuModule, name, *chipInfo, blockGroup,
                               gemm)))
        return signalPassFailure();
    }
  }
};

} // namespace
