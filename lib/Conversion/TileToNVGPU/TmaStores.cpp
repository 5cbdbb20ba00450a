//===- TmaStores.cpp - Fragment stores through shared memory and the TMA --===//
//
// Part of tile-mlir. See TmaStores.h.
//
// Why: a persistent block at one block per SM stores its tile's result with
// st.global while no other block runs on the SM, and the stores compete
// with the next tile's loads. Through the TMA the block only waits for the
// shared-memory writes; the global writes overlap the next tile. Measured on
// an H200 (docs/performance.md, "TMA stores"): the 256x128x64 mma.sync
// kernel gains 2.5% at K = 512 and 1.9% at K = 1024 and is unchanged at
// 4096^3; the 128x256x64 wgmma kernel loses 5% at K = 512. So it is an
// option, off by default. Upstream has no such epilogue rewrite; the TMA
// store itself is upstream NVGPU's `nvgpu.tma.async.store`.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/TmaStores.h"
#include "tile/Dialect/Tile/Utils/MemRefUtils.h"

#include "CopyLoweringDetail.h"
#include "TmaDetail.h"
#include "TmaGroupAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <tuple>

using namespace mlir;
using namespace mlir::tile;
using copy::constantIndex;

/// Bytes of the kernel's shared tiles, laid out as SharedCarving.h does.
static int64_t getSharedBytes(KernelOp kernel) {
  int64_t bytes = 0;
  kernel.walk([&](AllocSharedOp alloc) {
    bytes = appendSharedTile(bytes, getTileBytes(alloc.getType()));
  });
  return bytes;
}

/// Whether `op` stores a whole fragment to global memory from inside a loop
/// of `kernel`.
static bool isLoopedFragmentStore(CopyOp op, KernelOp kernel) {
  auto sourceType = cast<MemRefType>(op.getSource().getType());
  auto destType = cast<MemRefType>(op.getDest().getType());
  if (getMemorySpace(sourceType) != MemorySpace::Fragment ||
      getMemorySpace(destType) != MemorySpace::Global ||
      !op.getSourceIndices().empty() || sourceType.getRank() != 2)
    return false;
  auto loop = op->getParentOfType<scf::ForOp>();
  return loop && kernel->isProperAncestor(loop);
}

/// `body` in an scf.if on `cond`, at `b`'s insertion point.
static void emitIf(OpBuilder &b, Location loc, Value cond,
                   function_ref<void(OpBuilder &)> body) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), cond,
                                /*withElseRegion=*/false);
  OpBuilder inner = OpBuilder::atBlockTerminator(ifOp.thenBlock());
  body(inner);
}

/// Thread 0 waits until the TMA has read every staged tile it was given.
static void waitForStagedReads(OpBuilder &b, Location loc, Value leader) {
  emitIf(b, loc, leader, [&](OpBuilder &inner) {
    NVVM::CpAsyncBulkWaitGroupOp::create(inner, loc, /*group=*/0,
                                         inner.getUnitAttr());
  });
}

void mlir::tile::stageFragmentStoresForTma(KernelOp kernel,
                                           const ChipInfo &chip,
                                           bool tmaCopies) {
  SmallVector<CopyOp> stores;
  kernel.walk([&](CopyOp op) {
    if (isLoopedFragmentStore(op, kernel))
      stores.push_back(op);
  });
  if (stores.empty())
    return;
  // TMA copies' mbarriers come first, in an aligned block of their own
  // (KernelOutlining.cpp); the stores themselves wait on bulk groups, not
  // on mbarriers. Whether the copies will use the TMA is decided later
  // (lowerAsyncCopiesToTma), so the block is kept wherever they may.
  bool mayHaveMbarriers =
      tmaCopies &&
      kernel.walk([](CopyAsyncOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  int64_t mbarrierBytes = mayHaveMbarriers ? kSharedTileAlignment : 0;

  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  OpBuilder top = OpBuilder::atBlockBegin(&body);
  Value leader;
  int64_t bytes = getSharedBytes(kernel);
  // One staging tile per type: the stores (e.g. the two versions of
  // tile-specialize-interior-blocks) each wait for the one before.
  DenseMap<Type, Value> stagingTiles;
  for (CopyOp op : stores) {
    auto fragmentType = cast<MemRefType>(op.getSource().getType());
    auto destType = cast<MemRefType>(op.getDest().getType());
    auto stagingType = MemRefType::get(
        fragmentType.getShape(), destType.getElementType(),
        MemRefLayoutAttrInterface(),
        getMemorySpaceAttr(kernel.getContext(), MemorySpace::Shared));
    std::string why;
    if (failed(tma::planBoxes(op.getDest(), stagingType, why)) ||
        failed(tma::checkInnerOffset(op.getDest(), op.getDestIndices(), why))) {
      op.emitRemark("the store stays synchronous, not the TMA: ") << why;
      continue;
    }
    // The stores wait only until the TMA has read the staging tile, not
    // until their writes land: a read of the tensor after a barrier could
    // see the old values.
    if (Operation *reader = tma::findRead(kernel, op.getDest())) {
      op.emitRemark("the store stays synchronous, not the TMA: the kernel "
                    "reads the tensor it stores, and a TMA store's writes "
                    "become visible to those reads only once it completes")
              .attachNote(reader->getLoc())
          << "the read";
      continue;
    }
    // Nor until they land for later writes, which could land first; and a
    // write before the store reaches the async proxy only through a
    // fence.proxy.async on global memory. Either way the last write in
    // program order might not be the one that stays.
    if (Operation *writer = tma::findGenericWrite(
            kernel, getUnderlyingMemRef(op.getDest()), op)) {
      op.emitRemark("the store stays synchronous, not the TMA: another op "
                    "of the kernel writes the tensor it stores, and the two "
                    "writes would go through different proxies, unordered")
              .attachNote(writer->getLoc())
          << "the other write";
      continue;
    }
    Value &staging = stagingTiles[stagingType];
    int64_t staged =
        staging ? bytes : appendSharedTile(bytes, getTileBytes(stagingType));
    if (staged + mbarrierBytes > chip.maxSharedBytesPerBlock) {
      InFlightDiagnostic remark =
          op.emitRemark("the store stays synchronous, not the TMA: its "
                        "staging tile would need ")
          << staged + mbarrierBytes << " bytes of shared memory in all";
      if (mbarrierBytes)
        remark << " (" << mbarrierBytes
               << " of them for the mbarriers of TMA copies)";
      remark << ", and " << chip.name << " allows "
             << chip.maxSharedBytesPerBlock << " per block";
      continue;
    }
    bytes = staged;

    if (!leader) {
      Value tid = gpu::ThreadIdOp::create(top, loc, gpu::Dimension::x);
      leader = arith::CmpIOp::create(top, loc, arith::CmpIPredicate::eq, tid,
                                     constantIndex(top, loc, 0));
    }
    if (!staging)
      staging = AllocSharedOp::create(top, op.getLoc(), stagingType);

    OpBuilder b(op);
    Location storeLoc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    // The previous tile's store has left the staging tile before any thread
    // writes it again.
    waitForStagedReads(b, storeLoc, leader);
    BarrierOp::create(b, storeLoc);
    CopyOp::create(b, storeLoc, op.getSource(), ValueRange(), staging,
                   ValueRange());
    // The generic proxy's writes, visible to the TMA's (async proxy) reads.
    NVVM::FenceProxyOp::create(
        b, storeLoc,
        NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    BarrierOp::create(b, storeLoc);
    auto store = CopyOp::create(b, storeLoc, staging, ValueRange(),
                                op.getDest(), op.getDestIndices());
    store->setAttr(kTmaStoreAttrName, UnitAttr::get(ctx));
    op.erase();
  }
  if (!leader)
    return;
  // The staging tiles are read until the last store's wait: the block's
  // shared memory must outlive them.
  OpBuilder end = OpBuilder::atBlockEnd(&body);
  waitForStagedReads(end, loc, leader);
  // An exit after the last tile op (in some threads, or in all of a block)
  // leaves before that wait: thread 0 waits before it too.
  kernel.walk([&](NVVM::Exit exit) {
    OpBuilder before(exit);
    waitForStagedReads(before, exit.getLoc(), leader);
  });
}

void mlir::tile::lowerStagedStoresToTma(KernelOp kernel, Value tid) {
  SmallVector<CopyOp> stores;
  kernel.walk([&](CopyOp op) {
    if (op->hasAttr(kTmaStoreAttrName))
      stores.push_back(op);
  });
  // One tensor map per tensor and box.
  DenseMap<std::tuple<Value, int64_t, int64_t, unsigned>, Value> maps;
  for (CopyOp op : stores) {
    auto stagingType = cast<MemRefType>(op.getSource().getType());
    std::string why;
    FailureOr<tma::BoxPlan> plan =
        tma::planBoxes(op.getDest(), stagingType, why);
    // stageFragmentStoresForTma planned the same boxes.
    assert(succeeded(plan) && "a staged store that the TMA cannot take");
    Value &map = maps[{plan->global, plan->boxRows, plan->boxCols,
                       static_cast<unsigned>(plan->swizzle)}];
    if (!map)
      map = tma::createTensorMap(kernel, *plan);
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value zero = constantIndex(b, loc, 0);
    Value leader =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
    emitIf(b, loc, leader, [&](OpBuilder &inner) {
      for (const tma::Box &box : plan->boxes) {
        Value src =
            tma::getBoxView(inner, loc, op.getSource(), zero, *plan, box);
        nvgpu::TmaAsyncStoreOp::create(
            inner, loc, src, map,
            tma::getBoxCoordinates(inner, loc, op.getDestIndices(), box),
            /*predicate=*/Value());
      }
      NVVM::CpAsyncBulkCommitGroupOp::create(inner, loc);
    });
    op.erase();
  }
}
