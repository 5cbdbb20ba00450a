//===- GemmToWgmma.cpp - tile.gemm to wgmma.mma_async (sm_90a) ------------===//
//
// Part of tile-mlir. On sm_90a each warpgroup (4 warps) computes its group
// tile of the accumulator (FragmentLayout's warpgroup kind) as one
// wgmma.mma_async m64nNk16 per 64-row slice and k-step of 16, reading A and B
// straight from shared memory through 64-bit matrix descriptors: no ldmatrix,
// and each operand is read once per warpgroup instead of once per warp.
//
// The descriptors describe the shared tiles exactly as SharedLayout.h lays
// them out: rows of 32, 64 or 128 bytes (within a 128-byte panel) with the
// matching wgmma swizzle, panels one after the other. Upstream's
// nvgpu.warpgroup.mma derives descriptors from a TMA tensor-map type, which
// cp.async-filled tiles do not have, so this builds nvvm.wgmma.mma_async and
// its descriptors directly.
//
// A gemm is synchronous to its surroundings: wgmma.fence, the mma_asyncs,
// commit, and wait_group 0. So the pipeline's barriers keep their meaning:
// once the gemm is done, its stage's buffers may be overwritten. The one
// exception is the unrolled steady state, where scheduleWgmmaGemms moves each
// step's gemm ahead of the step's copies (into other buffer versions) and the
// gemm ends with wait_group 1, keeping its group in flight until the next
// step's gemm. wgmma reads shared memory through the async proxy while
// cp.async wrote it through the generic proxy, so a fence.proxy.async orders
// the two.
//
//===----------------------------------------------------------------------===//

#include "FragmentLoweringDetail.h"

#include "tile/Conversion/TileToNVGPU/SharedAccess.h"
#include "tile/Conversion/TileToNVGPU/SharedLayout.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::fragment;

static constexpr int64_t kWgmmaM = 64;
static constexpr int64_t kWgmmaK = 16;

namespace {
/// One wgmma operand: a shared [rows][cols] tile, read either along its rows
/// ("K-major": each row holds K elements of one M or N index) or across them
/// ("MN-major": each row holds the M or N elements of one k).
struct WgmmaOperand {
  Value tile;
  SharedSwizzle layout;
  int64_t elementBytes;
  bool kMajor;

  /// `tile` through its casts, which only hide static sizes and strides
  /// that the tile has.
  WgmmaOperand(Value tile, bool kMajor)
      : tile(skipCasts(tile)), layout(getLayout(this->tile)),
        elementBytes(getElementBytes(getType().getElementType())),
        kMajor(kMajor) {}

  MemRefType getType() const { return cast<MemRefType>(tile.getType()); }

  static SharedSwizzle getLayout(Value tile) {
    auto type = cast<MemRefType>(tile.getType());
    return SharedSwizzle(type.getDimSize(0), type.getDimSize(1),
                         getElementBytes(type.getElementType()));
  }

  /// Bytes of one row of a panel: the swizzle width.
  int64_t getRowBytes() const {
    return layout.getPanelElements() * elementBytes;
  }

  /// Byte offset of logical (row, col) in the tile before swizzling: panels
  /// one after the other, rows of getRowBytes() within a panel. wgmma applies
  /// the swizzle itself, to the address bits.
  int64_t getLinearOffset(int64_t row, int64_t col) const {
    int64_t panelElements = layout.getPanelElements();
    return (col / panelElements) * layout.rows * getRowBytes() +
           row * getRowBytes() + (col % panelElements) * elementBytes;
  }

  /// The descriptor bits other than the start address: leading and stride
  /// byte offsets (in 16-byte units) and the swizzle mode.
  uint64_t getDescriptorFields() const {
    int64_t rowBytes = getRowBytes();
    // Stride byte offset: from one group of 8 rows to the next (8 M/N
    // indices when K-major, 8 k when MN-major).
    uint64_t stride = 8 * rowBytes;
    // Leading byte offset: unused (1) for swizzled K-major operands; for
    // MN-major ones, from one panel to the next.
    uint64_t leading = kMajor ? 16 : layout.rows * rowBytes;
    uint64_t mode = rowBytes == 128 ? 1 : rowBytes == 64 ? 2 : 3;
    return ((leading >> 4) << 16) | ((stride >> 4) << 32) | (mode << 62);
  }
};
} // namespace

/// Why `operand` cannot be read by wgmma in pieces of `extent` M or N
/// indices (each warpgroup's, at multiples of `extent`), or an empty string.
static std::string whyNotWgmmaOperand(const WgmmaOperand &operand,
                                      int64_t extent) {
  MemRefType type = operand.getType();
  if (getMemorySpace(type) != MemorySpace::Shared)
    return "an operand is not a shared tile";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides[1] != 1 ||
      strides[0] != type.getDimSize(1))
    // untested: the fragment lowering refuses a part of a shared tile first
    // (checkUse), and casts are looked through.
    return "an operand is not a whole contiguous shared tile";
  int64_t rowBytes = operand.getRowBytes();
  if (rowBytes != 32 && rowBytes != 64 && rowBytes != 128)
    return "an operand's rows are neither 32 or 64 bytes nor laid out in "
           "128-byte panels";
  if (operand.layout.rows % 8 != 0)
    return "an operand's row count is not a multiple of 8";
  // An MN-major piece must be whole panels (the descriptor steps from one
  // panel to the next), or the whole row of a one-panel tile.
  if (!operand.kMajor && extent % operand.layout.getPanelElements() != 0 &&
      extent != type.getDimSize(1))
    return "a warpgroup's columns of an operand are not whole 128-byte "
           "panels";
  return "";
}

std::string fragment::whyNotWgmma(GemmOp op, const FragmentLayout &layout,
                                  int64_t registerLimit) {
  auto aType = cast<MemRefType>(op.getA().getType());
  auto bType = cast<MemRefType>(op.getB().getType());
  Type elem = aType.getElementType();
  if (!(elem.isF16() || elem.isBF16()) || bType.getElementType() != elem)
    return "wgmma here takes f16 or bf16 operands of one type";
  if (!cast<MemRefType>(op.getC().getType()).getElementType().isF32())
    return "wgmma here accumulates in f32";
  int64_t k = op.getTransposeA() ? aType.getDimSize(0) : aType.getDimSize(1);
  if (k % kWgmmaK != 0)
    return "K is not a multiple of 16";
  WgmmaOperand a(op.getA(), !op.getTransposeA());
  WgmmaOperand b(op.getB(), op.getTransposeB());
  std::string why = whyNotWgmmaOperand(a, kWgmmaM);
  if (why.empty())
    why = whyNotWgmmaOperand(b, layout.warpTileN);
  int64_t accumulators =
      layout.warpTileM * layout.warpTileN / kWarpgroupThreads;
  // Below the accumulator's own count ptxas refuses the kernel (256x256
  // tiles at 512 threads: "Insufficient registers (128)"). Above it but with
  // the whole accumulator and kGemmExtraRegisters not fitting, ptxas spills
  // accumulators between wgmma groups: on an H200 128x256x32 tiles at 128
  // threads ran at 39.1 TFLOP/s against 68.4 with mma.sync, and
  // compute-sanitizer's memcheck stopped such kernels with "Illegal
  // instruction" where the mma.sync ones were clean (docs/performance.md,
  // "What the random sweeps found").
  if (why.empty() && accumulators + kGemmExtraRegisters > registerLimit)
    why = "the accumulator needs " + std::to_string(accumulators) +
          " registers per thread and wgmma about " +
          std::to_string(kGemmExtraRegisters) +
          " more, but a thread of this block has " +
          std::to_string(registerLimit);
  return why;
}

/// The 64-bit descriptor of `operand` with the start address at byte
/// `offset` (index) of the tile.
static Value getDescriptor(OpBuilder &b, Location loc,
                           const WgmmaOperand &operand, Value offset) {
  Type i64 = b.getI64Type();
  auto constant = [&](uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i64, v));
  };
  // The element address in the shared window: the buffer's aligned pointer
  // plus the view's offset.
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, loc, operand.tile);
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, operand.tile);
  Value bytes = arith::AddIOp::create(
      b, loc, base,
      arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, metadata.getOffset(),
              arith::ConstantIndexOp::create(b, loc, operand.elementBytes)),
          offset));
  Value address = arith::IndexCastUIOp::create(b, loc, i64, bytes);
  // Start address: bits 4..17 of the address in bits 0..13.
  Value low = arith::AndIOp::create(b, loc, address, constant(0x3FFFF));
  Value start = arith::ShRUIOp::create(b, loc, low, constant(4));
  return arith::OrIOp::create(b, loc, start,
                              constant(operand.getDescriptorFields()));
}

/// The accumulator `registers` of one slice as the struct a wgmma takes,
/// through an empty volatile asm to be placed in front of wgmma.fence, as
/// CUTLASS's warpgroup_fence_operand does: LLVM must have the values in
/// registers before it and cannot rematerialize them after. Where they are
/// constants (the zeros of a clear before a short serial loop that LLVM
/// unrolls), it would otherwise place those moves between the fence and
/// the wgmma, and ptxas would serialize the wgmmas as it does after a clear
/// (emitWgmmaGemm). The asm emits no instruction.
static Value fenceOperands(OpBuilder &b, Location loc,
                           LLVM::LLVMStructType structType,
                           ValueRange registers) {
  std::string constraints;
  for (size_t r = 0; r < registers.size(); ++r)
    constraints += "=f,";
  for (size_t r = 0; r < registers.size(); ++r)
    constraints += std::to_string(r) + (r + 1 < registers.size() ? "," : "");
  return LLVM::InlineAsmOp::create(
             b, loc, structType, registers, /*asm_string=*/"", constraints,
             /*has_side_effects=*/true,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             /*asm_dialect=*/nullptr,
             /*operand_attrs=*/nullptr)
      .getResult(0);
}

void fragment::emitWgmmaGemm(GemmOp op, const FragmentRegisters &acc,
                             FragmentState &state) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  const FragmentLayout &layout = acc.layout;
  Type i64 = b.getI64Type(), f32 = b.getF32Type();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  WgmmaOperand a(op.getA(), !op.getTransposeA());
  WgmmaOperand bOp(op.getB(), op.getTransposeB());
  int64_t k = op.getTransposeA() ? a.getType().getDimSize(0)
                                 : a.getType().getDimSize(1);

  // This warpgroup's tile origin.
  Value group = arith::DivUIOp::create(b, loc, state.warpId, index(4));
  Value groupM = arith::DivUIOp::create(b, loc, group, index(layout.warpsN));
  Value groupRow =
      arith::MulIOp::create(b, loc, groupM, index(layout.warpTileM));
  Value groupN = arith::RemUIOp::create(b, loc, group, index(layout.warpsN));
  Value groupCol =
      arith::MulIOp::create(b, loc, groupN, index(layout.warpTileN));
  // The byte offset of the origin in each tile: a multiple of 8 rows
  // (K-major) or of whole panels (MN-major; whyNotWgmma), so the start of a
  // swizzle pattern.
  auto originOffset = [&](const WgmmaOperand &operand, Value origin) -> Value {
    int64_t rowBytes = operand.getRowBytes();
    if (operand.kMajor)
      return arith::MulIOp::create(b, loc, origin, index(rowBytes));
    int64_t panelElements = operand.layout.getPanelElements();
    Value panel = arith::DivUIOp::create(b, loc, origin, index(panelElements));
    Value inPanel =
        arith::RemUIOp::create(b, loc, origin, index(panelElements));
    Value panelBytes = arith::MulIOp::create(
        b, loc, panel, index(operand.layout.rows * rowBytes));
    Value inPanelBytes =
        arith::MulIOp::create(b, loc, inPanel, index(operand.elementBytes));
    return arith::AddIOp::create(b, loc, panelBytes, inPanelBytes);
  };
  Value descA = getDescriptor(b, loc, a, originOffset(a, groupRow));
  Value descB = getDescriptor(b, loc, bOp, originOffset(bOp, groupCol));
  // Everything else moves the start address by a constant.
  auto advance = [&](Value desc, const WgmmaOperand &operand, int64_t mn,
                     int64_t kk) -> Value {
    int64_t bytes = operand.kMajor ? operand.getLinearOffset(mn, kk)
                                   : operand.getLinearOffset(kk, mn);
    if (bytes == 0)
      return desc;
    return arith::AddIOp::create(
        b, loc, desc,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(i64, bytes >> 4)));
  };

  // The accumulator of slice i: registers [i * n/2, (i + 1) * n/2), in the
  // order of wgmma's m64nN f32 fragment (FragmentLayout.h).
  int64_t sliceRegs = layout.tilesN * 4;
  auto structType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(sliceRegs, f32));
  // After a tile.clear the first k-step ignores the accumulator (scale-d =
  // 0) and its registers go in undefined. Passing the clear's zeros instead
  // gives every register of a slice its own zero, and LLVM places those
  // moves between the first k-step's wgmmas, after wgmma.fence; ptxas then
  // adds a warpgroup.arrive before the wgmma that reads them and a
  // warpgroup.wait for the one before it ("C7519"/"C7517" infos), which
  // serializes the block's first gemm. Any other gemm's registers go in
  // through fenceOperands.
  bool afterClear = state.gemmsAfterClear.contains(op);
  SmallVector<Value> slices;
  for (int64_t i = 0; i < layout.tilesM; ++i) {
    if (afterClear) {
      slices.push_back(LLVM::PoisonOp::create(b, loc, structType));
      continue;
    }
    SmallVector<Value> registers;
    for (int64_t r = 0; r < sliceRegs; ++r)
      registers.push_back(memref::LoadOp::create(
          b, loc, acc.registers, ValueRange{index(i * sliceRegs + r)}));
    slices.push_back(fenceOperands(b, loc, structType, registers));
  }

  MLIRContext *ctx = b.getContext();
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  NVVM::WGMMATypes type = a.getType().getElementType().isF16()
                              ? NVVM::WGMMATypes::f16
                              : NVVM::WGMMATypes::bf16;
  // nvvm.wgmma.mma_async: layout "row" for A and "col" for B are K-major.
  auto layoutA = a.kMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  auto layoutB = bOp.kMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row;
  for (int64_t k0 = 0; k0 < k; k0 += kWgmmaK) {
    Value stepB = advance(descB, bOp, 0, k0);
    for (int64_t i = 0; i < layout.tilesM; ++i) {
      Value stepA = advance(descA, a, i * kWgmmaM, k0);
      slices[i] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, structType, slices[i], stepA, stepB,
          NVVM::MMAShapeAttr::get(ctx, kWgmmaM, layout.warpTileN, kWgmmaK),
          NVVM::WGMMATypesAttr::get(ctx, type),
          NVVM::WGMMATypesAttr::get(ctx, type),
          NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(ctx, afterClear && k0 == 0
                                                ? NVVM::WGMMAScaleOut::zero
                                                : NVVM::WGMMAScaleOut::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::MMALayoutAttr::get(ctx, layoutA),
          NVVM::MMALayoutAttr::get(ctx, layoutB),
          /*satfinite=*/nullptr);
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  if (state.deferredGemms.contains(op)) {
    // The previous gemm's group is done; this one runs on. Its registers
    // are next touched by the next gemm's wgmmas (or after the loop's
    // wait_group 0), its buffers next written after the next gemm's wait.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, /*group=*/1);
    // The copies that follow overwrite the previous gemm's stage: every
    // warp must be done reading it, not only this thread's. With two
    // warpgroups that needs a barrier. With one, the wait may suffice if a
    // wgmma's completion in one thread covers every warp's reads, as
    // CUTLASS's TMA pipeline assumes when it frees a stage on one arrival
    // per warpgroup; the PTX ISA does not say so, and the four warps of a
    // warpgroup sit on different sub-partitions of the SM. So the barrier
    // stands for one warpgroup too, as Triton's bar.sync does; on an H200 it
    // costs the seed's cp.async kernels up to 0.9% and TMA kernels nothing
    // measurable (docs/performance.md, "One warpgroup waits at a barrier
    // too").
    gpu::BarrierOp::create(b, loc);
  } else {
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, /*group=*/0);
  }
  for (int64_t i = 0; i < layout.tilesM; ++i) {
    for (int64_t r = 0; r < sliceRegs; ++r) {
      Value element = LLVM::ExtractValueOp::create(b, loc, slices[i], r);
      memref::StoreOp::create(b, loc, element, acc.registers,
                              ValueRange{index(i * sliceRegs + r)});
    }
  }
}

/// The buffer under `tile` and its constant version: `tile` is a subview
/// that drops the leading (version) dimension of a shared buffer at a
/// constant offset. std::nullopt otherwise.
static std::optional<std::pair<Value, int64_t>> getConstantVersion(Value tile) {
  auto subview = tile.getDefiningOp<memref::SubViewOp>();
  if (!subview || !subview.getDroppedDims().test(0))
    return std::nullopt;
  std::optional<int64_t> version =
      getConstantIntValue(subview.getMixedOffsets()[0]);
  if (!version)
    return std::nullopt;
  return std::make_pair(subview.getSource(), *version);
}

/// Whether `tile` provably names another buffer version than every operand
/// of `gemm` that lies in the same buffer, in a buffer of at least 3
/// versions. (With 2, the copies are for the very next step, and issuing
/// them after the gemm costs more than the overlap gains: 466 -> 442
/// TFLOP/s for the seed's kernel at 2 stages on the H200.)
static bool isOtherVersion(Value tile, GemmOp gemm) {
  std::optional<std::pair<Value, int64_t>> written = getConstantVersion(tile);
  if (!written || cast<MemRefType>(written->first.getType()).getDimSize(0) < 3)
    return false;
  for (Value operand : {gemm.getA(), gemm.getB()}) {
    std::optional<std::pair<Value, int64_t>> read = getConstantVersion(operand);
    if (!read)
      return false;
    if (read->first == written->first && read->second == written->second)
      return false;
  }
  return true;
}

/// Whether `value` is available before `point`, which is in its block or
/// nested below it.
static bool isDefinedBefore(Value value, Operation *point) {
  Operation *def = value.getDefiningOp();
  if (!def) // a block argument dominates its whole block
    return true;
  return def->getBlock() != point->getBlock() || def->isBeforeInBlock(point);
}

/// The pipeline step before `gemm` is [wait_group, barrier, copies of a
/// later stage, commit_group, gemm], with index arithmetic in between.
/// Moves the gemm in front of the copies when they write other versions than
/// it reads, together with the side-effect-free ops that compute its
/// operands (the subviews of its versions); returns whether it moved.
static bool moveAheadOfCopies(GemmOp gemm) {
  Operation *first = nullptr;
  for (Operation *op = gemm->getPrevNode(); op; op = op->getPrevNode()) {
    if (isa<BarrierOp>(op))
      break;
    if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
      if (!isOtherVersion(copy.getDest(), gemm))
        return false;
      first = op;
      continue;
    }
    if (isa<CommitGroupOp>(op) || isMemoryEffectFree(op))
      continue;
    return false;
  }
  if (!first)
    return false;
  SmallVector<Operation *> operandDefs;
  for (Value operand : gemm->getOperands()) {
    if (isDefinedBefore(operand, first))
      continue;
    Operation *def = operand.getDefiningOp();
    if (!isMemoryEffectFree(def) ||
        !llvm::all_of(def->getOperands(),
                      [&](Value v) { return isDefinedBefore(v, first); }))
      return false;
    operandDefs.push_back(def);
  }
  for (Operation *def : operandDefs)
    def->moveBefore(first);
  gemm->moveBefore(first);
  return true;
}

/// Whether `loop`'s body holds only what a group left in flight may run
/// alongside: the pipeline's waits, barriers, async copies and commits, the
/// gemms, and side-effect-free index arithmetic; and whether every
/// accumulator is touched in the body by gemms alone (anything else, e.g. a
/// copy out of the fragment, would read registers a wgmma still writes).
static bool isPlainPipelineBody(scf::ForOp loop) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<WaitGroupOp, BarrierOp, CommitGroupOp, CopyAsyncOp>(op) ||
        isMemoryEffectFree(&op))
      continue;
    auto gemm = dyn_cast<GemmOp>(op);
    if (!gemm)
      return false;
    for (Operation *user : gemm.getC().getUsers())
      if (loop->isAncestor(user) && !isa<GemmOp>(user))
        return false;
  }
  return true;
}

llvm::SmallPtrSet<Operation *, 8>
fragment::scheduleWgmmaGemms(KernelOp kernel) {
  llvm::SmallPtrSet<Operation *, 8> deferred;
  kernel.walk([&](scf::ForOp loop) {
    if (!TileDialect::SteadyStateAttrHelper(loop.getContext())
             .isAttrPresent(loop) ||
        !isPlainPipelineBody(loop))
      return;
    bool any = false;
    for (GemmOp gemm : llvm::to_vector(loop.getBody()->getOps<GemmOp>())) {
      if (!moveAheadOfCopies(gemm))
        continue;
      deferred.insert(gemm);
      any = true;
    }
    if (any) {
      OpBuilder b(loop->getContext());
      b.setInsertionPointAfter(loop);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loop.getLoc(), /*group=*/0);
    }
  });
  return deferred;
}

/// The first op of `block` after `after` (from its start if null) that is,
/// or holds, a user of `tile`; null if there is none.
static Operation *getNextUserInBlock(Value tile, Block *block,
                                     Operation *after) {
  Operation *next = nullptr;
  for (Operation *user : tile.getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock || inBlock == after ||
        (after && inBlock->isBeforeInBlock(after)))
      continue;
    if (!next || inBlock->isBeforeInBlock(next))
      next = inBlock;
  }
  return next;
}

llvm::SmallPtrSet<Operation *, 8>
fragment::getGemmsAfterClear(KernelOp kernel) {
  llvm::SmallPtrSet<Operation *, 8> gemms;
  kernel.walk([&](ClearOp clear) {
    // Fragments are used only by tile.clear, tile.copy and as a gemm's
    // accumulator (checkUse in FragmentLowering.cpp). A loop of one
    // iteration runs its body once: the software pipeline leaves one in
    // front of an unrolled steady state whose trip count the unroll factor
    // does not divide, and its first gemm is the block's first.
    Value tile = clear.getTile();
    Operation *next = getNextUserInBlock(tile, clear->getBlock(), clear);
    while (auto loop = dyn_cast_if_present<scf::ForOp>(next)) {
      // Folded, not only constant bounds: a serial loop's trip count is
      // often ceildiv(K, bk) of constants the kernel captures.
      if (getStaticTripCount(loop) != 1)
        return;
      next = getNextUserInBlock(tile, loop.getBody(), nullptr);
    }
    if (auto gemm = dyn_cast_if_present<GemmOp>(next);
        gemm && gemm.getC() == tile)
      gemms.insert(gemm);
  });
  return gemms;
}
