//===- FragmentLowering.cpp - Fragment tiles to per-thread code -----------===//
//
// Part of tile-mlir. The driver: checks every fragment use, gives each
// fragment its per-thread registers, then hands each op to its lowering
// (GemmToMMA.cpp, FragmentCopies.cpp).
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/FragmentLowering.h"

#include "FragmentLoweringDetail.h"

#include "tile/Conversion/TileToNVGPU/SharedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::fragment;

static bool isFragment(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && getMemorySpace(type) == MemorySpace::Fragment;
}

std::pair<int64_t, int64_t>
fragment::getRegisterDelta(const FragmentLayout &layout, int64_t reg) {
  // Thread 0 of warp 0 holds register r at the deltas themselves.
  return layout.getPosition(/*thread=*/0, reg);
}

int64_t fragment::getElementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Fails with an error at `user` when `tile`, a shared operand of a gemm or
/// of a copy to or from a fragment, is a part of a shared tile: these ops
/// address the tile through the swizzle of its own shape, which a part does
/// not share with the buffer it lies in.
static LogicalResult checkWholeSharedTile(Operation *user, Value tile,
                                          StringRef what) {
  if (getMemorySpace(cast<MemRefType>(tile.getType())) != MemorySpace::Shared ||
      getWholeSharedTile(tile))
    return success();
  return user->emitOpError()
         << what
         << " a part of a shared tile, which the GPU lowering does not "
            "support: ldmatrix and the fragment copies address a whole tile "
            "through its swizzle (use the whole tile, with offsets for a "
            "copy)";
}

/// The most registers per thread that a kernel's fragments may take on the
/// GPU: 8 times what a thread holds, enough for an accumulator that
/// tile-split-accumulators could not cut (256x256 at 32 threads).
static constexpr int64_t kMaxFragmentRegisters = 2048;

/// Checks that the GPU lowering supports `user`'s use of `fragment`.
static LogicalResult checkUse(Operation *user, Value fragment) {
  if (isa<ClearOp>(user))
    return success();
  if (auto gemm = dyn_cast<GemmOp>(user)) {
    if (gemm.getA() == fragment || gemm.getB() == fragment)
      return gemm.emitOpError()
             << "with operand " << (gemm.getA() == fragment ? "A" : "B")
             << " in a fragment is not supported by the GPU lowering: "
                "ldmatrix reads A and B from shared memory (copy the tile "
                "into a shared tile first)";
    if (failed(
            checkWholeSharedTile(gemm, gemm.getA(), "reads operand A from")) ||
        failed(checkWholeSharedTile(gemm, gemm.getB(), "reads operand B from")))
      return failure();
    return success();
  }
  if (auto copy = dyn_cast<CopyOp>(user)) {
    if ((copy.getSource() == fragment && !copy.getSourceIndices().empty()) ||
        (copy.getDest() == fragment && !copy.getDestIndices().empty()))
      return copy.emitOpError()
             << "with offsets into a fragment is not supported by the GPU "
                "lowering: which thread holds an element must be known at "
                "compile time";
    Value other =
        copy.getSource() == fragment ? copy.getDest() : copy.getSource();
    if (failed(
            checkWholeSharedTile(copy, other, "copies a fragment to or from")))
      return failure();
    if (isFragment(copy.getSource()) && isFragment(copy.getDest()) &&
        copy.getSource().getType().getShape() !=
            copy.getDest().getType().getShape())
      return copy.emitOpError()
             << "between fragments of different shapes is not supported by "
                "the GPU lowering: their register layouts differ";
    return success();
  }
  return user->emitOpError()
         << "uses a fragment tile, which the GPU lowering supports only in "
            "tile.clear, tile.copy and as the accumulator of tile.gemm";
}

/// Why the accumulators live at once do not fit in a thread's registers
/// together; empty where they do, and `blocker` set to a GEMM of the last
/// of them where they do not. whyNotWgmma counts one accumulator at a time.
/// An accumulator is live from the first to the last op of the kernel body
/// that uses it (or holds a use: a loop whose gemms update it): two
/// accumulators of one K loop overlap there, while two computed in turn
/// (the first stored before the second is cleared, each in its own
/// pipelined loop with a prologue and epilogue around it) do not. Two
/// 128x128 f32 accumulators at 128 threads (256 registers) as wgmma: ptxas
/// (CUDA 13.0) serializes the wgmmas for want of registers (C7511) and
/// spills 6796 B; as mma.sync it spills 3860 B. The margin for wgmma's own
/// registers that whyNotWgmma keeps is not kept here: 128x128 and 128x96
/// (224 registers) spilled 12 B as wgmma, with no serialization, and 1392 B
/// as mma.sync.
static std::string whyNotWgmmaTogether(ArrayRef<AllocFragmentOp> allocs,
                                       ArrayRef<FragmentLayout> layouts,
                                       int64_t registerLimit,
                                       Operation *&blocker) {
  // Ops of the kernel body; isBeforeInBlock keeps their order cached.
  struct LiveRange {
    Operation *first = nullptr, *last = nullptr;
    int64_t registers = 0;
    Operation *gemm = nullptr;
  };
  SmallVector<LiveRange> ranges;
  for (auto [alloc, layout] : llvm::zip(allocs, layouts)) {
    LiveRange range;
    Block &body = alloc->getParentOfType<KernelOp>().getBody().front();
    for (Operation *user : alloc->getUsers()) {
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        continue;
      if (!range.first || top->isBeforeInBlock(range.first))
        range.first = top;
      if (!range.last || range.last->isBeforeInBlock(top))
        range.last = top;
      if (isa<GemmOp>(user))
        range.gemm = user;
    }
    if (!range.gemm)
      continue;
    range.registers = layout.warpTileM * layout.warpTileN / kWarpgroupThreads;
    ranges.push_back(range);
  }
  // The most registers live at once are live where some range begins.
  for (const LiveRange &range : ranges) {
    int64_t registers = 0, count = 0;
    for (const LiveRange &other : ranges)
      if (!range.first->isBeforeInBlock(other.first) &&
          !other.last->isBeforeInBlock(range.first)) {
        registers += other.registers;
        ++count;
      }
    if (count < 2 || registers <= registerLimit)
      continue;
    blocker = range.gemm;
    return "the " + std::to_string(count) + " accumulators live here need " +
           std::to_string(registers) +
           " registers per thread together, but a thread of this block has " +
           std::to_string(registerLimit);
  }
  return "";
}

/// The warpgroup layouts of `allocs`, when the kernel has GEMMs into them
/// and every one can run as wgmma; otherwise std::nullopt, and the kernel
/// keeps the mma.sync layouts (a fragment has one layout for all its uses,
/// and copies between fragments need equal layouts). Where the kernel has
/// GEMMs, `blocker` is set to the op that keeps them off wgmma (a GEMM, or
/// a fragment with no warpgroup layout, GEMM or not) and `why` to the
/// reason.
static std::optional<SmallVector<FragmentLayout>>
getWarpgroupLayouts(ArrayRef<AllocFragmentOp> allocs, int64_t threads,
                    int64_t registerLimit, Operation *&blocker,
                    std::string &why) {
  SmallVector<FragmentLayout> layouts;
  bool anyGemm = false;
  // A fragment without a GEMM and without a warpgroup layout: it keeps the
  // kernel's GEMMs on mma.sync, if the kernel has any.
  Operation *layoutless = nullptr;
  std::string layoutlessWhy;
  for (AllocFragmentOp alloc : allocs) {
    bool hasGemm = llvm::any_of(
        alloc->getUsers(), [](Operation *user) { return isa<GemmOp>(user); });
    std::optional<FragmentLayout> layout =
        FragmentLayout::getWarpgroup(alloc.getType().getShape(), threads, why);
    if (!layout) {
      if (hasGemm) {
        blocker = alloc;
        return std::nullopt;
      }
      if (!layoutless) {
        layoutless = alloc;
        layoutlessWhy = why;
      }
      continue;
    }
    for (Operation *user : alloc->getUsers()) {
      auto gemm = dyn_cast<GemmOp>(user);
      if (!gemm)
        continue;
      why = fragment::whyNotWgmma(gemm, *layout, registerLimit);
      if (!why.empty()) {
        blocker = gemm;
        return std::nullopt;
      }
      anyGemm = true;
    }
    layouts.push_back(*layout);
  }
  if (!anyGemm)
    return std::nullopt;
  if (layoutless) {
    blocker = layoutless;
    why = "this fragment has no warpgroup layout (" + layoutlessWhy +
          "), and a kernel's fragments all take one kind of layout";
    return std::nullopt;
  }
  why = whyNotWgmmaTogether(allocs, layouts, registerLimit, blocker);
  if (!why.empty())
    return std::nullopt;
  return layouts;
}

LogicalResult mlir::tile::checkGPUElementTypes(KernelOp kernel) {
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    if (!isa_and_nonnull<TileDialect>(op->getDialect()))
      return WalkResult::advance();
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes())) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref)
        continue;
      Type element = memref.getElementType();
      if (element.isIntOrFloat() &&
          llvm::is_contained({8u, 16u, 32u, 64u},
                             element.getIntOrFloatBitWidth()))
        continue;
      op->emitOpError("uses a memref of ")
          << element
          << " elements; the GPU lowering handles integer and float "
             "elements of 1, 2, 4 or 8 bytes only";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Reports `op`'s use of `fragment`, which is not a tile.alloc_fragment
/// result: a view of one of the kernel's fragments, or a fragment from
/// outside the kernel.
static void reportForeignFragment(Operation *op, Value fragment,
                                  KernelOp kernel) {
  Value root = fragment;
  Operation *view = nullptr;
  while (auto viewLike = root.getDefiningOp<ViewLikeOpInterface>()) {
    view = view ? view : viewLike.getOperation();
    root = viewLike.getViewSource();
  }
  auto alloc = root.getDefiningOp<AllocFragmentOp>();
  if (view && alloc && kernel->isProperAncestor(alloc)) {
    op->emitOpError() << "uses a fragment through '" << view->getName()
                      << "'; the GPU lowering places whole fragments in "
                         "registers, so tile ops take a tile.alloc_fragment "
                         "result itself";
    return;
  }
  op->emitOpError() << "uses a fragment that is not a tile.alloc_fragment "
                       "of its kernel; the GPU lowering cannot place it "
                       "in registers";
}

LogicalResult mlir::tile::lowerFragmentOps(KernelOp kernel,
                                           const ChipInfo &chip) {
  SmallVector<AllocFragmentOp> allocs;
  kernel.walk([&](AllocFragmentOp alloc) { allocs.push_back(alloc); });

  // A fragment must be allocated in this kernel: its registers exist only
  // inside it (one from outside, e.g. a function argument, has no owner).
  WalkResult foreign = kernel.walk([&](Operation *op) {
    if (!isa<ClearOp, CopyOp, GemmOp>(op))
      return WalkResult::advance();
    for (Value operand : op->getOperands())
      if (isFragment(operand) && !operand.getDefiningOp<AllocFragmentOp>()) {
        reportForeignFragment(op, operand, kernel);
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (foreign.wasInterrupted())
    return failure();
  if (allocs.empty())
    return success();

  // Check everything first so that a failure leaves the kernel untouched.
  int64_t threads = kernel.getThreads();
  // Past a thread's 255 registers ptxas spills; far past them the lowering
  // itself, which writes one op per register, takes minutes and gigabytes
  // (a 1024x1024 f32 fragment at 128 threads: 8192 registers, 25 s and
  // 6 GB).
  int64_t fragmentBytes = 0;
  for (AllocFragmentOp alloc : allocs)
    fragmentBytes += getTileBytes(alloc.getType());
  int64_t registers = llvm::divideCeil(fragmentBytes, threads * 4);
  if (registers > kMaxFragmentRegisters)
    return emitError(kernel.getLoc())
           << "fragment tiles need " << registers << " registers per thread ("
           << fragmentBytes << " B / " << threads
           << " threads / 4 B); the GPU lowering writes one op per register "
              "and takes at most "
           << kMaxFragmentRegisters << " (a thread holds "
           << getRegisterLimit(chip, threads)
           << "): use more threads or smaller fragments";
  SmallVector<FragmentLayout> layouts;
  for (AllocFragmentOp alloc : allocs) {
    std::string why;
    std::optional<FragmentLayout> layout =
        FragmentLayout::get(alloc.getType().getShape(), threads, why);
    if (!layout)
      return alloc.emitOpError() << "cannot be laid out in registers: " << why;
    layouts.push_back(*layout);
    for (Operation *user : alloc->getUsers())
      if (failed(checkUse(user, alloc.getResult())))
        return failure();
  }

  bool wgmma = false;
  if (chip.wgmma) {
    Operation *blocker = nullptr;
    std::string why;
    if (std::optional<SmallVector<FragmentLayout>> groupLayouts =
            getWarpgroupLayouts(allocs, threads,
                                getRegisterLimit(chip, threads), blocker,
                                why)) {
      layouts = std::move(*groupLayouts);
      wgmma = true;
    } else if (blocker) {
      // Not an error: mma.sync is correct, only slower. Say why.
      blocker->emitRemark() << "the kernel's GEMMs do not use wgmma on "
                            << chip.name << ": " << why;
    }
  }

  Location loc = kernel.getLoc();
  Block &body = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  FragmentState state(chip);
  state.threads = threads;
  if (wgmma) {
    state.deferredGemms = fragment::scheduleWgmmaGemms(kernel);
    state.gemmsAfterClear = fragment::getGemmsAfterClear(kernel);
  }
  state.threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  state.warpId = arith::DivUIOp::create(b, loc, state.threadId, constant(32));
  state.laneId = arith::RemUIOp::create(b, loc, state.threadId, constant(32));
  // Lane l's first element sits at row l/4, column 2*(l%4) of each mma tile.
  Value laneRow = arith::DivUIOp::create(b, loc, state.laneId, constant(4));
  Value laneQuad = arith::RemUIOp::create(b, loc, state.laneId, constant(4));
  Value laneCol = arith::MulIOp::create(b, loc, laneQuad, constant(2));

  for (auto [alloc, layout] : llvm::zip(allocs, layouts)) {
    FragmentRegisters regs{layout, {}, {}, {}, {}, {}};
    // No memory space: a plain alloca that SROA turns into registers once
    // every index is a constant (private arrays would be local memory).
    auto regType = MemRefType::get({layout.getNumRegisters()},
                                   alloc.getType().getElementType());
    regs.registers = memref::AllocaOp::create(b, alloc.getLoc(), regType);
    // FragmentLayout::getWarpOrigin: a warp, or a warpgroup whose warps
    // stack their 16 rows.
    Value unit = layout.warpgroup
                     ? arith::DivUIOp::create(b, loc, state.warpId, constant(4))
                     : state.warpId;
    Value unitRow =
        arith::DivUIOp::create(b, loc, unit, constant(layout.warpsN));
    regs.warpRow =
        arith::MulIOp::create(b, loc, unitRow, constant(layout.warpTileM));
    if (layout.warpgroup) {
      Value warpInGroup =
          arith::RemUIOp::create(b, loc, state.warpId, constant(4));
      Value rows = arith::MulIOp::create(b, loc, warpInGroup, constant(16));
      regs.warpRow = arith::AddIOp::create(b, loc, regs.warpRow, rows);
    }
    Value unitCol =
        arith::RemUIOp::create(b, loc, unit, constant(layout.warpsN));
    regs.warpCol =
        arith::MulIOp::create(b, loc, unitCol, constant(layout.warpTileN));
    regs.rowBase = arith::AddIOp::create(b, loc, regs.warpRow, laneRow);
    regs.colBase = arith::AddIOp::create(b, loc, regs.warpCol, laneCol);
    state.fragments.try_emplace(alloc.getResult(), regs);
  }

  // Lower users in program order; collect first, as lowering erases them.
  SmallVector<Operation *> users;
  kernel.walk([&](Operation *op) {
    if (llvm::any_of(op->getOperands(),
                     [&](Value v) { return state.fragments.count(v) != 0; }))
      users.push_back(op);
  });
  for (Operation *op : users) {
    if (auto gemm = dyn_cast<GemmOp>(op))
      lowerFragmentGemm(gemm, state);
    else if (auto clear = dyn_cast<ClearOp>(op))
      lowerFragmentClear(clear, state);
    else
      lowerFragmentCopy(cast<CopyOp>(op), state);
  }
  for (AllocFragmentOp alloc : allocs)
    alloc.erase();
  return success();
}

void mlir::tile::getFragmentLoweringDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  memref::MemRefDialect, NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
}
