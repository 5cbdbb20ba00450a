//===- TileToPTX.cpp - The tile-to-ptx pipeline pass ----------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"
#include "tile/Target/Chip.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILETOPTX
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileToPTXPass
    : tile::NamedOptionErrors<tile::impl::TileToPTXBase<TileToPTXPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  /// Tile level down to NVVM inside the gpu.module.
  std::string getFrontPipeline(const ChipInfo &info) const {
    bool unroll = unrollSteadyState && info.unrollSteadyState;
    std::string text = "tile-pipeline-planning,tile-smem-budget{chip=" + chip +
                       " print=" + (printBudget ? "true" : "false") + "},";
    // After the budget, which checks the tiles as written.
    if (splitAccumulators)
      text += "tile-split-accumulators{chip=" + chip +
              " blocks=" + (splitAccumulatorsBlocks ? "true" : "false") + "},";
    text += std::string("tile-software-pipeline{unroll-steady-state=") +
            (unroll ? "true" : "false") + "},";
    // Interior blocks first: tile-persistent-blocks makes each tile of the
    // loop choose between the versions on its own tile indices.
    if (specializeInteriorBlocks)
      text += "tile-specialize-interior-blocks,";
    if (persistentBlocks > 0)
      text +=
          "tile-persistent-blocks{blocks=" + std::to_string(persistentBlocks) +
          " block-group=" + std::to_string(blockGroup) + "},";
    if (specializeInteriorSteps)
      text += std::string("tile-specialize-interior-steps{tma=") +
              (tma ? "true" : "false") + "},";
    text += "tile-lower-to-nvgpu{chip=" + chip +
            " block-group=" + std::to_string(blockGroup) +
            " tma=" + (tma ? "true" : "false") +
            " tma-store=" + (tmaStore ? "true" : "false") +
            " split-barriers=" + (splitBarriers ? "true" : "false") +
            " cluster=" + std::to_string(cluster) +
            " cluster-cols=" + std::to_string(clusterCols) + "},";
    if (prefetchFragments && info.prefetchFragments)
      text += "tile-prefetch-fragments,";
    // expand-strided-metadata and lower-affine run on structured control
    // flow. After convert-scf-to-cf, the region simplification of
    // expand-strided-metadata's greedy driver hashes the many similar blocks
    // of a kernel in two versions (tile-specialize-interior-blocks): 186 s of
    // the 193 s that 256x256 tiles at 32 threads took to compile, against
    // 31 s in all in this order.
    text += "gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
            "convert-nvgpu-to-nvvm,"
            "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},"
            "tile-tensormap-params,"
            // nvvm.wgmma.mma_async and nvvm.fence.proxy become inline PTX.
            "convert-nvvm-to-llvm,"
            "canonicalize,cse,reconcile-unrealized-casts)";
    return text;
  }

  /// NVVM to PTX.
  std::string getBackPipeline(const ChipInfo &info) const {
    return "nvvm-attach-target{chip=" + chip +
           " features=" + info.ptxFeatures.str() +
           " O=" + std::to_string(optLevel) +
           "},gpu-module-to-binary{format=isa}";
  }

  /// Parses one of the pipelines above into `pm`; why it does not parse
  /// goes to `errors`.
  LogicalResult buildPipeline(OpPassManager &pm, StringRef text,
                              raw_ostream &errors) const {
    pm.setNesting(OpPassManager::Nesting::Implicit);
    return parsePassPipeline(text, pm, errors);
  }

  /// The front pipeline converts what tile-lower-to-nvgpu leaves (scf,
  /// arith, math, memref, vector, gpu, nvgpu) and leaves ops of other
  /// dialects as they are, with casts around them; LLVM's translation would
  /// then fail at a cast and name neither the op nor where it is. Reports the
  /// first op of a GPU module that is neither LLVM, NVVM nor such a cast, at
  /// its own location (a kernel body's ops keep theirs).
  static LogicalResult checkLoweredToLLVM(ModuleOp module) {
    Operation *left = nullptr;
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(op->getDialect()) ||
            isa<UnrealizedConversionCastOp>(op))
          return WalkResult::advance();
        left = op;
        return WalkResult::interrupt();
      });
    });
    if (!left)
      return success();
    left->emitOpError(
        "is not lowered by the GPU pipeline, which converts a kernel's tile "
        "ops, then its scf, arith, math, memref and gpu ops and the vector "
        "ops that map to LLVM directly");
    return failure();
  }

  /// The bytes of static shared memory that `kernel` uses: the addrspace-3
  /// arrays (not the zero-length dynamic region) that it or a function it
  /// calls takes the address of. (A GPU module holds every kernel of the
  /// source; each `.entry` has only the arrays it uses, as ptxas counts.)
  static int64_t getStaticSharedBytes(LLVM::LLVMFuncOp kernel) {
    SymbolTableCollection symbols;
    llvm::SmallPtrSet<Operation *, 8> seen;
    SmallVector<Operation *> functions = {kernel};
    int64_t bytes = 0;
    while (!functions.empty()) {
      Operation *function = functions.pop_back_val();
      if (!seen.insert(function).second)
        continue;
      function->walk([&](Operation *op) {
        if (auto call = dyn_cast<LLVM::CallOp>(op)) {
          if (auto callee = call.getCalleeAttr())
            if (Operation *target =
                    symbols.lookupNearestSymbolFrom(call, callee))
              functions.push_back(target);
          return;
        }
        auto address = dyn_cast<LLVM::AddressOfOp>(op);
        if (!address)
          return;
        auto global = address.getGlobal(symbols);
        if (!global || global.getAddrSpace() != 3 ||
            !seen.insert(global).second)
          return;
        auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
        if (array && !array.getNumElements())
          return;
        bytes += llvm::alignTo(
            DataLayout::closest(global).getTypeSize(global.getGlobalType()),
            global.getAlignment().value_or(1));
      });
    }
    return bytes;
  }

  /// Static shared memory comes before the dynamic region that holds the
  /// tiles: the mbarriers of TMA copies, which outlining counts, and buffers
  /// that the front pipeline's upstream conversions add (gpu.all_reduce's
  /// 32 partial results), which nothing counted: a kernel whose tiles filled
  /// the chip compiled and failed at launch. Checks each launch's dynamic
  /// bytes and its kernel's static arrays against the chip.
  static LogicalResult checkStaticSharedMemory(ModuleOp module,
                                               const ChipInfo &chip) {
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
          launch, launch.getKernel());
      APInt dynamicBytes;
      // outlineKernel gives every launch a constant size.
      if (!kernel || !launch.getDynamicSharedMemorySize() ||
          !matchPattern(launch.getDynamicSharedMemorySize(),
                        m_ConstantInt(&dynamicBytes)))
        return WalkResult::advance();
      int64_t staticBytes = getStaticSharedBytes(kernel);
      int64_t totalBytes =
          dynamicBytes.getSExtValue() +
          (staticBytes ? llvm::alignTo(staticBytes, kSharedTileAlignment) : 0);
      if (totalBytes <= chip.maxSharedBytesPerBlock)
        return WalkResult::advance();
      emitError(launch.getLoc())
          << "kernel needs " << totalBytes << " bytes of shared memory but "
          << chip.name << " allows " << chip.maxSharedBytesPerBlock
          << " per block (" << dynamicBytes.getSExtValue() << " for its tiles, "
          << totalBytes - dynamicBytes.getSExtValue()
          << " for static shared memory: mbarriers of TMA copies and "
             "buffers that the lowering of ops such as gpu.all_reduce adds, "
             "rounded up to the tiles' "
          << kSharedTileAlignment << "-byte alignment)";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    const ChipInfo *info = lookupChip(chip);
    if (!info)
      return;
    OpPassManager front("builtin.module"), back("builtin.module");
    if (succeeded(buildPipeline(front, getFrontPipeline(*info), llvm::nulls())))
      front.getDependentDialects(registry);
    if (succeeded(buildPipeline(back, getBackPipeline(*info), llvm::nulls())))
      back.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const ChipInfo *info =
        lookupChipOrEmitError(module.getLoc(), chip, getArgument());
    if (!info)
      return signalPassFailure();
    // The pipeline starts from tile kernels. GPU code lowered before (by
    // tile-lower-to-nvgpu with other options, say for another chip) would
    // go to the back end unchecked, where an instruction the chip lacks is
    // a fatal error of LLVM's instruction selection, not a diagnostic.
    if (auto gpuModule = module.getOps<gpu::GPUModuleOp>();
        !gpuModule.empty()) {
      // At its location, without the op: printed after the error, the
      // gpu.module would be all of its code.
      emitError((*gpuModule.begin()).getLoc())
          << "'gpu.module' op is GPU code already; " << getArgument()
          << " compiles tile kernels, so give it the module before "
             "tile-lower-to-nvgpu";
      return signalPassFailure();
    }
    // What goes on to tile-lower-to-nvgpu is checked here as well, so that a
    // bad option fails before the budget table is printed or any pass of
    // the pipeline runs.
    if (failed(checkLowerToNVGPUOptions(module.getLoc(),
                                        {chip, blockGroup, tma, tmaStore,
                                         splitBarriers, cluster, clusterCols},
                                        getArgument())))
      return signalPassFailure();
    if (optLevel > 3) {
      emitError(module.getLoc())
          << "opt-level=" << unsigned(optLevel)
          << " is not an LLVM optimization level: use 0, 1, 2 or 3";
      return signalPassFailure();
    }
    if (persistentBlocks < 0) {
      emitError(module.getLoc())
          << "persistent-blocks=" << int64_t(persistentBlocks)
          << " is negative: give the number of blocks, or 0 for none";
      return signalPassFailure();
    }
    if (cluster > 1 && persistentBlocks > 0) {
      emitError(module.getLoc(), "cluster=" + std::to_string(cluster) +
                                     " and persistent-blocks do not combine: "
                                     "the blocks of a cluster must run the "
                                     "same tiles' steps in step");
      return signalPassFailure();
    }
    // The pipelines are built from validated options, so a parse error is
    // a bug of this pass; it still goes through the diagnostics (to the C
    // API's callback, say), not to stderr.
    OpPassManager front("builtin.module"), back("builtin.module");
    std::string errors;
    llvm::raw_string_ostream os(errors);
    if (failed(buildPipeline(front, getFrontPipeline(*info), os)) ||
        failed(buildPipeline(back, getBackPipeline(*info), os))) {
      // untested: a bug of this pass, which no input reaches (above).
      emitError(module.getLoc(), getArgument() +
                                     ": internal pipeline does not parse: " +
                                     StringRef(errors).trim());
      return signalPassFailure();
    }
    if (failed(runPipeline(front, module)) ||
        failed(checkLoweredToLLVM(module)) ||
        failed(checkStaticSharedMemory(module, *info)))
      return signalPassFailure();

    // convert-gpu-to-nvvm declares the dynamic shared region as an
    // *internal* zero-length array; NVPTX then "demotes" it to a one-byte
    // static `.shared` variable instead of `.extern .shared ... []`, and every
    // tile would alias past its end. External linkage gives the dynamic
    // region, aligned as the carving assumes (kSharedTileAlignment).
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.walk([&](LLVM::GlobalOp global) {
        auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
        if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
          return;
        global.setLinkage(LLVM::Linkage::External);
        global.setAlignment(kSharedTileAlignment);
      });
    });

    if (failed(runPipeline(back, module)))
      return signalPassFailure();
  }
};

} // namespace
