//===- TileToCPU.cpp - Run tile kernels as sequential CPU code ------------===//
//
// Part of tile-mlir. Implements `--tile-lower-to-cpu`: the structure of a
// tile program (grid, pipelined loop, tiles, synchronization) becomes plain
// sequential code; the computing ops are expanded by TileOpsToLoops.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToCPU/TileToCPU.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILELOWERTOCPU
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Grid -> one `scf.for` per grid dimension (block index d from 0 to grid
/// size d), the body moved into the innermost loop.
static void lowerKernel(RewriterBase &rewriter, KernelOp kernel) {
  Location loc = kernel.getLoc();
  rewriter.setInsertionPoint(kernel);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  size_t rank = kernel.getGridSizes().size();
  SmallVector<Value> lbs(rank, zero), steps(rank, one);
  scf::LoopNest nest =
      scf::buildLoopNest(rewriter, loc, lbs, kernel.getGridSizes(), steps);
  Block *body = nest.loops.back().getBody();
  SmallVector<Value> blockIndices;
  for (scf::ForOp loop : nest.loops)
    blockIndices.push_back(loop.getInductionVar());
  rewriter.inlineBlockBefore(&kernel.getBody().front(), body,
                             body->getTerminator()->getIterator(),
                             blockIndices);
  rewriter.eraseOp(kernel);
}

/// A tile lives as long as its thread block: a heap buffer allocated in the
/// kernel body (later the grid loop's body), before the op of the body that
/// holds the allocation, and freed at the body's end, wherever in the body
/// the tile is allocated. The GPU lowering gives every tile its own slot of
/// the block's shared memory or registers in the same way, so a tile
/// allocated in an scf.if and yielded out lives on. `memref.alloca` in a
/// `memref.alloca_scope` would say the same, but the standard lowering cannot
/// convert a scope whose body `scf` loops have already become branches, and
/// plain allocas in the grid loop would grow the stack by one set of tiles per
/// thread block.
static void lowerTileAlloc(RewriterBase &rewriter, Operation *alloc) {
  auto type = cast<MemRefType>(alloc->getResult(0).getType());
  auto kernel = alloc->getParentOfType<KernelOp>();
  Block *block = kernel ? &kernel.getBody().front() : alloc->getBlock();
  rewriter.setInsertionPoint(block->findAncestorOpInBlock(*alloc));
  Value buffer = memref::AllocOp::create(rewriter, alloc->getLoc(), type);
  // Not whatever malloc returns, which may be the last block's tile with
  // the same data and hide a read before the tile is written.
  poisonTile(rewriter, alloc->getLoc(), buffer);
  if (block->mightHaveTerminator())
    rewriter.setInsertionPoint(block->getTerminator());
  else
    rewriter.setInsertionPointToEnd(block);
  memref::DeallocOp::create(rewriter, alloc->getLoc(), buffer);
  rewriter.replaceOp(alloc, buffer);
}

/// Memory spaces that have a CPU meaning: none, or a `#gpu.address_space`
/// (global, shared and fragment memory are all plain memory here).
static bool hasCPUMemorySpace(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  if (!memref || !memref.getMemorySpace())
    return true;
  return isa<gpu::AddressSpaceAttr>(memref.getMemorySpace());
}

/// Rejects kernels that use memory the CPU cannot model, before anything is
/// rewritten, so that a failed run leaves the input untouched: what ops in
/// the kernel produce and what they use (the function's arguments too).
static LogicalResult checkMemorySpaces(KernelOp kernel) {
  WalkResult result = kernel.walk([&](Operation *op) {
    for (Value value :
         llvm::concat<Value>(op->getResults(), op->getOperands())) {
      if (hasCPUMemorySpace(value.getType()))
        continue;
      op->emitError() << "cannot run on the CPU: memory space "
                      << cast<BaseMemRefType>(value.getType()).getMemorySpace()
                      << " has no CPU meaning (expected none or "
                         "#gpu.address_space<...>)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Drops `#gpu.address_space<...>` from every memref type in `module`: the
/// CPU has one memory, and the LLVM lowering would otherwise place tiles in
/// address spaces the host cannot use. Upstream's AttrTypeReplacer rewrites
/// result types, block arguments and type attributes (function types)
/// consistently, so subviews and calls stay valid.
static void stripGPUAddressSpaces(ModuleOp module) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
    if (!isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
      return std::nullopt;
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout(), Attribute());
  });
  replacer.addReplacement([](UnrankedMemRefType type) -> std::optional<Type> {
    if (!isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
      return std::nullopt;
    return UnrankedMemRefType::get(type.getElementType(), Attribute());
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

/// The first op of `module`, outermost first, that is GPU code (a
/// gpu.module, a kernel launch, any other op of the gpu dialect such as
/// gpu.thread_id, an NVGPU or NVVM op), which the CPU cannot run, and whose
/// memory spaces stripGPUAddressSpaces would make invalid; null if none.
static Operation *findLoweredGPUCode(ModuleOp module) {
  Operation *found = nullptr;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    StringRef dialect =
        op->getDialect() ? op->getDialect()->getNamespace() : StringRef();
    if (dialect == "gpu" || dialect == "nvgpu" || dialect == "nvvm") {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

namespace {
struct TileLowerToCPUPass
    : tile::NamedOptionErrors<
          tile::impl::TileLowerToCPUBase<TileLowerToCPUPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (Operation *gpuCode = findLoweredGPUCode(module)) {
      // At the op's location, without the op: a gpu.module printed after
      // the error would be all of its code.
      emitError(gpuCode->getLoc())
          << "'" << gpuCode->getName()
          << "' op is GPU code, which tile-lower-to-cpu cannot run: it runs "
             "tile kernels, so give it the module before the GPU lowering";
      return signalPassFailure();
    }
    bool failedCheck = false;
    module.walk([&](KernelOp kernel) {
      failedCheck |= failed(checkMemorySpaces(kernel));
    });
    if (failedCheck)
      return signalPassFailure();
    SmallVector<KernelOp> kernels;
    module.walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      if (checkBarriers)
        addBarrierChecks(
            kernel, modelAsync ? function_ref<void(KernelOp)>(modelAsyncCopies)
                               : nullptr);
      else if (modelAsync)
        modelAsyncCopies(kernel);
    }

    // Post-order: ops inside a kernel or pipelined loop are rewritten while
    // their parent still exists; the parents' bodies are then moved, not
    // cloned, so the collected pointers stay valid.
    SmallVector<Operation *> tileOps;
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<TileDialect>(op->getDialect()))
        tileOps.push_back(op);
    });

    // Every op of the dialect has a case below; a new op without one is
    // left in place and stops the LLVM lowering that follows.
    IRRewriter rewriter(&getContext());
    for (Operation *op : tileOps) {
      llvm::TypeSwitch<Operation *>(op)
          .Case([&](KernelOp kernel) { lowerKernel(rewriter, kernel); })
          .Case([&](PipelinedOp loop) { convertToSerialLoop(rewriter, loop); })
          .Case<AllocSharedOp, AllocFragmentOp>(
              [&](Operation *alloc) { lowerTileAlloc(rewriter, alloc); })
          .Case([&](CopyOp copy) { lowerCopyToLoops(rewriter, copy); })
          .Case([&](CopyAsyncOp copy) { lowerCopyToLoops(rewriter, copy); })
          .Case([&](GemmOp gemm) { lowerGemmToLoops(rewriter, gemm); })
          .Case([&](ClearOp clear) { lowerClearToLoops(rewriter, clear); })
          // Left only with model-async-copies=false, or around copies the
          // model cannot replay: those complete at once, and with one
          // thread of execution waiting and synchronizing do nothing.
          .Case<CommitGroupOp, WaitGroupOp, BarrierOp>(
              [&](Operation *sync) { rewriter.eraseOp(sync); });
    }
    stripGPUAddressSpaces(module);
  }
};
} // namespace
